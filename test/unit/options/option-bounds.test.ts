// Every option is defined once with its reader: the field n8n shows and the value the node accepts
// come from one definition. Checked over every option, and over every node's description (a number
// field of the Options collection that no definition owns fails here).
import type { INode, INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { ALL_OPTIONS } from '../../../src/node/description/run-options';
import { NumberOption } from '../../../src/options/option';
import { TRIGGER_OPTIONS } from '../../../src/webhooks/trigger-options';
import { actionNodes } from '../../helpers/action-nodes';

const ctx = { getNode: () => ({ name: 'MediaGen' }) as INode };
const numbers = [...ALL_OPTIONS, ...TRIGGER_OPTIONS].filter(
	(option): option is NumberOption => option instanceof NumberOption,
);

/** Every property of a description, collections and fixed collections opened. */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((p) => [
		p,
		...allProperties(
			((p.options ?? []) as Array<INodeProperties | { values?: INodeProperties[] }>).flatMap((o) =>
				'type' in o && 'name' in o
					? [o as INodeProperties]
					: ((o as { values?: INodeProperties[] }).values ?? []),
			),
		),
	]);
}

describe('options: one definition gives the field and its reader', () => {
	it('defines the options the node reads, each name once', () => {
		const names = ALL_OPTIONS.map((option) => option.name);
		expect(names.length).toBeGreaterThan(15);
		expect(new Set(names).size).toBe(names.length);
	});

	it.each(numbers.map((option) => [option.displayName, option] as const))(
		'%s: the field shows the bounds the reader enforces',
		(_, option) => {
			const field = option.property();
			expect(field.typeOptions?.minValue).toBe(option.min);
			expect(field.typeOptions?.maxValue).toBe(
				Number.isFinite(option.max) ? option.max : undefined,
			);
			expect(option.read(ctx, 0, { [option.name]: option.min })).toBe(option.min);
			expect(() => option.read(ctx, 0, { [option.name]: option.min - 1 })).toThrow(
				`${option.displayName}: ${option.min - 1} is not allowed`,
			);
			if (Number.isFinite(option.max)) {
				expect(option.read(ctx, 0, { [option.name]: option.max })).toBe(option.max);
				expect(() => option.read(ctx, 0, { [option.name]: option.max + 1 })).toThrow(
					`allowed: a number from ${option.min} to ${option.max}`,
				);
			}
			expect(() => option.read(ctx, 0, { [option.name]: 'soon' })).toThrow(option.displayName);
			expect(option.read(ctx, 0, {})).toBe(option.spec.default);
		},
	);

	it('every number option of every node shows the bounds of its definition, and none lacks one', () => {
		const byName = new Map(numbers.map((option) => [option.name, option]));
		const seen = new Set<string>();
		const unowned: string[] = [];
		for (const node of Object.values(actionNodes())) {
			const description = node.description as INodeTypeDescription;
			const options = description.properties.filter(
				(p) => p.name === 'options' && p.type === 'collection',
			);
			for (const field of [
				...allProperties(options).filter((p) => p.type === 'number'),
				...description.properties.filter(
					(p) => p.type === 'number' && byName.get(p.name)?.displayName === p.displayName,
				),
			]) {
				const option = byName.get(field.name);
				if (!option) {
					unowned.push(`${description.name}: ${field.name}`);
					continue;
				}
				seen.add(field.name);
				expect({
					name: field.name,
					min: field.typeOptions?.minValue,
					max: field.typeOptions?.maxValue,
				}).toEqual({
					name: option.name,
					min: option.min,
					max: Number.isFinite(option.max) ? option.max : undefined,
				});
			}
		}
		expect(unowned).toEqual([]);
		// the check above saw the options it is about
		expect([...seen].sort()).toEqual(
			expect.arrayContaining([
				'concurrency',
				'limit',
				'maxOutputSize',
				'requestTimeout',
				'toolTimeBudget',
				'waitTimeout',
			]),
		);
	});
});
