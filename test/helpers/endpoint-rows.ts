/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One row of the seed's endpoint table (test/fixtures/endpoints.tsv, a copy of shared/spec/endpoints.tsv). */
export interface SeedRow {
	method: string;
	path: string;
	/** a scope, `none` or `unspecified` */
	scope: string;
	/** `yes`, `no` or `unspecified` */
	idempotency: string;
	/** `bearer` or `none` */
	auth: string;
}

export function seedRows(): SeedRow[] {
	return readFileSync(join(__dirname, '..', 'fixtures', 'endpoints.tsv'), 'utf8')
		.trim()
		.split('\n')
		.slice(1)
		.map((line) => {
			const [method, path, scope, idempotency, auth] = line.split('\t').map((c) => c.trim());
			return { method, path, scope, idempotency, auth };
		});
}

export const rowKey = (r: Pick<SeedRow, 'method' | 'path'>) => `${r.method} ${r.path}`;
