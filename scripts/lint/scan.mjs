// n8n's package scanner, offline: the same ESLint checks @n8n/scan-community-package runs on a
// published package, here on the source tree and on the unpacked `npm pack` tarball (lint comments
// ignored). Its source patterns cover nodes/ and credentials/; ours add src/, the shared runtime.
// Then what the scanner cannot see in a per-file (unbundled) build: every require() in the package
// must be n8n-workflow, node:crypto or a file of the package (the scanner lets devDependencies
// through, assuming a bundler inlined them), and the package stays within its size budget.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = new URL('../..', import.meta.url).pathname;
const RUNTIME_MODULES = new Set(['n8n-workflow', 'node:crypto']);
const SIZE_BUDGET_BYTES = 600 * 1024;
let failed = false;

function fail(message) {
	failed = true;
	process.stdout.write(`${message}\n`);
}

async function scan(label, dir, patterns) {
	const result = await analyzePackage(dir, patterns);
	if (result.passed) {
		process.stdout.write(
			`scanner: ${label} passed${result.message ? ` (${result.message})` : ''}\n`,
		);
	} else {
		fail(`scanner: ${label} FAILED: ${result.message}\n${result.details ?? ''}`);
	}
}

/** Modules a built file requires that are neither the package's own files nor provided by n8n. */
export function foreignRequires(code) {
	return [...code.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)]
		.map((match) => match[1])
		.filter((specifier) => !specifier.startsWith('.') && !RUNTIME_MODULES.has(specifier));
}

await scan('source', root, [...SOURCE_FILE_PATTERNS, 'src/**/*.ts']);

const work = mkdtempSync(join(tmpdir(), 'mediagen-pack-'));
try {
	execFileSync('npm', ['pack', '--pack-destination', work, '--silent'], {
		cwd: root,
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
	execFileSync('tar', ['-xzf', join(work, tarball), '-C', work]);
	const packageDir = join(work, 'package');
	const files = execFileSync('find', ['.', '-type', 'f'], { cwd: packageDir, encoding: 'utf8' })
		.trim()
		.split('\n')
		.sort();
	const unexpected = files.filter(
		(f) => !/^\.\/(dist\/|README\.md$|LICENSE$|package\.json$)/.test(f),
	);
	if (unexpected.length)
		fail(`pack: files outside dist/, README, LICENSE, package.json: ${unexpected.join(', ')}`);
	else
		process.stdout.write(
			`pack: ${files.length} files, only dist/, README.md, LICENSE, package.json\n`,
		);

	const built = files.filter((f) => f.startsWith('./dist/'));
	const bytes = built.reduce((sum, f) => sum + statSync(join(packageDir, f)).size, 0);
	const size = `dist/ ${(bytes / 1024).toFixed(0)} kB in ${built.length} files (budget ${SIZE_BUDGET_BYTES / 1024} kB)`;
	if (bytes > SIZE_BUDGET_BYTES) fail(`pack: ${size}: over budget`);
	else process.stdout.write(`pack: ${size}\n`);

	const foreign = built
		.filter((f) => f.endsWith('.js'))
		.flatMap((f) =>
			foreignRequires(readFileSync(join(packageDir, f), 'utf8')).map((m) => `${f} requires ${m}`),
		);
	if (foreign.length) fail(`pack: modules n8n does not provide:\n  ${foreign.join('\n  ')}`);
	else
		process.stdout.write(
			`pack: every require() is n8n-workflow, node:crypto or a file of the package\n`,
		);

	await scan('packed tarball', packageDir, ['**/*.js', 'package.json']);
} finally {
	rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
