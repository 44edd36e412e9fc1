/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyOptions, INodeType } from 'n8n-workflow';

import { catalog, endpointKey, extraOperations, type Endpoint } from '../../../src/catalog';
import { customOperationKeys } from '../../../src/runs/custom-operations';
import { sandboxHandlers } from '../../../sandbox/handlers';
import { defaultSandboxOptions } from '../../../sandbox/options';
import { SandboxServices } from '../../../sandbox/services';
import { SandboxState } from '../../../sandbox/state';
import { expectedIdempotency } from '../../fixtures/idempotency-rules';
import { seedRows, type SeedRow } from '../../helpers/endpoint-rows';

/**
 * The project's transcription of the API document's endpoint table (a copy of
 * shared/spec/endpoints.tsv): every row must have exactly one catalog entry that agrees with it,
 * a sandbox handler and a node operation. Failures list the endpoints that miss something.
 */
type Row = SeedRow;

const rows: Row[] = seedRows();

const key = (r: Pick<Row, 'method' | 'path'>) => `${r.method} ${r.path}`;

/** What the catalog must say for a row (decisions.md: the unspecified route needs videos:write and gets a key anyway). */
function expected(row: Row): Pick<Endpoint, 'scope' | 'idempotency' | 'auth'> {
	return {
		scope: row.scope === 'none' ? null : row.scope === 'unspecified' ? 'videos:write' : row.scope,
		idempotency: expectedIdempotency(row.method, row.path, row.idempotency),
		auth: row.auth === 'none' ? 'none' : 'bearer',
	};
}

/** Every node class under nodes/ (except the trigger), by its catalog node name. */
function loadNodes(): Map<string, INodeType> {
	const dir = join(__dirname, '..', '..', '..', 'nodes');
	const nodes = new Map<string, INodeType>();
	for (const name of readdirSync(dir)) {
		if (name.endsWith('Trigger')) continue;
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- every folder under nodes/ is loaded by name
		const module = require(join(dir, name, `${name}.node.ts`)) as Record<
			string,
			new () => INodeType
		>;
		if (module[name]) nodes.set(name, new module[name]());
	}
	return nodes;
}

/** Whether a node's parameters offer the endpoint's resource and, for it, the endpoint's operation. */
function exposes(node: INodeType, e: Endpoint): boolean {
	const properties = node.description.properties as INodeProperties[];
	const resource = properties.find((p) => p.name === 'resource');
	if (
		!(resource?.options as INodePropertyOptions[] | undefined)?.some((o) => o.value === e.resource)
	)
		return false;
	return properties.some(
		(p) =>
			p.name === 'operation' &&
			(p.displayOptions?.show?.resource as string[] | undefined)?.includes(e.resource) &&
			(p.options as INodePropertyOptions[]).some((o) => o.value === e.operation),
	);
}

describe('coverage of the endpoint table (test/fixtures/endpoints.tsv)', () => {
	it('has the 142 endpoints of the API document', () => {
		expect(rows).toHaveLength(142);
		expect(new Set(rows.map(key)).size).toBe(142);
	});

	it('gives every endpoint exactly one catalog entry with its scope, idempotency and auth', () => {
		const problems: string[] = [];
		for (const row of rows) {
			const entries = catalog.filter((e) => endpointKey(e) === key(row));
			if (entries.length !== 1) {
				problems.push(`${key(row)}: ${entries.length} catalog entries`);
				continue;
			}
			const want = expected(row);
			const [entry] = entries;
			for (const field of ['scope', 'idempotency', 'auth'] as const) {
				if (entry[field] !== want[field])
					problems.push(
						`${key(row)}: ${field} is ${String(entry[field])}, the table says ${String(want[field])}`,
					);
			}
		}
		const known = new Set(rows.map(key));
		for (const e of catalog)
			if (!known.has(endpointKey(e)))
				problems.push(`${endpointKey(e)}: in the catalog but not in the table`);
		expect(problems).toEqual([]);
	});

	it('serves every endpoint from the sandbox', () => {
		const state = new SandboxState({ ...defaultSandboxOptions });
		const handlers = sandboxHandlers(new SandboxServices(state));
		const missing = rows.filter((r) => !handlers[key(r)]).map(key);
		expect(missing).toEqual([]);
	});

	it('reaches every endpoint from a node operation', () => {
		const nodes = loadNodes();
		const missing: string[] = [];
		for (const row of rows) {
			const entry = catalog.find((e) => endpointKey(e) === key(row));
			if (!entry) {
				missing.push(`${key(row)}: no catalog entry`);
				continue;
			}
			const node = nodes.get(entry.node);
			if (!node) missing.push(`${key(row)}: node ${entry.node} does not exist`);
			else if (!exposes(node, entry))
				missing.push(
					`${key(row)}: ${entry.node} does not offer ${entry.resource} → ${entry.operation}`,
				);
		}
		expect(missing).toEqual([]);
	});
});

describe('extra operations and custom hooks', () => {
	const template = (path: string) => new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);

	it('reach an endpoint of the catalog with its method, scope and idempotency', () => {
		for (const op of extraOperations) {
			const endpoint = catalog.find(
				(e) => e.method === op.method && template(e.path).test(op.path),
			);
			expect({ op: `${op.node} ${op.resource}.${op.operation}`, found: Boolean(endpoint) }).toEqual(
				{ op: `${op.node} ${op.resource}.${op.operation}`, found: true },
			);
			expect([op.scope, op.idempotency, op.auth]).toEqual([
				endpoint!.scope,
				endpoint!.idempotency,
				endpoint!.auth,
			]);
		}
	});

	it('name custom executors that exist, and never share a resource/operation of a node', () => {
		const all = [...catalog, ...extraOperations];
		for (const e of all) if (e.custom) expect(customOperationKeys).toContain(e.custom);
		const pairs = all.map((e) => `${e.node} ${e.resource}.${e.operation}`);
		expect(pairs.filter((p, i) => pairs.indexOf(p) !== i)).toEqual([]);
	});
});
