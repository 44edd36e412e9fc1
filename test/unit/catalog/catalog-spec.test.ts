/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { catalog, endpointKey, type Endpoint } from '../../../src/catalog';
import { expectedIdempotency } from '../../fixtures/idempotency-rules';

/** The project's endpoint table, transcribed from the API document (the repository's copy, else shared/spec beside it). */
const inRepository = join(__dirname, '..', '..', 'fixtures', 'endpoints.tsv');
const table = existsSync(inRepository)
	? inRepository
	: join(__dirname, '..', '..', '..', '..', 'shared', 'spec', 'endpoints.tsv');
const rows = readFileSync(table, 'utf8')
	.trim()
	.split('\n')
	.slice(1)
	.map((line) => {
		const [method, path, scope, idempotency, auth] = line.split('\t');
		return { key: `${method} ${path}`, scope, idempotency, auth };
	});
const spec = new Map(rows.map((r) => [r.key, r]));

function expected(row: {
	key: string;
	scope: string;
	idempotency: string;
	auth: string;
}): Pick<Endpoint, 'scope' | 'idempotency' | 'auth'> {
	return {
		scope: row.scope === 'none' ? null : row.scope === 'unspecified' ? 'videos:write' : row.scope,
		idempotency: expectedIdempotency(row.key.split(' ')[0], row.key.split(' ')[1], row.idempotency),
		auth: row.auth === 'none' ? 'none' : 'bearer',
	};
}

describe('catalog against the endpoint table', () => {
	it('has no entry that the table lacks, and no endpoint twice', () => {
		const keys = catalog.map(endpointKey);
		expect(keys.filter((k) => !spec.has(k))).toEqual([]);
		expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
	});

	it('gives every entry the scope, Idempotency-Key rule and auth of the table', () => {
		for (const e of catalog) {
			const row = spec.get(endpointKey(e))!;
			expect({
				key: endpointKey(e),
				scope: e.scope,
				idempotency: e.idempotency,
				auth: e.auth,
			}).toEqual({ key: endpointKey(e), ...expected(row) });
		}
	});

	it('covers the trained-model, producer, game, app and task endpoints (41) with MediaGen Library / Producer operations', () => {
		const mine = rows.filter((r) =>
			/^(POST|GET|PATCH|DELETE) \/(loras|image-styles|style-skills|games|apps|coloring-books|picture-books|faceless-reels|explainers|music-videos|tasks)\b/.test(
				r.key,
			),
		);
		expect(mine).toHaveLength(41);
		for (const row of mine) {
			const e = catalog.find((x) => endpointKey(x) === row.key);
			expect({ key: row.key, node: e?.node }).toEqual({
				key: row.key,
				node: /\/(loras|image-styles|style-skills)/.test(row.key)
					? 'MediaGenLibrary'
					: 'MediaGenProducer',
			});
		}
	});
});
