import type { INode } from 'n8n-workflow';

import { creditsOption } from '../../../src/spend/spend-options';

const ctx = { getNode: () => ({ name: 'MediaGen' }) as INode };

describe('creditsOption: a money limit is read only from the decimal number it spells (issue 32, 20)', () => {
	it.each(['0x10', '0X10', '0b10000', '0o20', '1e2', '1E2', ' 0x10 '])(
		'refuses %j, naming the field and the allowed values with the item (never read as another number)',
		(raw) => {
			let error: { message?: string; context?: { itemIndex?: number } } | undefined;
			try {
				creditsOption(ctx, 3, raw, 'Credit Limit per Day', true);
			} catch (caught) {
				error = caught as typeof error;
			}
			expect(error?.message).toBe(
				`Credit Limit per Day: ${JSON.stringify(raw)} is not allowed; allowed: a number of credits of 0 or more`,
			);
			expect(error?.context?.itemIndex).toBe(3);
		},
	);

	it.each<[unknown, number]>([
		['16', 16],
		[' 16 ', 16],
		['0', 0],
		['12.5', 12.5],
		['.5', 0.5],
		['7.', 7],
		[16, 16],
	])('reads %j as %d', (raw, expected) => {
		expect(creditsOption(ctx, 0, raw, 'Credit Limit per Day', true)).toBe(expected);
	});
});
