import type { IDataObject, INode } from 'n8n-workflow';

import { BooleanOption, NumberOption } from '../../../src/options/option';

const ctx = { getNode: () => ({ name: 'MediaGen' }) as INode };

const aNumber = new NumberOption({
	name: 'aNumber',
	displayName: 'A Number',
	description: '',
	default: 1,
	min: 0,
	max: 100,
	changesRequest: false,
});

const aSwitch = new BooleanOption({
	name: 'aSwitch',
	displayName: 'A Switch',
	description: '',
	default: false,
	changesRequest: true,
});

function refusal(read: () => unknown): { message?: string; itemIndex?: number } {
	try {
		read();
	} catch (error) {
		const e = error as { message?: string; context?: { itemIndex?: number } };
		return { message: e.message, itemIndex: e.context?.itemIndex };
	}
	return {};
}

describe('the option kit reads what a value clearly says, and refuses the rest (issue 32, 20)', () => {
	it.each(['0x10', '0b1', '0o7', '1e1'])(
		'a number option refuses %j (not read as the number another notation spells)',
		(raw) => {
			expect(refusal(() => aNumber.read(ctx, 2, { aNumber: raw }))).toEqual({
				message: `A Number: ${JSON.stringify(raw)} is not allowed; allowed: a number from 0 to 100`,
				itemIndex: 2,
			});
		},
	);

	it.each<[unknown, boolean]>([
		[true, true],
		[false, false],
		['true', true],
		[' TRUE ', true],
		['false', false],
		['False', false],
		[undefined, false],
		['', false],
		[null, false],
	])('a switch read strictly reads %j as %s', (raw, expected) => {
		expect(aSwitch.readStrict(ctx, 0, { aSwitch: raw } as IDataObject)).toBe(expected);
	});

	it.each<unknown>(['yes', '1', 'no', '0', 1, 0, 'on', {}])(
		'a switch read strictly refuses %j, naming the field and the allowed values with the item',
		(raw) => {
			expect(refusal(() => aSwitch.readStrict(ctx, 4, { aSwitch: raw } as IDataObject))).toEqual({
				message: `A Switch: ${JSON.stringify(raw)} is not allowed; allowed: true or false`,
				itemIndex: 4,
			});
		},
	);
});
