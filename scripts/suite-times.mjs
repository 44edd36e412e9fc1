#!/usr/bin/env node
// Measures how long the test suites take on this machine, from one run of the README's test command
// (build, then jest with every project), and writes the figures in one place: bench/suite-times.json,
// and the block between the suite-times markers in CONTRIBUTING.md (which quotes nothing else).
//   node scripts/suite-times.mjs            run the suites, then write both
//   node scripts/suite-times.mjs --write    only rewrite CONTRIBUTING.md from bench/suite-times.json
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tmpdir } from 'node:os';

const ROOT = new URL('..', import.meta.url).pathname;
const RESULTS = join(ROOT, 'bench', 'suite-times.json');
const CONTRIBUTING = join(ROOT, 'CONTRIBUTING.md');
export const BEGIN = '<!-- suite-times: written by node scripts/suite-times.mjs -->';
export const END = '<!-- /suite-times -->';

/** The suites, by the folder of test/ their files live in. */
export const SUITES = [
	['unit', 'npm run test:unit', 'unit tests, one folder per room of src/'],
	['sandbox', 'npx jest test/sandbox', 'the local service against the API document'],
	['contract', 'npx jest test/contract', 'the sandbox’s OpenAPI document and answers'],
	['docs', 'npx jest test/docs', 'README and docs pages against the code'],
	['scripts', 'npx jest test/scripts', 'the developer scripts, run as a person runs them'],
	['nodes', 'npx jest test/nodes', 'in-process n8n: n8n-core runs the nodes against the sandbox'],
	['e2e', 'npm run test:e2e', 'real n8n (and its one-time install)'],
];

const seconds = (ms) => Math.round(ms / 100) / 10;

/** The Markdown block CONTRIBUTING.md shows. */
export function block(results) {
	const rows = SUITES.map(([name, command, what]) => {
		const suite = results.suites[name];
		return `| \`test/${name}/\` | ${what} | ${command} | ${suite.files} | ${seconds(suite.fileMs)} s |`;
	});
	return [
		BEGIN,
		`Measured ${results.measuredAt.slice(0, 10)} on ${results.machine} (load average ${results.load.join(', ')} at the start): \`npm test\` took **${seconds(results.wallMs)} s** (build included).`,
		'Per suite, the sum of its files’ own times (jest runs two files at a time, so these add up to more than the wall time):',
		'',
		'| suite | what | alone | files | time |',
		'|---|---|---|---|---|',
		...rows,
		END,
	].join('\n');
}

export function writeBlock(results) {
	const text = readFileSync(CONTRIBUTING, 'utf8');
	const a = text.indexOf(BEGIN);
	const b = text.indexOf(END);
	if (a < 0 || b < a) throw new Error(`CONTRIBUTING.md has no ${BEGIN} … ${END} block`);
	writeFileSync(CONTRIBUTING, text.slice(0, a) + block(results) + text.slice(b + END.length));
}

function measure() {
	const out = join(mkdtempSync(join(tmpdir(), 'suite-times-')), 'jest.json');
	const load = loadavg().map((l) => Math.round(l * 10) / 10);
	const started = Date.now();
	const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
	if (build.status !== 0) process.exit(build.status ?? 1);
	const jest = spawnSync('npx', ['jest', '--json', `--outputFile=${out}`], {
		cwd: ROOT,
		stdio: 'inherit',
		env: process.env,
	});
	const wallMs = Date.now() - started;
	const report = JSON.parse(readFileSync(out, 'utf8'));
	const suites = Object.fromEntries(SUITES.map(([name]) => [name, { files: 0, fileMs: 0 }]));
	for (const file of report.testResults) {
		const folder = relative(join(ROOT, 'test'), file.name).split('/')[0];
		if (!suites[folder]) continue;
		suites[folder].files++;
		suites[folder].fileMs += file.endTime - file.startTime;
	}
	const results = {
		measuredAt: new Date(started).toISOString(),
		machine: `${cpus().length} cores, Node ${process.versions.node}`,
		load,
		wallMs,
		passed: report.numPassedTests,
		failed: report.numFailedTests,
		suites,
	};
	writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
	writeBlock(results);
	console.log(
		`npm test: ${seconds(wallMs)} s, ${results.passed} passed, ${results.failed} failed; written to bench/suite-times.json and CONTRIBUTING.md`,
	);
	return jest.status ?? 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	if (process.argv.includes('--write')) writeBlock(JSON.parse(readFileSync(RESULTS, 'utf8')));
	else process.exit(measure());
}
