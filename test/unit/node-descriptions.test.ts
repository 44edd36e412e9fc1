/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import { NodeHelpers, type INode, type INodeProperties, type INodePropertyOptions, type INodeType } from 'n8n-workflow';

import { endpointsOfNode, type NodeName } from '../../src/catalog';

/** Every action node built from the catalog, loaded from nodes/. */
function actionNodes(): Array<[string, INodeType]> {
	const dir = join(__dirname, '..', '..', 'nodes');
	return readdirSync(dir)
		.filter((name) => !name.endsWith('Trigger'))
		.map((name) => {
			// eslint-disable-next-line @typescript-eslint/no-require-imports -- every folder under nodes/ is loaded by name
			const module = require(join(dir, name, `${name}.node.ts`)) as Record<string, new () => INodeType>;
			return [name, new module[name]()] as [string, INodeType];
		});
}

const optionsOf = (p: INodeProperties) => (p.options ?? []) as INodePropertyOptions[];

describe.each(actionNodes())('%s description', (name, node) => {
	const properties = node.description.properties as INodeProperties[];

	it('offers every catalog operation of the node under its resource', () => {
		const resources = optionsOf(properties.find((p) => p.name === 'resource')!).map((o) => o.value);
		for (const e of endpointsOfNode(name as NodeName)) {
			expect(resources).toContain(e.resource);
			const operations = properties.filter((p) => p.name === 'operation' && (p.displayOptions?.show?.resource as string[]).includes(e.resource));
			expect(operations).toHaveLength(1);
			expect(optionsOf(operations[0]).map((o) => o.value)).toContain(e.operation);
		}
	});

	it('gives every fixed dropdown a default among its choices (also inside collections)', () => {
		const check = (p: INodeProperties) => {
			if (p.type === 'options' && !p.typeOptions?.loadOptionsMethod) {
				expect({ name: p.name, default: optionsOf(p).some((o) => o.value === p.default) }).toEqual({ name: p.name, default: true });
			}
			if (p.type === 'collection') for (const inner of p.options as INodeProperties[]) check(inner);
		};
		properties.forEach(check);
	});

	it('resolves the parameters of every operation with n8n (defaults, display options)', () => {
		for (const e of endpointsOfNode(name as NodeName)) {
			const values = NodeHelpers.getNodeParameters(properties, { resource: e.resource, operation: e.operation }, true, false, { typeVersion: 1 } as INode, node.description);
			expect(values).toEqual(expect.objectContaining({ resource: e.resource, operation: e.operation }));
		}
	});

	it('never shows two parameters of one name at once', () => {
		for (const e of endpointsOfNode(name as NodeName)) {
			const visible = properties.filter((p) => {
				const show = p.displayOptions?.show;
				if (!show) return true;
				if (show.resource && !(show.resource as string[]).includes(e.resource)) return false;
				if (show.operation && !(show.operation as string[]).includes(e.operation)) return false;
				// parameters that also depend on another choice (URL vs binary source, Return All) are alternatives
				return Object.keys(show).every((k) => k === 'resource' || k === 'operation');
			});
			const names = visible.map((p) => p.name);
			expect({ op: `${e.resource}.${e.operation}`, duplicates: names.filter((n, i) => names.indexOf(n) !== i) }).toEqual({ op: `${e.resource}.${e.operation}`, duplicates: [] });
		}
	});
});
