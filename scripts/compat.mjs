#!/usr/bin/env node
// `npm run test:compat [-- --lines 1.123,pinned] [-- --files examples,trigger]`: the real-n8n
// end-to-end core (examples, Wait Mode on that n8n, the trigger, the installed package, and the
// paused wait's own suite where the line can pause an execution) on each n8n line,
// one after the other, and a summary per line. A line other than the pinned one lives in a folder
// of its own beside test/n8n-host (its package.json pins n8n and what that n8n needs; `mediagen.env`
// is the environment its n8n gets) and is installed there on first use:
//   npm install --legacy-peer-deps --ignore-scripts, then npm rebuild sqlite3 --ignore-scripts=false
// (minutes and ~1.7 GB a line). The suite then runs with MEDIAGEN_N8N_HOST=<folder>
// (test/n8n-host/n8n.mjs, alternateHost) on this Node; the pinned line installs itself as in
// `npm test`. Exit code 1 when a test failed on any line.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = new URL('..', import.meta.url).pathname;

/** The n8n lines: a folder beside the pinned host, or the pinned host itself (folder null). */
export const LINES = {
	1.123: {
		folder: 'test/n8n-host-1.123',
		what: 'the oldest line the package is tested on (Node 20, N8N_EXPRESSION_ENGINE=legacy)',
		// n8n 1.x gives nodes no execution custom data: Pause the Execution waits in the execution
		pauses: false,
	},
	2.8: { folder: 'test/n8n-host-2.8', what: 'an older 2.x on Node 20', pauses: true },
	pinned: {
		folder: null,
		what: 'the line npm test and CI pin (test/n8n-host, Node 24)',
		pauses: true,
	},
};
/** The core: what a user's n8n must do with the package, without queue mode or a browser. */
export const CORE = ['examples', 'wait-mode-this-n8n', 'trigger', 'installed-package'];
/** The core of a line, and the paused wait's own suite where the line can pause an execution. */
export const coreOf = (line) => [...CORE, ...(LINES[line].pauses ? ['paused-wait'] : [])];

const say = (message) => process.stdout.write(`[compat] ${message}\n`);
const minutes = (ms) => `${Math.floor(ms / 60000)} min ${Math.round((ms % 60000) / 1000)} s`;

function installedVersion(folder) {
	const manifest = join(ROOT, folder, 'node_modules', 'n8n', 'package.json');
	return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
}

