/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// scripts/stage-package.mjs, the folder .github/workflows/publish.yml publishes: from a repository
// whose package.json has every development script, it stages a package whose `npm pack` holds
// only dist/, README, LICENSE and a package.json without scripts or devDependencies, and it refuses
// a build that lacks a file the n8n field names. The repository's own dist/ is not needed: the
// fixture's dist/ holds one empty file for each entry of the n8n field.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const REPO = join(__dirname, '..', '..');
const SCRIPT = join(REPO, 'scripts', 'stage-package.mjs');
const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
	scripts: Record<string, string>;
	devDependencies: Record<string, string>;
	n8n: { nodes: string[]; credentials: string[] };
} & Record<string, unknown>;
const n8nFiles = [...manifest.n8n.nodes, ...manifest.n8n.credentials];

function fixture(dropped?: string): string {
	const root = mkdtempSync(join(tmpdir(), 'mediagen-stage-'));
	for (const file of ['package.json', 'README.md', 'LICENSE'])
		cpSync(join(REPO, file), join(root, file));
	for (const file of n8nFiles.filter((f) => f !== dropped)) {
		mkdirSync(join(root, dirname(file)), { recursive: true });
		writeFileSync(join(root, file), '"use strict";\n');
	}
	return root;
}

const stage = (root: string) =>
	spawnSync(process.execPath, [SCRIPT, '--root', root, '--out', join(root, 'staged')], {
		encoding: 'utf8',
	});

describe('the staged package (what npm publishes)', () => {
	const roots: string[] = [];
	afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

	it('the repository package.json has development scripts that point at files the package does not ship', () => {
		// why staging exists; if this stops being true, the staging can go
		expect(
			Object.values(manifest.scripts).some((command) => /\.ci\/|test\/|scripts\//.test(command)),
		).toBe(true);
		expect(Object.keys(manifest.devDependencies).length).toBeGreaterThan(0);
	});

	it('packs to dist/, README.md, LICENSE and a package.json holding the n8n field and what a user reads, without scripts or devDependencies', () => {
		const root = fixture();
		roots.push(root);
		const run = stage(root);
		expect(run.stderr).toBe('');
		expect(run.status).toBe(0);
		const staged = join(root, 'staged');
		const [report] = JSON.parse(
			execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
				cwd: staged,
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'pipe'],
			}),
		) as Array<{ files: Array<{ path: string }> }>;
		const files = report.files.map((f) => f.path).sort();
		expect(files).toEqual(['LICENSE', 'README.md', ...n8nFiles, 'package.json'].sort());

		const published = JSON.parse(readFileSync(join(staged, 'package.json'), 'utf8')) as Record<
			string,
			unknown
		>;
		expect(published).not.toHaveProperty('scripts');
		expect(published).not.toHaveProperty('devDependencies');
		for (const field of [
			'name',
			'version',
			'description',
			'keywords',
			'license',
			'homepage',
			'author',
			'repository',
			'engines',
			'files',
			'n8n',
			'peerDependencies',
		]) {
			expect(published[field]).toEqual(manifest[field]);
		}
		expect(run.stdout).toContain(`${files.length} files`);
	});

	it('refuses a build that lacks a file the n8n field names', () => {
		const root = fixture(manifest.n8n.nodes[0]);
		roots.push(root);
		const run = stage(root);
		expect(run.status).toBe(1);
		expect(run.stderr).toContain(
			`files the n8n field names but the tarball lacks: ${manifest.n8n.nodes[0]}`,
		);
	});
});
