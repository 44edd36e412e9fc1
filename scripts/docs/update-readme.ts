/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { readFileSync, writeFileSync } from 'node:fs';

import { withOperationsTable } from './operations-table';
import { documentParameterRows } from './document-parameters';
import { parameterTableMarkdown } from './parameter-table';

// `npm run docs`: rewrites the operations table (docs/operations.md) and docs/parameters.md from the catalog.
const file = 'docs/operations.md';
writeFileSync(file, withOperationsTable(readFileSync(file, 'utf8')));
writeFileSync(
	'docs/parameters.md',
	parameterTableMarkdown(
		documentParameterRows(readFileSync('test/fixtures/generation-parameters.md', 'utf8')),
	),
);
process.stdout.write('docs/operations.md and docs/parameters.md updated\n');
