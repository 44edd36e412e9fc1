// Benchmark rows measured in one real n8n (test/n8n-host), with default node settings on both sides:
// (a) the MediaGen Image node in a workflow; (d) what users build today: HTTP Request submit → Wait →
// HTTP Request poll → IF, looping, then an HTTP Request that downloads the file, with the Wait at 5 s
// and at 2 s; (i) an ideal client (plain fetch, outside n8n) against the same sandbox settings.
// Every row gets a freshly started sandbox, so its request log holds that row's requests only; API
// requests and file downloads are counted apart.
// Usage: node bench/real-n8n.mjs --scenarios '[{"items":100,"latency":2000,"cap":10}]' [--extensions dist]
//        node bench/real-n8n.mjs --big-output-mb 300 [--extensions dist]   (peak RSS of n8n with one big output)
//        add --cpu-prof DIR: n8n runs with Node's --cpu-prof into DIR, and DIR/marks.json says when each
//        measured execution ran (seconds from n8n's start); `node bench/cpu-profile.mjs DIR` reads them
// Prints progress on stderr and the rows as JSON on the last stdout line.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { ensureN8nInstalled } from '../test/n8n-host/install.mjs';
import { createApiKey, freePort, n8nCli, publicApi, setupOwner, startN8n } from '../test/n8n-host/n8n.mjs';

