/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// scripts/release-check.mjs (`npm run release:check`), run as a person runs it, on copies of the
// repository's release-relevant files: it fails while a placeholder remains and passes once a
// person has set everything it names.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..');
const SCRIPT = join(REPO, 'scripts', 'release-check.mjs');
const PLACEHOLDER_REPO = 'github.com/n8n-nodes-mediagen/n8n-nodes-mediagen';
const PLACEHOLDER_EMAIL = 'maintainers@n8n-nodes-mediagen.dev';

const check = (root: string) => {
	const run = spawnSync(process.execPath, [SCRIPT, '--root', root], { encoding: 'utf8' });
	return { code: run.status, out: run.stdout + run.stderr };
};

/** A copy of what the check reads: package.json, the publish workflow, README, CHANGELOG, one credential and one node file. */
function copyOfRepository(): string {
	const root = mkdtempSync(join(tmpdir(), 'mediagen-release-check-'));
	for (const path of [
		'package.json',
		'README.md',
		'CHANGELOG.md',
		'.github/workflows/publish.yml',
		'credentials/MediaGenApi.credentials.ts',
		'nodes/MediaGenImage/MediaGenImage.node.ts',
	]) {
		mkdirSync(join(root, path, '..'), { recursive: true });
		cpSync(join(REPO, path), join(root, path));
	}
	return root;
}

/** What a maintainer does: the real author and repository everywhere. */
function fillIn(root: string): void {
	const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	manifest.author = { name: 'Ada Maintainer', email: 'ada@example.org' };
	manifest.homepage = 'https://github.com/example-org/n8n-nodes-mediagen#readme';
	manifest.repository = {
		type: 'git',
		url: 'git+https://github.com/example-org/n8n-nodes-mediagen.git',
	};
	writeFileSync(join(root, 'package.json'), JSON.stringify(manifest, null, 2));
	for (const path of [
		'README.md',
		'CHANGELOG.md',
		'credentials/MediaGenApi.credentials.ts',
		'nodes/MediaGenImage/MediaGenImage.node.ts',
	]) {
		writeFileSync(
			join(root, path),
			readFileSync(join(root, path), 'utf8')
				.split(PLACEHOLDER_REPO)
				.join('github.com/example-org/n8n-nodes-mediagen'),
		);
	}
}

describe('npm run release:check', () => {
	const roots: string[] = [];
	const fresh = () => {
		const root = copyOfRepository();
		roots.push(root);
		return root;
	};
	afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

	it('fails on the placeholders the repository was set up with, naming each', () => {
		const root = fresh();
		const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
		manifest.author.email = PLACEHOLDER_EMAIL;
		manifest.homepage = `https://${PLACEHOLDER_REPO}#readme`;
		manifest.repository.url = `git+https://${PLACEHOLDER_REPO}.git`;
		writeFileSync(join(root, 'package.json'), JSON.stringify(manifest));
		writeFileSync(join(root, 'README.md'), `git clone https://${PLACEHOLDER_REPO}.git`);
		const { code, out } = check(root);
		expect(code).toBe(1);
		expect(out).toContain(`author.email: still the placeholder ${PLACEHOLDER_EMAIL}`);
		expect(out).toContain('package.json homepage: still the placeholder');
		expect(out).toContain('package.json repository.url: still the placeholder');
		expect(out).toMatch(
			/file\(s\) users read still link the placeholder repository[^\n]*README\.md/,
		);
	});

	it('passes once author, homepage, repository and every link are set, and still lists what only npm and GitHub show', () => {
		const root = fresh();
		fillIn(root);
		const { code, out } = check(root);
		expect(out).toContain('release-check: no placeholders left');
		expect(code).toBe(0);
		expect(out).toMatch(/Trusted Publisher[^\n]*NPM_TOKEN/);
	});

	it('one link left behind, or homepage and repository naming different repositories, fails', () => {
		const root = fresh();
		fillIn(root);
		writeFileSync(
			join(root, 'credentials/MediaGenApi.credentials.ts'),
			`documentationUrl = 'https://${PLACEHOLDER_REPO}#credentials';`,
		);
		const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
		manifest.homepage = 'https://github.com/someone-else/n8n-nodes-mediagen#readme';
		writeFileSync(join(root, 'package.json'), JSON.stringify(manifest));
		const { code, out } = check(root);
		expect(code).toBe(1);
		expect(out).toContain('1 file(s) users read still link the placeholder repository');
		expect(out).toContain('credentials/MediaGenApi.credentials.ts');
		expect(out).toContain('name different repositories');
	});

	it('a publish workflow without provenance fails', () => {
		const root = fresh();
		fillIn(root);
		const workflow = join(root, '.github/workflows/publish.yml');
		writeFileSync(
			workflow,
			readFileSync(workflow, 'utf8')
				.replace(/ --provenance/g, '')
				.replace(/id-token: write/g, 'id-token: none'),
		);
		const { code, out } = check(root);
		expect(code).toBe(1);
		expect(out).toContain('without `--provenance`');
		expect(out).toContain('no `id-token: write` permission');
	});

	it('on this repository it answers (the placeholders are expected until the first release; CI does not run it)', () => {
		const { code, out } = check(REPO);
		expect([0, 1]).toContain(code);
		expect(out).toMatch(/^release-check: /);
	});
});