/** Installs the folder's n8n unless node_modules holds what its package.json (pins and overrides) asks for. */
function install(folder) {
	const dir = join(ROOT, folder);
	const manifest = readFileSync(join(dir, 'package.json'), 'utf8');
	const pinned = JSON.parse(manifest).dependencies.n8n;
	const marker = join(dir, 'node_modules', '.mediagen-compat-installed.json');
	const sqlite = join(dir, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');
	if (existsSync(marker) && readFileSync(marker, 'utf8') === manifest && existsSync(sqlite))
		return installedVersion(folder);
	const started = Date.now();
	say(`installing n8n ${pinned} into ${folder} (once; minutes, ~1.7 GB) ...`);
	execFileSync(
		'npm',
		['install', '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund'],
		{ cwd: dir, stdio: 'inherit' },
	);
	say(`compiling sqlite3 for this Node ...`);
	execFileSync('npm', ['rebuild', 'sqlite3', '--ignore-scripts=false'], {
		cwd: dir,
		stdio: 'inherit',
	});
	writeFileSync(marker, manifest);
	say(`n8n ${installedVersion(folder)} installed in ${minutes(Date.now() - started)}`);
	return installedVersion(folder);
}

/** Runs the e2e files on one line; returns jest's JSON report (or why there is none). */
function runLine(line, files) {
	const { folder } = LINES[line];
	const report = join(mkdtempSync(join(tmpdir(), 'mediagen-compat-')), 'report.json');
	const env = { ...process.env };
	delete env.MEDIAGEN_N8N_HOST;
	if (folder) env.MEDIAGEN_N8N_HOST = folder;
	const started = Date.now();
	const jest = spawnSync(
		'npx',
		[
			'jest',
			'--selectProjects',
			'e2e',
			'--json',
			`--outputFile=${report}`,
			...files.map((f) => `test/e2e/${f}.test.ts`),
		],
		{
			cwd: ROOT,
			env,
			stdio: 'inherit',
		},
	);
	const ms = Date.now() - started;
	if (!existsSync(report)) return { ms, error: `jest wrote no report (exit ${jest.status})` };
	const json = JSON.parse(readFileSync(report, 'utf8'));
	rmSync(join(report, '..'), { recursive: true, force: true });
	return { ms, json };
}

/** One line of the summary per test file: passed/failed/skipped, and the first failure's title. */
export function summarize(json) {
	return json.testResults.map((file) => {
		const count = (status) => file.assertionResults.filter((t) => t.status === status).length;
		const failed = file.assertionResults.find((t) => t.status === 'failed');
		return {
			file: file.name.split('/test/e2e/').pop(),
			passed: count('passed'),
			failed:
				count('failed') + (file.status === 'failed' && file.assertionResults.length === 0 ? 1 : 0),
			skipped: count('pending') + count('skipped'),
			firstFailure:
				failed?.title ??
				(file.status === 'failed' && file.assertionResults.length === 0
					? file.message.split('\n').find(Boolean)
					: undefined),
		};
	});
}

const isMain = process.argv[1] && new URL(import.meta.url).pathname === process.argv[1];
if (isMain) {
	const { values } = parseArgs({
		options: {
			lines: { type: 'string', default: '1.123,pinned' },
			files: { type: 'string' },
		},
	});
	const lines = values.lines.split(',');
	const filesOf = (line) => values.files?.split(',') ?? coreOf(line);
	for (const line of lines)
		if (!LINES[line]) throw new Error(`unknown line ${line} (${Object.keys(LINES).join(', ')})`);
	say(`building the package ...`);
	execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
	const results = [];
	for (const line of lines) {
		const { folder, what } = LINES[line];
		let version = JSON.parse(readFileSync(join(ROOT, 'test', 'n8n-host', 'package.json'), 'utf8'))
			.dependencies.n8n;
		try {
			if (folder) version = install(folder);
		} catch (error) {
			results.push({
				line,
				version: '?',
				error: `install failed: ${error.message.split('\n')[0]}`,
			});
			continue;
		}
		const files = filesOf(line);
		say(`n8n ${line} (${version}; ${what}): ${files.join(', ')} ...`);
		const run = runLine(line, files);
		results.push({
			line,
			version,
			ms: run.ms,
			error: run.error,
			files: run.json ? summarize(run.json) : [],
		});
	}
	const date = new Date().toISOString().slice(0, 10);
	process.stdout.write(
		`\nn8n-nodes-mediagen compatibility, ${date}, Node ${process.versions.node} (the pinned line runs on its own Node 24)\n`,
	);
	let failed = false;
	for (const result of results) {
		const total = (key) => (result.files ?? []).reduce((sum, f) => sum + f[key], 0);
		const verdict = result.error
			? `NOT RUN: ${result.error}`
			: `${total('passed')} passed, ${total('failed')} failed, ${total('skipped')} skipped in ${minutes(result.ms)}`;
		if (result.error || total('failed') > 0) failed = true;
		process.stdout.write(`  n8n ${result.line} (${result.version}): ${verdict}\n`);
		for (const f of result.files ?? []) {
			process.stdout.write(
				`    ${f.file}: ${f.passed} passed, ${f.failed} failed, ${f.skipped} skipped${f.firstFailure ? ` — first failure: ${f.firstFailure}` : ''}\n`,
			);
		}
	}
	process.exit(failed ? 1 : 0);
}
