/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

import ts from 'typescript';

import { ENDPOINT_TABLE, operationName } from '../../sandbox/endpoint-table';
import { rowKey, seedRows } from '../helpers/endpoint-rows';

const ROOT = resolve(__dirname, '..', '..');
const SANDBOX = join(ROOT, 'sandbox');
/** What ships: the sandbox is a second opinion and may not reuse any of it. */
const PACKAGE_DIRS = ['src', 'nodes', 'credentials'].map((d) => join(ROOT, d));

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return /\.(ts|js|mjs|cjs)$/.test(name) ? [path] : [];
	});
}

/** Every module specifier a file names: import/export from, import type, require(), import(). */
function specifiers(file: string): string[] {
	return ts
		.preProcessFile(readFileSync(file, 'utf8'), true, true)
		.importedFiles.map((f) => f.fileName);
}

/** The package files a sandbox file reaches, as "sandbox/x.ts → ../src/y". */
function packageImports(files: string[]): string[] {
	return files.flatMap((file) =>
		specifiers(file)
			.filter((spec) => spec.startsWith('.'))
			.filter((spec) => {
				const target = resolve(dirname(file), spec);
				return PACKAGE_DIRS.some((dir) => target === dir || target.startsWith(dir + sep));
			})
			.map((spec) => `${relative(ROOT, file)} → ${spec}`),
	);
}

describe('the sandbox is a second opinion', () => {
	it('imports nothing from src/, nodes/ or credentials/ (not even types)', () => {
		const files = sourceFiles(SANDBOX);
		expect(files.length).toBeGreaterThan(30);
		expect(packageImports(files)).toEqual([]);
	});

	it('finds package imports of every kind when they are there (the check is not blind)', () => {
		const probe = join(SANDBOX, 'routes', 'probe.ts');
		const kinds = [
			"import { catalog } from '../../src/catalog';",
			"import type { Endpoint } from '../../src/catalog/types';",
			"export { signPayload } from '../../src/webhooks/signature';",
			"const x = require('../../nodes/MediaGenImage/MediaGenImage.node');",
			"const y = import('../../credentials/MediaGenApi.credentials');",
		];
		for (const line of kinds) {
			const specs = ts.preProcessFile(line, true, true).importedFiles.map((f) => f.fileName);
			const reached = specs
				.map((spec) => resolve(dirname(probe), spec))
				.filter((t) => PACKAGE_DIRS.some((dir) => t.startsWith(dir + sep)));
			expect({ line, reached: reached.length }).toEqual({ line, reached: 1 });
		}
	});

	it('serves the seed endpoint table: same rows, scopes, Idempotency-Key and auth (decisions.md for the draft final)', () => {
		const seed = seedRows();
		expect(ENDPOINT_TABLE.map(operationName).sort()).toEqual(seed.map(rowKey).sort());
		for (const row of seed) {
			const served = ENDPOINT_TABLE.find((e) => operationName(e) === rowKey(row))!;
			const decided = rowKey(row) === 'POST /videos/generations/{id}/final';
			const want = {
				key: rowKey(row),
				scope: decided ? 'videos:write' : row.scope === 'none' ? null : row.scope,
				idempotencyKey: decided ? 'optional' : row.idempotency,
				auth: row.auth,
			};
			expect({
				key: rowKey(row),
				scope: served.scope,
				idempotencyKey: served.idempotencyKey,
				auth: served.auth,
			}).toEqual(want);
		}
		expect(
			seed.filter((r) => r.scope === 'unspecified' || r.idempotency === 'unspecified').map(rowKey),
		).toEqual(['POST /videos/generations/{id}/final']);
	});
});
