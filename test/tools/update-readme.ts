/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { readFileSync, writeFileSync } from 'node:fs';

import { withOperationsTable } from '../../src/catalog/operations-table';

// `npm run docs`: rewrites the README's operations table from the catalog.
const file = 'README.md';
writeFileSync(file, withOperationsTable(readFileSync(file, 'utf8')));
process.stdout.write('README operations table updated\n');
