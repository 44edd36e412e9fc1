// `npm run bench:load`: what loading the package costs n8n. Each run is a fresh Node process that has
// n8n-workflow loaded already (n8n has) and then requires every node and credential file package.json
// lists and creates each class, as n8n's package loader does. Prints the median of the runs against
// the 50 ms budget, and per entry file how much of dist/ it pulls in (a node loads only what it uses).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const RUNS = Number(process.argv[2] ?? 15);
const BUDGET_MS = 50;

const entries = (() => {
	const { n8n } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
	return [...n8n.credentials, ...n8n.nodes];
})();

/** Runs in the child: times the requires, then reports which dist files each entry loaded. */
const child = `
const { performance } = require('node:perf_hooks');
const path = require('node:path');
const fs = require('node:fs');
const entries = ${JSON.stringify(entries)};
require(require.resolve('n8n-workflow', { paths: [process.cwd()] }));
const inDist = () => Object.keys(require.cache).filter((f) => f.startsWith(path.resolve('dist') + path.sep));
const started = performance.now();
const cpuStarted = process.cpuUsage();
const perEntry = [];
for (const entry of entries) {
	const before = new Set(inDist());
	const exported = require(path.resolve(entry));
	new exported[path.basename(entry).split('.')[0]]();
	const added = inDist().filter((f) => !before.has(f));
	perEntry.push({ entry, files: added.length, bytes: added.reduce((sum, f) => sum + fs.statSync(f).size, 0) });
}
const cpu = process.cpuUsage(cpuStarted);
const all = inDist();
process.stdout.write(JSON.stringify({
	wallMs: performance.now() - started,
	cpuMs: (cpu.user + cpu.system) / 1000,
	files: all.length,
	bytes: all.reduce((sum, f) => sum + fs.statSync(f).size, 0),
	perEntry,
}));
`;

/** The modules one entry file loads when n8n requires it alone (its own import graph). */
function aloneFootprint(entry) {
	const script = `
const path = require('node:path'); const fs = require('node:fs');
require(require.resolve('n8n-workflow', { paths: [process.cwd()] }));
require(path.resolve(${JSON.stringify(entry)}));
const files = Object.keys(require.cache).filter((f) => f.startsWith(path.resolve('dist') + path.sep));
process.stdout.write(JSON.stringify({ files: files.length, bytes: files.reduce((s, f) => s + fs.statSync(f).size, 0) }));`;
	return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' }));
}

const runs = Array.from({ length: RUNS }, () => JSON.parse(execFileSync(process.execPath, ['-e', child], { cwd: ROOT, encoding: 'utf8' })));
const sorted = (key) => runs.map((r) => r[key]).sort((a, b) => a - b);
const median = (values) => values[Math.floor(values.length / 2)];
const wall = sorted('wallMs');
const cpu = sorted('cpuMs');
const [first] = runs;

const kB = (bytes) => `${(bytes / 1024).toFixed(0)} kB`;
process.stdout.write(
	`package load (${entries.length} entry files, ${first.files} files / ${kB(first.bytes)} of dist/ loaded), ${RUNS} fresh processes on Node ${process.versions.node}:\n` +
		`  wall median ${median(wall).toFixed(1)} ms (min ${wall[0].toFixed(1)}, max ${wall.at(-1).toFixed(1)}); ` +
		`CPU median ${median(cpu).toFixed(1)} ms; budget ${BUDGET_MS} ms: ${median(wall) <= BUDGET_MS ? 'within' : 'OVER'}\n` +
		`  (wall time depends on what else the machine runs; CPU time less so)\n\n` +
		`entry file alone: dist files loaded, size\n`,
);
for (const entry of entries) {
	const alone = aloneFootprint(entry);
	process.stdout.write(`  ${entry.replace(/^dist\//, '').padEnd(52)} ${String(alone.files).padStart(3)}  ${kB(alone.bytes).padStart(7)}\n`);
}
