#!/usr/bin/env node
// `node scripts/stage-package.mjs [--out <folder>] [--root <repository>] [--scan]`: the folder npm
// publishes. The repository's package.json carries the development scripts (`release`, `lint`,
// `test:mutation`, `.ci/…`, `test/…`) and devDependencies, none of which a user of the package
// needs and whose files are not shipped; what is published is a copy of what ships (`dist/`,
// README.md, LICENSE) with a package.json that keeps only the fields a user and n8n read.
// The staged folder is then packed (`npm pack --dry-run`) and checked: only those files, every
// file the `n8n` field names present, no scripts; with --scan, n8n's scanner reads the packed
// package as it reads a published one. .github/workflows/publish.yml publishes the staged folder
// (`npm publish <folder> --provenance`). Run `npm run build` first.
import { execFileSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The package.json fields a user of the package, npm and n8n read; everything else stays home. */
export const PUBLISHED_FIELDS = [
	'name',
	'version',
	'description',
	'keywords',
	'license',
	'homepage',
	'bugs',
	'author',
	'contributors',
	'repository',
	'engines',
	'files',
	'n8n',
	'peerDependencies',
	'peerDependenciesMeta',
];
/** What the published tarball holds besides package.json (npm adds README and LICENSE itself). */
const SHIPPED = ['dist', 'README.md', 'LICENSE'];

export function publishedManifest(manifest) {
	return Object.fromEntries(
		PUBLISHED_FIELDS.filter((field) => field in manifest).map((field) => [field, manifest[field]]),
	);
}

/** Problems with what `npm pack` would put in the tarball of `dir`; [] when none. */
export function packProblems(dir) {
	const [report] = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: dir,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		}),
	);
	const files = report.files.map((f) => f.path);
	const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
	const problems = [];
	const stray = files.filter((f) => !/^(dist\/|README\.md$|LICENSE$|package\.json$)/.test(f));
	if (stray.length)
		problems.push(`files outside dist/, README.md, LICENSE, package.json: ${stray.join(', ')}`);
	const missing = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])].filter(
		(f) => !files.includes(f),
	);
	if (missing.length)
		problems.push(`files the n8n field names but the tarball lacks: ${missing.join(', ')}`);
	const extra = Object.keys(manifest).filter((field) => !PUBLISHED_FIELDS.includes(field));
	if (extra.length) problems.push(`package.json fields a user does not need: ${extra.join(', ')}`);
	for (const field of ['README.md', 'LICENSE', 'package.json'])
		if (!files.includes(field)) problems.push(`${field} is not in the tarball`);
	return { files, problems };
}

/** Copies what ships from `root` into `out` with the published package.json; returns the pack check. */
export function stagePackage(root, out) {
	if (!existsSync(join(root, 'dist')))
		throw new Error(`${join(root, 'dist')} does not exist: run \`npm run build\` first`);
	rmSync(out, { recursive: true, force: true });
	mkdirSync(out, { recursive: true });
	for (const entry of SHIPPED) cpSync(join(root, entry), join(out, entry), { recursive: true });
	const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	writeFileSync(
		join(out, 'package.json'),
		`${JSON.stringify(publishedManifest(manifest), null, 2)}\n`,
	);
	return packProblems(out);
}

async function scanPacked(out) {
	const { analyzePackage } = await import('@n8n/scan-community-package/scanner/scanner.mjs');
	const work = mkdtempSync(join(tmpdir(), 'mediagen-staged-'));
	try {
		const tarball = execFileSync(
			'npm',
			['pack', '--pack-destination', work, '--silent', '--ignore-scripts'],
			{ cwd: out, encoding: 'utf8' },
		)
			.trim()
			.split('\n')
			.pop();
		execFileSync('tar', ['-xzf', join(work, tarball), '-C', work]);
		return await analyzePackage(join(work, 'package'), ['**/*.js', 'package.json']);
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

const isMain = process.argv[1] && resolve(process.argv[1]) === new URL(import.meta.url).pathname;
if (isMain) {
	const arg = (name, fallback) => {
		const i = process.argv.indexOf(name);
		return i > 0 ? process.argv[i + 1] : fallback;
	};
	const root = resolve(arg('--root', new URL('..', import.meta.url).pathname));
	const out = resolve(arg('--out', join(root, 'build', 'package')));
	let result;
	try {
		result = stagePackage(root, out);
	} catch (error) {
		process.stderr.write(`stage-package: ${error.message}\n`);
		process.exit(1);
	}
	if (result.problems.length) {
		process.stderr.write(
			`stage-package: ${out} is not fit to publish:\n  ${result.problems.join('\n  ')}\n`,
		);
		process.exit(1);
	}
	process.stdout.write(
		`stage-package: ${out}: ${result.files.length} files (dist/, README.md, LICENSE, package.json without scripts or devDependencies)\n`,
	);
	if (process.argv.includes('--scan')) {
		const scan = await scanPacked(out);
		if (!scan.passed) {
			process.stderr.write(
				`stage-package: n8n's scanner FAILED on the staged package: ${scan.message}\n${scan.details ?? ''}\n`,
			);
			process.exit(1);
		}
		process.stdout.write(`stage-package: n8n's scanner passed on the staged package\n`);
	}
}
