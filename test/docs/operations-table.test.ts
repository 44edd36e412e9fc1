/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { catalog } from '../../src/catalog';
import { withOperationsTable } from '../../scripts/docs/operations-table';

describe('the operations table (docs/operations.md)', () => {
	const readme = readFileSync(join(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8');

	it('is the table generated from the catalog (run `npm run docs` when this fails)', () => {
		expect(readme).toBe(withOperationsTable(readme));
	});

	it('lists every catalog endpoint', () => {
		for (const e of catalog) expect(readme).toContain(`\`${e.method} ${e.path}\``);
	});
});
