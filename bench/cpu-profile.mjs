// Where n8n's CPU went during each measured execution of `node bench/real-n8n.mjs --cpu-prof DIR`.
// Usage: node bench/cpu-profile.mjs DIR [--top 20]
// Reads DIR/marks.json (n8n's pid and the windows, in seconds from n8n's start) and n8n's own
// .cpuprofile (Node's --cpu-prof, named CPU.<date>.<time>.<pid>.…), and prints per window: how much
// of the window the main thread was busy, the busiest areas (n8n packages, Node internals, this
// package) and functions by self time, and the heaviest call paths by inclusive time.
// The profile's clock starts a few tens of ms after n8n's spawn: windows are good to about 0.1 s.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
	options: { top: { type: 'string', default: '15' } },
	allowPositionals: true,
});
const dir = positionals[0];
if (!dir) {
	console.error('usage: node bench/cpu-profile.mjs DIR [--top N]');
	process.exit(64);
}
const top = Number(values.top);
const { pid, marks } = JSON.parse(readFileSync(join(dir, 'marks.json'), 'utf8'));
const file = readdirSync(dir).find(
	(name) => name.endsWith('.cpuprofile') && name.split('.')[3] === String(pid),
);
if (!file) throw new Error(`no profile of pid ${pid} in ${dir}`);
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);

/** Which part of the software a frame belongs to: an npm package, Node itself, or n8n's runtime markers. */
function area(frame) {
	const { url, functionName } = frame;
	if (!url) return functionName.startsWith('(') ? functionName : '(native)';
	if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
	const parts = url.split('/node_modules/');
	if (parts.length < 2) return url.includes('/dist/') ? 'n8n-nodes-mediagen' : url;
	const rest = parts.at(-1).split('/');
	return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
}
const label = (frame) =>
	`${frame.functionName || '(anonymous)'} ${
		frame.url
			? `${frame.url
					.split('/node_modules/')
					.at(-1)
					.replace(/^.*\/dist\//, 'dist/')}:${frame.lineNumber + 1}`
			: ''
	}`.trim();

// sample times, in seconds from the profile's start
const times = [];
let t = 0;
for (const delta of profile.timeDeltas) times.push((t += delta) / 1e6);
const interval = (profile.endTime - profile.startTime) / 1e6 / profile.samples.length;

const add = (map, key, seconds) => map.set(key, (map.get(key) ?? 0) + seconds);
const sorted = (map) => [...map].sort((a, b) => b[1] - a[1]);
const pct = (part, whole) => `${((100 * part) / whole).toFixed(1)} %`;

for (const { name, from_s: from, to_s: to } of marks) {
	const selfByArea = new Map();
	const selfByFunction = new Map();
	const inclusive = new Map();
	let busy = 0;
	let counted = 0;
	for (let i = 0; i < profile.samples.length; i++) {
		if (times[i] < from || times[i] > to) continue;
		const seconds =
			profile.timeDeltas[i + 1] !== undefined ? profile.timeDeltas[i + 1] / 1e6 : interval;
		counted += seconds;
		const node = byId.get(profile.samples[i]);
		if (node.callFrame.functionName === '(idle)') continue;
		busy += seconds;
		add(selfByArea, area(node.callFrame), seconds);
		add(selfByFunction, label(node.callFrame), seconds);
		const seen = new Set();
		for (let id = node.id; id !== undefined; id = parent.get(id)) {
			const key = label(byId.get(id).callFrame);
			if (seen.has(key) || key.startsWith('(root)')) continue;
			seen.add(key);
			add(inclusive, key, seconds);
		}
	}
	const span = to - from;
	console.log(
		`\n== ${name}: ${span.toFixed(2)} s, main thread busy ${busy.toFixed(2)} s (${pct(busy, span)}), idle ${(counted - busy).toFixed(2)} s`,
	);
	console.log('  self time by area:');
	for (const [key, s] of sorted(selfByArea).slice(0, top))
		console.log(`    ${s.toFixed(3).padStart(7)} s  ${pct(s, busy).padStart(7)}  ${key}`);
	console.log('  self time by function:');
	for (const [key, s] of sorted(selfByFunction).slice(0, top))
		console.log(`    ${s.toFixed(3).padStart(7)} s  ${pct(s, busy).padStart(7)}  ${key}`);
	console.log('  inclusive time (what a function and everything it called took):');
	for (const [key, s] of sorted(inclusive).slice(0, top * 2))
		console.log(`    ${s.toFixed(3).padStart(7)} s  ${pct(s, busy).padStart(7)}  ${key}`);
}
