/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// The layer order of src/ as CONTRIBUTING.md writes it: a module may import its own layer or one
// further down the list, never one above it. Every import form counts (import, import type,
// export … from, require, import()), read by TypeScript's own pre-processor.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

import { preProcessFile } from 'typescript';

const SRC = join(__dirname, '..', '..', '..', 'src');
const LAYERS = [
	'node',
	'waits',
	'spend',
	'agents',
	'runs',
	'webhooks',
	'outputs',
	'models',
	'media',
	'transport',
	'options',
	'credentials',
	'catalog',
] as const;

interface Edge {
	file: string;
	specifier: string;
	/** the layer the specifier resolves into; undefined for a package */
	to?: string;
}

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

const layerOf = (path: string) => relative(SRC, path).split(sep)[0];

function importsOf(file: string): Edge[] {
	const { importedFiles } = preProcessFile(readFileSync(file, 'utf8'), true, true);
	return importedFiles.map(({ fileName: specifier }) => ({
		file: relative(SRC, file),
		specifier,
		to: specifier.startsWith('.') ? layerOf(resolve(dirname(file), specifier)) : undefined,
	}));
}

/** What breaks the order: an import up the list, out of src/, into an unknown folder, or (catalog) anything but catalog. */
function upwardImports(edges: Edge[]): string[] {
	return edges
		.filter(({ file, to }) => {
			const from = file.split(sep)[0];
			if (from === 'catalog') return to !== 'catalog';
			if (to === undefined) return false;
			const [a, b] = [
				LAYERS.indexOf(from as (typeof LAYERS)[number]),
				LAYERS.indexOf(to as (typeof LAYERS)[number]),
			];
			return b < a || b === -1;
		})
		.map(({ file, specifier }) => `${file} imports ${specifier}`);
}

const files = sourceFiles(SRC);
const edges = files.flatMap(importsOf);

describe(`src/ layers: imports go down ${LAYERS.join(' → ')}`, () => {
	it('reads every module and finds its imports (the check below has something to check)', () => {
		expect(files.length).toBeGreaterThan(50);
		expect(edges.filter((e) => e.to !== undefined).length).toBeGreaterThan(100);
		for (const layer of LAYERS) expect(files.some((f) => layerOf(f) === layer)).toBe(true);
	});

	it('every module lives in one of the layers', () => {
		expect(
			[...new Set(files.map(layerOf))].filter(
				(l) => !LAYERS.includes(l as (typeof LAYERS)[number]),
			),
		).toEqual([]);
	});

	it('no module imports a layer above its own; catalog imports only catalog files (no package, not even for types)', () => {
		expect(upwardImports(edges)).toEqual([]);
	});

	it('the rule itself flags an upward edge, a package in catalog and a path out of src/', () => {
		expect(
			upwardImports([
				{ file: join('media', 'upload.ts'), specifier: '../runs/call', to: 'runs' },
				{ file: join('transport', 'request.ts'), specifier: '../node/execute', to: 'node' },
				{ file: join('catalog', 'images.ts'), specifier: 'n8n-workflow' },
				{ file: join('runs', 'submit.ts'), specifier: '../../sandbox/state', to: '..' },
				{ file: join('node', 'execute.ts'), specifier: '../runs/submit', to: 'runs' },
				{ file: join('runs', 'submit.ts'), specifier: 'n8n-workflow' },
			]),
		).toEqual([
			`${join('media', 'upload.ts')} imports ../runs/call`,
			`${join('transport', 'request.ts')} imports ../node/execute`,
			`${join('catalog', 'images.ts')} imports n8n-workflow`,
			`${join('runs', 'submit.ts')} imports ../../sandbox/state`,
		]);
	});
});