const { values } = parseArgs({
	options: {
		scenarios: { type: 'string', default: '[{"items":100,"latency":2000,"cap":100}]' },
		'big-output-mb': { type: 'string' },
		extensions: { type: 'string' },
		'cpu-prof': { type: 'string' },
	},
});
const profileDir = values['cpu-prof'] && resolve(values['cpu-prof']);
/** When each measured execution ran, in seconds from n8n's start (for windows in its CPU profile). */
const marks = [];
let n8nStartedAt = 0;
function mark(name, fromMs, toMs) {
	marks.push({ name, from_s: Number(((fromMs - n8nStartedAt) / 1000).toFixed(3)), to_s: Number(((toMs - n8nStartedAt) / 1000).toFixed(3)) });
}
const root = new URL('..', import.meta.url).pathname;
const extensionsDir = resolve(values.extensions ?? join(root, 'dist'));
const API_KEY = 'mg_sandbox_full_access_key';
const MB = 1024 * 1024;
const log = (line) => process.stderr.write(`[real-n8n] ${line}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One sandbox process at a time, always on the same port (the credential and workflows point at it). */
let sandbox;
async function restartSandbox(port, flags) {
	if (sandbox) {
		const exited = new Promise((r) => sandbox.once('exit', r));
		sandbox.kill();
		await exited;
	}
	sandbox = spawn(process.execPath, [join(root, 'build/sandbox/cli.js'), '--port', String(port), '--rate-limit', '100000', ...flags], { stdio: ['ignore', 'pipe', 'inherit'] });
	await new Promise((resolve, reject) => {
		sandbox.stdout.on('data', (chunk) => chunk.toString().includes('listening') && resolve());
		sandbox.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
	});
}

const node = (name, type, typeVersion, position, parameters, extra = {}) => ({ id: randomUUID(), name, type, typeVersion, position, parameters, ...extra });
const webhook = (path) => node('Webhook', 'n8n-nodes-base.webhook', 2, [0, 0], { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} }, { webhookId: randomUUID() });
const prompts = node('Prompts', 'n8n-nodes-base.code', 2, [200, 0], {
	jsCode: "return Array.from({ length: $input.first().json.body.count }, (_, i) => ({ json: { prompt: 'poster ' + i } }));",
});
const credentials = { mediaGenApi: { id: 'benchcred00000001', name: 'MediaGen sandbox' } };
const chain = (...names) => Object.fromEntries(names.slice(0, -1).map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]));

function nodeWorkflow(id) {
	const image = node('MediaGen Image', 'CUSTOM.mediaGenImage', 1, [400, 0], { authentication: 'mediaGenApi', resource: 'image', operation: 'generate', prompt: '={{ $json.prompt }}', options: {} }, { credentials });
	return { id, name: 'bench (a) MediaGen Image node', nodes: [webhook(`bench-${id}`), prompts, image], connections: chain('Webhook', 'Prompts', 'MediaGen Image'), settings: { executionOrder: 'v1' }, active: false };
}

function bigOutputWorkflow(id) {
	const video = node('MediaGen Video', 'CUSTOM.mediaGenVideo', 1, [200, 0], { authentication: 'mediaGenApi', resource: 'video', operation: 'generate', prompt: 'a long take', duration: 5, options: {} }, { credentials });
	return { id, name: 'bench big output', nodes: [webhook(`bench-${id}`), video], connections: chain('Webhook', 'MediaGen Video'), settings: { executionOrder: 'v1' }, active: false };
}

/** n8n's own HTTP Request node fetching a file into binary data: what any download costs inside n8n. */
function httpDownloadWorkflow(id) {
	const download = node('Download', 'n8n-nodes-base.httpRequest', 4.2, [200, 0], { method: 'GET', url: '={{ $json.body.url }}', options: { response: { response: { responseFormat: 'file' } } } });
	return { id, name: 'bench HTTP Request download', nodes: [webhook(`bench-${id}`), download], connections: chain('Webhook', 'Download'), settings: { executionOrder: 'v1' }, active: false };
}

function pollingLoopWorkflow(id, sandboxBase, waitSeconds) {
	const auth = { name: 'Authorization', value: `Bearer ${API_KEY}` };
	const submit = node('Submit', 'n8n-nodes-base.httpRequest', 4.2, [400, 0], {
		method: 'POST',
		url: `${sandboxBase}/images/generations`,
		sendHeaders: true,
		headerParameters: { parameters: [auth, { name: 'Idempotency-Key', value: '={{ $execution.id }}-{{ $itemIndex }}' }] },
		sendBody: true,
		specifyBody: 'json',
		jsonBody: '={{ JSON.stringify({ prompt: $json.prompt }) }}',
		options: {},
	});
	const wait = node('Wait', 'n8n-nodes-base.wait', 1.1, [600, 0], { amount: waitSeconds, unit: 'seconds' }, { webhookId: randomUUID() });
	const poll = node('Poll', 'n8n-nodes-base.httpRequest', 4.2, [800, 0], { method: 'GET', url: `=${sandboxBase}/runs/{{ $json.id }}`, sendHeaders: true, headerParameters: { parameters: [auth] }, options: {} });
	const done = node('Done?', 'n8n-nodes-base.if', 1, [1000, 0], { conditions: { string: [{ value1: '={{ $json.status }}', operation: 'equal', value2: 'completed' }] } });
	const download = node('Download', 'n8n-nodes-base.httpRequest', 4.2, [1200, -100], { method: 'GET', url: '={{ $json.output.images[0].url }}', options: { response: { response: { responseFormat: 'file' } } } });
	return {
		id,
		name: `bench (d) HTTP Request + Wait ${waitSeconds} s + IF loop + download`,
		nodes: [webhook(`bench-${id}`), prompts, submit, wait, poll, done, download],
		connections: {
			...chain('Webhook', 'Prompts', 'Submit', 'Wait', 'Poll', 'Done?'),
			'Done?': { main: [[{ node: 'Download', type: 'main', index: 0 }], [{ node: 'Wait', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

async function sandboxRequests(origin) {
	const response = await fetch(`${origin}/_sandbox/requests`);
	return (await response.json()).data;
}

/** API requests (/v1/…) and file downloads (/storage/…) in the sandbox's log, per run. */
function counts(requests, runs) {
	const api = requests.filter((r) => r.path.startsWith('/v1/')).length;
	const downloads = requests.filter((r) => r.path.startsWith('/storage/')).length;
	return { requests_per_run: Number((api / runs).toFixed(2)), downloads_per_run: Number((downloads / runs).toFixed(2)), total_per_run: Number(((api + downloads) / runs).toFixed(2)) };
}

/** The API submits (POST /v1/…) in the sandbox's log. */
const submitsOf = (requests) => requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/'));

/**
 * Where the time went, from the sandbox's log (each request logged when its answer was sent), in
 * seconds from the start of the execution.
 */
function timeline(requests, startedAt, stoppedAt) {
	const at = (r) => ((r.at - startedAt) / 1000).toFixed(2);
	const posts = submitsOf(requests);
	const files = requests.filter((r) => r.path.startsWith('/storage/'));
	if (!posts.length) return 'no submit logged';
	return `timeline (s from start): submits ${at(posts[0])}-${at(posts.at(-1))}, downloads ${files.length ? `${at(files[0])}-${at(files.at(-1))}` : 'none'}, end ${((stoppedAt - startedAt) / 1000).toFixed(2)}`;
}

async function runWorkflow(n8n, apiKey, workflowId, body) {
	// the execution this call starts is newer than every one before it (a warm-up that just ended
	// started within a second of it, so a time window alone could pick the warm-up)
	const before = Number((await publicApi(n8n.url, apiKey, `/executions?workflowId=${workflowId}&limit=1`)).data?.[0]?.id ?? 0);
	const started = Date.now();
	const response = await fetch(`${n8n.url}/webhook/bench-${workflowId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	if (!response.ok) throw new Error(`${workflowId}: webhook answered ${response.status} ${await response.text()}`);
	for (;;) {
		await sleep(250);
		const list = await publicApi(n8n.url, apiKey, `/executions?workflowId=${workflowId}&limit=1`);
		const execution = list.data?.[0];
		if (execution && Number(execution.id) > before && execution.stoppedAt && !['running', 'waiting', 'new'].includes(execution.status)) return execution;
		if (Date.now() - started > 20 * 60 * 1000) throw new Error(`${workflowId}: not finished after 20 minutes`);
	}
}

async function measureWorkflow(ctx, scenario, workflowId, label) {
	// Warm first: the first execution after n8n starts pays one-time costs the ideal client never does
	// (in the CPU profile, 0.18 s of setting up n8n's expression parser on the first item); a workflow
	// that runs in production has paid them long before. Same items, 100 ms runs, then a fresh sandbox.
	await restartSandbox(ctx.sandboxPort, ['--latency', '100', '--concurrency', String(scenario.items)]);
	await runWorkflow(ctx.n8n, ctx.apiKey, workflowId, { count: scenario.items });
	await restartSandbox(ctx.sandboxPort, ['--latency', String(scenario.latency), '--concurrency', String(scenario.cap)]);
	const execution = await runWorkflow(ctx.n8n, ctx.apiKey, workflowId, { count: scenario.items });
	const wall = (Date.parse(execution.stoppedAt) - Date.parse(execution.startedAt)) / 1000;
	const requests = await sandboxRequests(ctx.sandboxOrigin);
	mark(`${label} (${scenario.items} items, ${scenario.latency} ms, cap ${scenario.cap})`, Date.parse(execution.startedAt), Date.parse(execution.stoppedAt));
	const posts = submitsOf(requests);
	if (posts.length) mark(`${label}: submits (first to last POST answered)`, Date.parse(execution.startedAt), posts.at(-1).at);
	log(`${label} (${scenario.items} items, ${scenario.latency} ms, cap ${scenario.cap}): ${wall.toFixed(2)} s, ${execution.status}, ${requests.length} requests`);
	return { row: label, items: scenario.items, latency_ms: scenario.latency, cap: scenario.cap, wall_s: wall, ...counts(requests, scenario.items), note: `n8n 2.41.1 execution ${execution.id} ${execution.status}; wall = execution stoppedAt - startedAt; ${timeline(requests, Date.parse(execution.startedAt), Date.parse(execution.stoppedAt))}` };
}

/**
 * The ideal client: every submit at once, one list read of all runs every 100 ms, each file fetched
 * the moment its run shows completed. Nothing in n8n; what the service and the machine allow.
 */
async function measureIdealClient(ctx, scenario) {
	await restartSandbox(ctx.sandboxPort, ['--latency', String(scenario.latency), '--concurrency', String(scenario.cap)]);
	const base = `${ctx.sandboxOrigin}/v1`;
	const headers = { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' };
	const started = Date.now();
	const runs = await Promise.all(
		Array.from({ length: scenario.items }, async (_, i) => {
			const response = await fetch(`${base}/images/generations`, { method: 'POST', headers: { ...headers, 'idempotency-key': `ideal-${started}-${i}` }, body: JSON.stringify({ prompt: `poster ${i}` }) });
			return (await response.json()).id;
		}),
	);
	const pending = new Set(runs);
	const downloads = [];
	while (pending.size) {
		await sleep(100);
		let after;
		do {
			const page = await (await fetch(`${base}/runs?limit=100${after ? `&starting_after=${after}` : ''}`, { headers })).json();
			for (const run of page.data) {
				if (!pending.has(run.id) || (run.status !== 'completed' && run.status !== 'failed')) continue;
				pending.delete(run.id);
				if (run.status === 'completed') downloads.push(fetch(run.output.images[0].url).then((r) => r.arrayBuffer()));
			}
			after = page.has_more ? page.data.at(-1)?.id : undefined;
		} while (after);
	}
	await Promise.all(downloads);
	const ended = Date.now();
	const wall = (ended - started) / 1000;
	const requests = await sandboxRequests(ctx.sandboxOrigin);
	log(`ideal client (${scenario.items} items, ${scenario.latency} ms, cap ${scenario.cap}): ${wall.toFixed(2)} s`);
	return { row: '(i) ideal client: plain fetch, all submits at once, list read every 100 ms, download at completion', items: scenario.items, latency_ms: scenario.latency, cap: scenario.cap, wall_s: wall, ...counts(requests, scenario.items), note: timeline(requests, started, ended) };
}

/** Resident set size of a process (MB), from /proc. */
const rssMb = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/**
 * One execution of MediaGen Video whose MP4 is `mb` MB, n8n's binary mode as by default (filesystem):
 * n8n's RSS sampled every 50 ms from just before the call to the end of the execution, the node's
 * download span read from the sandbox log, and a plain `curl -o file` of the same file for comparison.
 */
async function measureBigOutput(ctx, mb, workflowId, httpWorkflowId) {
	await restartSandbox(ctx.sandboxPort, ['--latency', '200', '--video-bytes', String(64 * 1024)]);
	await runWorkflow(ctx.n8n, ctx.apiKey, workflowId, {}); // warm-up: modules loaded, binary folder made
	await restartSandbox(ctx.sandboxPort, ['--latency', '200', '--video-bytes', String(mb * MB)]);
	await sleep(2000);
	const before = rssMb(ctx.n8n.pid);
	let peak = before;
	const sampler = setInterval(() => (peak = Math.max(peak, rssMb(ctx.n8n.pid))), 50);
	const execution = await runWorkflow(ctx.n8n, ctx.apiKey, workflowId, {});
	clearInterval(sampler);
	const wall = (Date.parse(execution.stoppedAt) - Date.parse(execution.startedAt)) / 1000;
	const requests = await sandboxRequests(ctx.sandboxOrigin);
	const file = requests.find((r) => r.path.startsWith('/storage/'));
	const lastPoll = requests.filter((r) => r.path.startsWith('/v1/runs') && file && r.at <= file.at).at(-1);
	const downloadSpan = file && lastPoll ? (file.at - lastPoll.at) / 1000 : NaN;

	// the same file, fetched by curl to a file on this machine, and by n8n's HTTP Request node
	const headers = { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' };
	const run = await (await fetch(`${ctx.sandboxOrigin}/v1/videos/generations`, { method: 'POST', headers: { ...headers, 'idempotency-key': `plain-${Date.now()}` }, body: JSON.stringify({ prompt: 'a long take', duration: 5 }) })).json();
	let done = run;
	while (done.status !== 'completed') {
		await sleep(200);
		done = await (await fetch(`${ctx.sandboxOrigin}/v1/runs/${run.id}`, { headers })).json();
	}
	const target = join(tmpdir(), `mediagen-plain-${process.pid}.mp4`);
	const curlStarted = Date.now();
	const curl = spawnSync('curl', ['-s', '-o', target, done.output.output_url]);
	const plain = (Date.now() - curlStarted) / 1000;
	const plainBytes = curl.status === 0 ? statSync(target).size : 0;
	rmSync(target, { force: true });
	const httpNodeBefore = rssMb(ctx.n8n.pid);
	let httpNodePeak = httpNodeBefore;
	const httpSampler = setInterval(() => (httpNodePeak = Math.max(httpNodePeak, rssMb(ctx.n8n.pid))), 50);
	const httpNode = await runWorkflow(ctx.n8n, ctx.apiKey, httpWorkflowId, { url: done.output.output_url });
	clearInterval(httpSampler);
	const httpNodeWall = (Date.parse(httpNode.stoppedAt) - Date.parse(httpNode.startedAt)) / 1000;
	mark(`big output ${mb} MB: MediaGen Video execution`, Date.parse(execution.startedAt), Date.parse(execution.stoppedAt));
	if (file && lastPoll) mark(`big output ${mb} MB: MediaGen Video download`, lastPoll.at, file.at);
	mark(`big output ${mb} MB: HTTP Request node execution`, Date.parse(httpNode.startedAt), Date.parse(httpNode.stoppedAt));
	log(`big output ${mb} MB: ${execution.status}, wall ${wall.toFixed(2)} s, download ${downloadSpan.toFixed(2)} s, plain curl ${plain.toFixed(2)} s, HTTP Request node ${httpNodeWall.toFixed(2)} s (+${(httpNodePeak - httpNodeBefore).toFixed(0)} MB); RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB`);
	return {
		row: `big output: one ${mb} MB MP4 through MediaGen Video, real n8n, filesystem binary mode`,
		items: 1,
		latency_ms: 200,
		cap: 1,
		wall_s: wall,
		download_s: Number(downloadSpan.toFixed(2)),
		plain_download_s: Number(plain.toFixed(2)),
		http_request_node_s: httpNodeWall,
		http_request_node_rss_growth_mb: Math.round(httpNodePeak - httpNodeBefore),
		rss_before_mb: Math.round(before),
		peak_rss_mb: Math.round(peak),
		rss_growth_mb: Math.round(peak - before),
		note: `execution ${execution.id} ${execution.status}; node from ${extensionsDir}; download = sandbox log, file request closed minus the poll that saw the run complete; plain = curl -o of ${plainBytes} bytes; HTTP Request node = n8n's own node fetching the same file as binary (execution ${httpNode.id} ${httpNode.status})`,
	};
}

async function main() {
	await ensureN8nInstalled({ log });
	const sandboxPort = await freePort();
	const sandboxOrigin = `http://127.0.0.1:${sandboxPort}`;
	const folder = mkdtempSync(join(tmpdir(), 'mediagen-bench-n8n-'));
	const userFolder = join(folder, 'user');
	let n8n;
	try {
		writeFileSync(join(folder, 'cred.json'), JSON.stringify([{ id: 'benchcred00000001', name: 'MediaGen sandbox', type: 'mediaGenApi', data: { baseUrl: `${sandboxOrigin}/v1`, apiKey: API_KEY } }]));
		const workflows = [nodeWorkflow('benchA000000001'), pollingLoopWorkflow('benchD500000001', `${sandboxOrigin}/v1`, 5), pollingLoopWorkflow('benchD200000001', `${sandboxOrigin}/v1`, 2), bigOutputWorkflow('benchM000000001'), httpDownloadWorkflow('benchH000000001')];
		writeFileSync(join(folder, 'workflows.json'), JSON.stringify(workflows));
		for (const args of [['import:credentials', `--input=${join(folder, 'cred.json')}`], ['import:workflow', `--input=${join(folder, 'workflows.json')}`], ...workflows.map((w) => ['publish:workflow', `--id=${w.id}`])]) {
			const result = await n8nCli(args, { userFolder, extensionsDir });
			if (result.code !== 0) throw new Error(`n8n ${args[0]} failed: ${result.stderr || result.stdout}`);
		}
		const port = await freePort();
		if (profileDir) mkdirSync(profileDir, { recursive: true });
		n8nStartedAt = Date.now();
		n8n = await startN8n({ userFolder, extensionsDir, port, env: profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } : undefined });
		await setupOwner(n8n.url);
		const ctx = { n8n, apiKey: await createApiKey(n8n.url), sandboxPort, sandboxOrigin };
		const rows = [];
		if (values['big-output-mb']) rows.push(await measureBigOutput(ctx, Number(values['big-output-mb']), 'benchM000000001', 'benchH000000001'));
		else {
			for (const scenario of JSON.parse(values.scenarios)) {
				rows.push(await measureWorkflow(ctx, scenario, 'benchA000000001', '(a) MediaGen Image node, real n8n, default options'));
				if (!scenario.nodeOnly) {
					rows.push(await measureWorkflow(ctx, scenario, 'benchD500000001', '(d) real n8n: HTTP Request + Wait 5 s + IF loop + download'));
					rows.push(await measureWorkflow(ctx, scenario, 'benchD200000001', '(d) real n8n: HTTP Request + Wait 2 s + IF loop + download'));
					rows.push(await measureIdealClient(ctx, scenario));
				}
			}
		}
		process.stdout.write(`${JSON.stringify(rows)}\n`);
	} finally {
		await n8n?.stop();
		sandbox?.kill();
		rmSync(folder, { recursive: true, force: true });
		if (profileDir && n8n) {
			writeFileSync(join(profileDir, 'marks.json'), JSON.stringify({ pid: n8n.pid, marks }, null, 1));
			log(`CPU profiles in ${profileDir}: node bench/cpu-profile.mjs ${profileDir}`);
		}
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		process.stderr.write(`${error.stack ?? error}\n`);
		sandbox?.kill();
		process.exit(1);
	},
);
