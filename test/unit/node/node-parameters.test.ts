import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { NodeParameters } from '../../../src/node/node-parameters';

/** A node whose parameters n8n would resolve: `prompt` per item (an expression), the rest fixed. */
function context(parameters: INode['parameters']) {
	const reads: string[] = [];
	const node: INode = {
		id: 'n',
		name: 'MediaGen Image',
		type: 'CUSTOM.mediaGenImage',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const ctx = {
		getNode: () => structuredClone(node),
		getNodeParameter: (name: string, itemIndex: number, fallback: unknown) => {
			reads.push(`${name}#${itemIndex}`);
			const raw = parameters[name];
			if (raw === undefined) return fallback;
			return typeof raw === 'string' && raw.startsWith('=')
				? `${raw.slice(1)} for item ${itemIndex}`
				: raw;
		},
		isToolExecution: () => false,
	} as unknown as IExecuteFunctions;
	return { ctx, reads };
}

describe('NodeParameters: what 1,000 items read from n8n', () => {
	it('reads a parameter without an expression once, and one with an expression (anywhere inside) for each item', () => {
		const { ctx, reads } = context({
			prompt: '={{ $json.prompt }}',
			operation: 'generate',
			options: { waitTimeout: 60 },
			additionalFields: { seed: '={{ $json.seed }}' },
		});
		const parameters = new NodeParameters(ctx);
		for (let item = 0; item < 3; item++) {
			expect(parameters.get('prompt', item, '')).toBe(`{{ $json.prompt }} for item ${item}`);
			expect(parameters.get('operation', item)).toBe('generate');
			expect(parameters.get('options', item, {})).toEqual({ waitTimeout: 60 });
			expect(parameters.get('additionalFields', item, {})).toEqual({ seed: '={{ $json.seed }}' });
			expect(parameters.get('model', item, 'fallback')).toBe('fallback');
		}
		expect(reads.filter((r) => r.startsWith('prompt#'))).toEqual([
			'prompt#0',
			'prompt#1',
			'prompt#2',
		]);
		expect(reads.filter((r) => r.startsWith('additionalFields#'))).toEqual([
			'additionalFields#0',
			'additionalFields#1',
			'additionalFields#2',
		]);
		expect(reads.filter((r) => r.startsWith('operation#'))).toEqual(['operation#0']);
		expect(reads.filter((r) => r.startsWith('options#'))).toEqual(['options#0']);
		expect(reads.filter((r) => r.startsWith('model#'))).toEqual(['model#0']);
	});

	it('says which parameters the workflow saved', () => {
		const parameters = new NodeParameters(context({ productName: 'Mug' }).ctx);
		expect(parameters.saved('productName')).toBe(true);
		expect(parameters.saved('tone')).toBe(false);
	});
});
