// Benchmark rows measured in one real n8n (test/n8n-host), with default node settings on every side:
// (a) the MediaGen Image node in a workflow (binaries, or Return URLs Only); (d) what users build
// today: HTTP Request submit → Wait → HTTP Request poll → IF, looping, then (or not) an HTTP Request
// that downloads the file, with the Wait at 5 s and at 2 s; (i) an ideal client (plain fetch, outside
// n8n, with or without downloading the outputs) against the same sandbox settings.
// Every row gets a freshly started sandbox, so its request log holds that row's requests only; API
// requests and file downloads are counted apart. n8n's resident memory is sampled every 100 ms
// during each measured execution (the worker's in queue mode).
// Usage: node bench/real-n8n.mjs --scenarios '[{"items":100,"latency":2000,"cap":10}]' [--extensions dist]
//          a scenario may name its rows: "rows": ["node","node-urls","node-c5","node-wt","node-urls-wt","loop5","loop2","loop2-nodl","ideal","ideal-nodl"]
//          (default: node, loop5, loop2, ideal; "nodeOnly": true is ["node"])
//        node bench/real-n8n.mjs --big-output-mb 300 [--extensions dist]   (peak RSS of n8n with one big output)
//        add --queue: n8n in queue mode (Redis + PostgreSQL from test/queue/services.mjs, one main and
//          one worker, n8n's default binary mode there: database); otherwise one n8n, filesystem mode
//        add --label TEXT: appended to every row name (e.g. "before")
//        add --node-options=--max-old-space-size=2048 (Node options for n8n, as NODE_OPTIONS allows
//          them: --trace-gc, for one, is refused there) and --n8n-log FILE (n8n's output, appended to
//          FILE); both for one n8n (not --queue)
//        add --live-heap-at S (one n8n, not --queue): n8n runs with its inspector open; before each
//          row's warm-up execution and S seconds into the measured one, a full garbage collection is
//          forced (bench/gc-probe.mjs) and the heap in use after it recorded (the first comes before the
//          warm-up, so the measured execution starts as it would without): live_heap_growth_mb is what n8n holds at S more than before the warm-up (the
//          execution's items, and what the warm-up left: an upper bound), the rest of the heap in use
//          then is garbage V8 had not collected yet; the peak before S is as without the probe
//        add --cpu-prof DIR: n8n runs with Node's --cpu-prof into DIR, and DIR/marks.json says when each
//        measured execution ran (seconds from n8n's start); `node bench/cpu-profile.mjs DIR` reads them
// Prints progress on stderr and the rows as JSON on the last stdout line.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
	appendFileSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { ensureN8nInstalled } from '../test/n8n-host/install.mjs';
import {
	createApiKey,
	freePort,
	makeUserFolder,
	n8nCli,
	publicApi,
	setupOwner,
	startN8n,
	startN8nWorker,
} from '../test/n8n-host/n8n.mjs';
import { idealClient } from './ideal-client.mjs';

const { values } = parseArgs({
	options: {
		scenarios: { type: 'string', default: '[{"items":100,"latency":2000,"cap":100}]' },
		'big-output-mb': { type: 'string' },
		extensions: { type: 'string' },
		'cpu-prof': { type: 'string' },
		queue: { type: 'boolean', default: false },
		label: { type: 'string', default: '' },
		'node-options': { type: 'string' },
		'n8n-log': { type: 'string' },
		'live-heap-at': { type: 'string' },
	},
});
const profileDir = values['cpu-prof'] && resolve(values['cpu-prof']);
/** When each measured execution ran, in seconds from n8n's start (for windows in its CPU profile). */
const marks = [];
let n8nStartedAt = 0;
function mark(name, fromMs, toMs) {
	marks.push({
		name,
		from_s: Number(((fromMs - n8nStartedAt) / 1000).toFixed(3)),
		to_s: Number(((toMs - n8nStartedAt) / 1000).toFixed(3)),
	});
}
const root = new URL('..', import.meta.url).pathname;
const extensionsDir = resolve(values.extensions ?? join(root, 'dist'));
const API_KEY = 'mg_sandbox_full_access_key';
const MB = 1024 * 1024;
const log = (line) => process.stderr.write(`[real-n8n${values.queue ? ' queue' : ''}] ${line}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const suffix = values.label ? ` [${values.label}]` : '';
const where = values.queue
	? 'n8n queue mode (1 main + 1 worker, binary mode database)'
	: 'real n8n';

/** One sandbox process at a time, always on the same port (the credential and workflows point at it). */
let sandbox;
async function restartSandbox(port, flags) {
	if (sandbox) {
		const exited = new Promise((r) => sandbox.once('exit', r));
		sandbox.kill();
		await exited;
	}
	sandbox = spawn(
		process.execPath,
		[
			join(root, 'build/sandbox/cli.js'),
			'--port',
			String(port),
			'--rate-limit',
			'1000000',
			...flags,
		],
		{ stdio: ['ignore', 'pipe', 'inherit'] },
	);
	await new Promise((resolve, reject) => {
		sandbox.stdout.on('data', (chunk) => chunk.toString().includes('listening') && resolve());
		sandbox.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
	});
}

const node = (name, type, typeVersion, position, parameters, extra = {}) => ({
	id: randomUUID(),
	name,
	type,
	typeVersion,
	position,
	parameters,
	...extra,
});
const webhook = (path) =>
	node(
		'Webhook',
		'n8n-nodes-base.webhook',
		2,
		[0, 0],
		{ httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
		{ webhookId: randomUUID() },
	);
const prompts = node('Prompts', 'n8n-nodes-base.code', 2, [200, 0], {
	jsCode:
		"return Array.from({ length: $input.first().json.body.count }, (_, i) => ({ json: { prompt: 'poster ' + i } }));",
});
const credentials = { mediaGenApi: { id: 'benchcred00000001', name: 'MediaGen sandbox' } };
const chain = (...names) =>
	Object.fromEntries(
		names
			.slice(0, -1)
			.map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
	);
const IMAGE_NODE = 'MediaGen Image';

function nodeWorkflow(id, options = {}) {
	const image = node(
		IMAGE_NODE,
		'CUSTOM.mediaGenImage',
		1,
		[400, 0],
		{
			authentication: 'mediaGenApi',
			resource: 'image',
			operation: 'generate',
			prompt: '={{ $json.prompt }}',
			options,
		},
		{ credentials },
	);
	return {
		id,
		name: `bench (a) MediaGen Image node ${JSON.stringify(options)}`,
		nodes: [webhook(`bench-${id}`), prompts, image],
		connections: chain('Webhook', 'Prompts', IMAGE_NODE),
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

function bigOutputWorkflow(id) {
	const video = node(
		'MediaGen Video',
		'CUSTOM.mediaGenVideo',
		1,
		[200, 0],
		{
			authentication: 'mediaGenApi',
			resource: 'video',
			operation: 'generate',
			prompt: 'a long take',
			duration: 5,
			options: {},
		},
		{ credentials },
	);
	return {
		id,
		name: 'bench big output',
		nodes: [webhook(`bench-${id}`), video],
		connections: chain('Webhook', 'MediaGen Video'),
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

/** n8n's own HTTP Request node fetching a file into binary data: what any download costs inside n8n. */
function httpDownloadWorkflow(id) {
	const download = node('Download', 'n8n-nodes-base.httpRequest', 4.2, [200, 0], {
		method: 'GET',
		url: '={{ $json.body.url }}',
		options: { response: { response: { responseFormat: 'file' } } },
	});
	return {
		id,
		name: 'bench HTTP Request download',
		nodes: [webhook(`bench-${id}`), download],
		connections: chain('Webhook', 'Download'),
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

function pollingLoopWorkflow(id, sandboxBase, waitSeconds, { download = true } = {}) {
	const auth = { name: 'Authorization', value: `Bearer ${API_KEY}` };
	const submit = node('Submit', 'n8n-nodes-base.httpRequest', 4.2, [400, 0], {
		method: 'POST',
		url: `${sandboxBase}/images/generations`,
		sendHeaders: true,
		headerParameters: {
			parameters: [
				auth,
				{ name: 'Idempotency-Key', value: '={{ $execution.id }}-{{ $itemIndex }}' },
			],
		},
		sendBody: true,
		specifyBody: 'json',
		jsonBody: '={{ JSON.stringify({ prompt: $json.prompt }) }}',
		options: {},
	});
	const wait = node(
		'Wait',
		'n8n-nodes-base.wait',
		1.1,
		[600, 0],
		{ amount: waitSeconds, unit: 'seconds' },
		{ webhookId: randomUUID() },
	);
	const poll = node('Poll', 'n8n-nodes-base.httpRequest', 4.2, [800, 0], {
		method: 'GET',
		url: `=${sandboxBase}/runs/{{ $json.id }}`,
		sendHeaders: true,
		headerParameters: { parameters: [auth] },
		options: {},
	});
	const done = node('Done?', 'n8n-nodes-base.if', 1, [1000, 0], {
		conditions: {
			string: [{ value1: '={{ $json.status }}', operation: 'equal', value2: 'completed' }],
		},
	});
	const fetchFile = node('Download', 'n8n-nodes-base.httpRequest', 4.2, [1200, -100], {
		method: 'GET',
		url: '={{ $json.output.images[0].url }}',
		options: { response: { response: { responseFormat: 'file' } } },
	});
	return {
		id,
		name: `bench (d) HTTP Request + Wait ${waitSeconds} s + IF loop${download ? ' + download' : ''}`,
		nodes: [
			webhook(`bench-${id}`),
			prompts,
			submit,
			wait,
			poll,
			done,
			...(download ? [fetchFile] : []),
		],
		connections: {
			...chain('Webhook', 'Prompts', 'Submit', 'Wait', 'Poll', 'Done?'),
			'Done?': {
				main: [
					download ? [{ node: 'Download', type: 'main', index: 0 }] : [],
					[{ node: 'Wait', type: 'main', index: 0 }],
				],
			},
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

/** The rows a scenario can measure: a workflow in n8n, or the ideal client outside it. */
const ROW_KINDS = {
	node: {
		workflowId: 'benchA000000001',
		label: `(a) MediaGen Image node, ${where}, default options`,
	},
	'node-urls': {
		workflowId: 'benchU000000001',
		label: `(a) MediaGen Image node, ${where}, Return URLs Only`,
	},
	'node-c5': {
		workflowId: 'benchC500000001',
		label: `(a) MediaGen Image node, ${where}, Max Parallel Submits 5`,
	},
	// 10,000 runs 10 at a time outlast the in-execution Wait Timeout of 10 min
	'node-wt': {
		workflowId: 'benchW000000001',
		label: `(a) MediaGen Image node, ${where}, Wait Timeout 7200 s`,
	},
	'node-urls-wt': {
		workflowId: 'benchV000000001',
		label: `(a) MediaGen Image node, ${where}, Return URLs Only, Wait Timeout 7200 s`,
	},
	loop5: {
		workflowId: 'benchD500000001',
		label: `(d) ${where}: HTTP Request + Wait 5 s + IF loop + download`,
	},
	loop2: {
		workflowId: 'benchD200000001',
		label: `(d) ${where}: HTTP Request + Wait 2 s + IF loop + download`,
	},
	'loop2-nodl': {
		workflowId: 'benchN200000001',
		label: `(d) ${where}: HTTP Request + Wait 2 s + IF loop, no download`,
	},
	ideal: {
		ideal: { downloads: true },
		label:
			'(i) ideal client: plain fetch, 100 submits in flight, list read every 100 ms, download at completion',
	},
	'ideal-nodl': {
		ideal: { downloads: false },
		label:
			'(i) ideal client: plain fetch, 100 submits in flight, list read every 100 ms, no downloads',
	},
};

function workflowsFor(sandboxBase) {
	return [
		nodeWorkflow('benchA000000001'),
		nodeWorkflow('benchU000000001', { returnUrlsOnly: true }),
		nodeWorkflow('benchC500000001', { concurrency: 5 }),
		nodeWorkflow('benchW000000001', { waitTimeout: 7200 }),
		nodeWorkflow('benchV000000001', { returnUrlsOnly: true, waitTimeout: 7200 }),
		pollingLoopWorkflow('benchD500000001', sandboxBase, 5),
		pollingLoopWorkflow('benchD200000001', sandboxBase, 2),
		pollingLoopWorkflow('benchN200000001', sandboxBase, 2, { download: false }),
		bigOutputWorkflow('benchM000000001'),
		httpDownloadWorkflow('benchH000000001'),
	];
}

async function sandboxRequests(origin) {
	const response = await fetch(`${origin}/_sandbox/requests`);
	return (await response.json()).data;
}

/** Every run of the sandbox account (status, created_at, completed_at), through the API's pages. */
async function sandboxRuns(origin) {
	const runs = [];
	let after;
	for (;;) {
		const page = await (
			await fetch(`${origin}/v1/runs?limit=100${after ? `&starting_after=${after}` : ''}`, {
				headers: { authorization: `Bearer ${API_KEY}` },
			})
		).json();
		runs.push(...page.data);
		if (!page.has_more || !page.data.length) return runs;
		after = page.data.at(-1).id;
	}
}

/** API requests (/v1/…) and file downloads (/storage/…) in the sandbox's log, per run. */
function counts(requests, runs) {
	const api = requests.filter((r) => r.path.startsWith('/v1/')).length;
	const downloads = requests.filter((r) => r.path.startsWith('/storage/')).length;
	return {
		requests_per_run: Number((api / runs).toFixed(3)),
		downloads_per_run: Number((downloads / runs).toFixed(2)),
		total_per_run: Number(((api + downloads) / runs).toFixed(2)),
	};
}

/** The API submits (POST /v1/…) in the sandbox's log. */
const submitsOf = (requests) =>
	requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/'));
const runReadsOf = (requests) =>
	requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/runs'));

/**
 * Where the time went, from the sandbox's log (each request logged when its answer was sent) and the
 * runs' completed_at, in seconds from the start: submits, the last run's completion, the last read of
 * the runs (the one that saw it: nothing reads after it), downloads, the end.
 */
function timeline(requests, runs, startedAt, stoppedAt) {
	const s = (ms) => Number(((ms - startedAt) / 1000).toFixed(3));
	const posts = submitsOf(requests);
	const files = requests.filter((r) => r.path.startsWith('/storage/'));
	const reads = runReadsOf(requests);
	const lastCompletion = Math.max(...runs.map((r) => Date.parse(r.completed_at ?? '') || 0));
	const lastRead = reads.at(-1)?.at;
	return {
		submits_s: posts.length ? [s(posts[0].at), s(posts.at(-1).at)] : null,
		last_completion_s: lastCompletion ? s(lastCompletion) : null,
		last_read_s: lastRead ? s(lastRead) : null,
		detect_lag_s:
			lastRead && lastCompletion ? Number(((lastRead - lastCompletion) / 1000).toFixed(3)) : null,
		list_reads: reads.filter((r) => r.path === '/v1/runs').length,
		run_reads: reads.filter((r) => r.path !== '/v1/runs').length,
		downloads_s: files.length ? [s(files[0].at), s(files.at(-1).at)] : null,
		end_s: s(stoppedAt),
	};
}

/** The memory gauges of n8n's /metrics (prom-client's defaults, N8N_METRICS=true), in MB; {} when it has none. */
async function n8nMemoryGauges(metricsUrl) {
	if (!metricsUrl) return {};
	try {
		const text = await (await fetch(metricsUrl)).text();
		const gauge = (name) =>
			Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([\\d.e+]+)$`, 'm').exec(text)?.[1] ?? NaN) /
			(1024 * 1024);
		return {
			heap: gauge('n8n_nodejs_heap_size_used_bytes'),
			external: gauge('n8n_nodejs_external_memory_bytes'),
		};
	} catch {
		return {};
	}
}

/**
 * Samples a process's resident set size (MB, from /proc) every 100 ms until stopped, and, when
 * n8n serves /metrics, the V8 heap in use and the memory outside it (Buffers) every second: where a
 * peak of resident memory sits (JavaScript objects, or bytes held by Buffers and streams).
 */
function rssSampler(pid, metricsUrl) {
	const read = () =>
		Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) /
		1024;
	const before = read();
	let peak = before;
	const timer = setInterval(() => (peak = Math.max(peak, read())), 100);
	const gauges = { first: undefined, heap: -Infinity, external: -Infinity };
	const sampleGauges = async () => {
		const g = await n8nMemoryGauges(metricsUrl);
		if (!Number.isFinite(g.heap)) return;
		gauges.first ??= g;
		gauges.heap = Math.max(gauges.heap, g.heap);
		gauges.external = Math.max(gauges.external, g.external);
	};
	void sampleGauges();
	const gaugeTimer = metricsUrl ? setInterval(sampleGauges, 1000) : undefined;
	return {
		stop: async () => {
			clearInterval(timer);
			clearInterval(gaugeTimer);
			await sampleGauges();
			peak = Math.max(peak, read());
			const split = gauges.first
				? {
						heap_used_growth_mb: Math.round(gauges.heap - gauges.first.heap),
						external_growth_mb: Math.round(gauges.external - gauges.first.external),
					}
				: {};
			return {
				rss_before_mb: Math.round(before),
				peak_rss_mb: Math.round(peak),
				rss_growth_mb: Math.round(peak - before),
				...split,
			};
		},
	};
}

/** A full garbage collection forced in n8n (bench/gc-probe.mjs under n8n's own Node): the heap in use before and after, in MB. */
async function forcedCollection(inspectorUrl) {
	const { nodeBin } = await ensureN8nInstalled({ log });
	const probe = spawnSync(nodeBin, [join(root, 'bench/gc-probe.mjs'), inspectorUrl], {
		encoding: 'utf8',
		timeout: 60_000,
	});
	if (probe.status !== 0) throw new Error(`gc-probe failed (${probe.status}): ${probe.stderr}`);
	return JSON.parse(probe.stdout);
}

async function runWorkflow(ctx, workflowId, body) {
	// the execution this call starts is newer than every one before it (a warm-up that just ended
	// started within a second of it, so a time window alone could pick the warm-up)
	const before = Number(
		(await ctx.api(`/executions?workflowId=${workflowId}&limit=1`)).data?.[0]?.id ?? 0,
	);
	const started = Date.now();
	let response;
	for (let attempt = 1; ; attempt++) {
		response = await fetch(`${ctx.n8n.url}/webhook/bench-${workflowId}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		// n8n answers before it has activated every published workflow: a webhook may not be there yet
		if (response.status !== 404 || attempt >= 60) break;
		await response.text();
		await sleep(1000);
	}
	if (!response.ok)
		throw new Error(`${workflowId}: webhook answered ${response.status} ${await response.text()}`);
	for (;;) {
		await sleep(250);
		const list = await ctx.api(`/executions?workflowId=${workflowId}&limit=1`);
		const execution = list.data?.[0];
		if (
			execution &&
			Number(execution.id) > before &&
			execution.stoppedAt &&
			!['running', 'waiting', 'new'].includes(execution.status)
		)
			return execution;
		if (Date.now() - started > 90 * 60 * 1000)
			throw new Error(`${workflowId}: not finished after 90 minutes`);
	}
}

/** The node's own time and its output (items, binaries) from the execution's data. */
async function nodeResult(ctx, executionId) {
	const execution = await ctx.api(`/executions/${executionId}?includeData=true`);
	const run = execution.data?.resultData?.runData?.[IMAGE_NODE]?.[0];
	const items = run?.data?.main?.[0] ?? [];
	return {
		node_s: run ? Number((run.executionTime / 1000).toFixed(3)) : null,
		outputs: items.length,
		binaries: items.filter((i) => i.binary && Object.keys(i.binary).length).length,
		error_items: items.filter((i) => i.json?.error).length,
	};
}

async function measureWorkflow(ctx, scenario, kind) {
	const { workflowId, label } = ROW_KINDS[kind];
	// Warm first, at the scenario's run latency with no cap: the first execution after n8n starts pays
	// one-time costs the ideal client never does (in the CPU profile, 0.18 s of setting up n8n's
	// expression parser on the first item), and a workflow that runs in production has run before
	// against a service of the same speed (at most 1,000 items). Then a fresh sandbox.
	const warmItems = Math.min(scenario.items, 1000);
	// the forced collection before comes before the warm-up, so the measured execution starts from the
	// heap it would have without one (the warm-up's garbage included)
	const liveAt =
		values['live-heap-at'] && ctx.inspectorUrl ? Number(values['live-heap-at']) : undefined;
	const liveBefore = liveAt === undefined ? undefined : await forcedCollection(ctx.inspectorUrl);
	await restartSandbox(ctx.sandboxPort, [
		'--latency',
		String(scenario.latency),
		'--concurrency',
		String(warmItems),
	]);
	await runWorkflow(ctx, workflowId, { count: warmItems });
	await restartSandbox(ctx.sandboxPort, [
		'--latency',
		String(scenario.latency),
		'--concurrency',
		String(scenario.cap),
	]);
	await sleep(500);
	const rss = rssSampler(ctx.worker.pid, ctx.metricsUrl);
	const probe =
		liveAt === undefined
			? undefined
			: sleep(liveAt * 1000).then(() => forcedCollection(ctx.inspectorUrl));
	const execution = await runWorkflow(ctx, workflowId, { count: scenario.items });
	const memory = await rss.stop();
	if (probe) {
		const liveThen = await probe;
		Object.assign(memory, {
			live_heap_before_mb: liveBefore.live_heap_mb,
			heap_used_at_probe_mb: liveThen.heap_used_mb,
			live_heap_at_probe_mb: liveThen.live_heap_mb,
			live_heap_growth_mb: liveThen.live_heap_mb - liveBefore.live_heap_mb,
			probe_at_s: liveAt,
		});
	}
	const startedAt = Date.parse(execution.startedAt);
	const stoppedAt = Date.parse(execution.stoppedAt);
	const wall = (stoppedAt - startedAt) / 1000;
	const requests = await sandboxRequests(ctx.sandboxOrigin);
	const runs = await sandboxRuns(ctx.sandboxOrigin);
	mark(
		`${label} (${scenario.items} items, ${scenario.latency} ms, cap ${scenario.cap})`,
		startedAt,
		stoppedAt,
	);
	const posts = submitsOf(requests);
	if (posts.length) mark(`${label}: until the first submit`, startedAt, posts[0].at);
	if (posts.length)
		mark(`${label}: submits (first to last POST answered)`, posts[0].at, posts.at(-1).at);
	const result = kind.startsWith('node') ? await nodeResult(ctx, execution.id) : {};
	log(
		`${label} (${scenario.items} items, ${scenario.latency} ms, cap ${scenario.cap}): ${wall.toFixed(2)} s${result.node_s ? ` (node ${result.node_s} s)` : ''}, ${execution.status}, ${requests.length} requests, RSS +${memory.rss_growth_mb} MB`,
	);
	return {
		row: `${label}${suffix}`,
		items: scenario.items,
		latency_ms: scenario.latency,
		cap: scenario.cap,
		wall_s: wall,
		...result,
		...counts(requests, scenario.items),
		...memory,
		...timeline(requests, runs, startedAt, stoppedAt),
		note: `n8n 2.41.1 execution ${execution.id} ${execution.status}; wall = execution stoppedAt - startedAt; node from ${extensionsDir}`,
	};
}

async function measureIdealClient(ctx, scenario, kind) {
	const { ideal, label } = ROW_KINDS[kind];
	const base = `${ctx.sandboxOrigin}/v1`;
	// warm: the first fetch of this process sets up its HTTP client
	await restartSandbox(ctx.sandboxPort, ['--latency', '100', '--concurrency', '10']);
	await idealClient(base, API_KEY, 10, ideal);
	await restartSandbox(ctx.sandboxPort, [
		'--latency',
		String(scenario.latency),
		'--concurrency',
		String(scenario.cap),
	]);
	const { startedAt, endedAt } = await idealClient(base, API_KEY, scenario.items, ideal);
	const wall = (endedAt - startedAt) / 1000;
	const requests = await sandboxRequests(ctx.sandboxOrigin);
	const runs = await sandboxRuns(ctx.sandboxOrigin);
	log(
		`${label} (${scenario.items} items, ${scenario.latency} ms, cap ${scenario.cap}): ${wall.toFixed(2)} s`,
	);
	return {
		row: `${label}${suffix}`,
		items: scenario.items,
		latency_ms: scenario.latency,
		cap: scenario.cap,
		wall_s: wall,
		...counts(requests, scenario.items),
		...timeline(requests, runs, startedAt, endedAt),
	};
}

/**
 * One execution of MediaGen Video whose MP4 is `mb` MB, n8n's binary mode as by default (filesystem):
 * n8n's RSS sampled every 100 ms from just before the call to the end of the execution, the node's
 * download span read from the sandbox log, and a plain `curl -o file` of the same file for comparison.
 */
async function measureBigOutput(ctx, mb, workflowId, httpWorkflowId) {
	await restartSandbox(ctx.sandboxPort, ['--latency', '200', '--video-bytes', String(64 * 1024)]);
	await runWorkflow(ctx, workflowId, {}); // warm-up: modules loaded, binary folder made
	await restartSandbox(ctx.sandboxPort, ['--latency', '200', '--video-bytes', String(mb * MB)]);
	await sleep(2000);
	const rss = rssSampler(ctx.worker.pid);
	const execution = await runWorkflow(ctx, workflowId, {});
	const memory = await rss.stop();
	const wall = (Date.parse(execution.stoppedAt) - Date.parse(execution.startedAt)) / 1000;
	const requests = await sandboxRequests(ctx.sandboxOrigin);
	const file = requests.find((r) => r.path.startsWith('/storage/'));
	const lastPoll = requests
		.filter((r) => r.path.startsWith('/v1/runs') && file && r.at <= file.at)
		.at(-1);
	const downloadSpan = file && lastPoll ? (file.at - lastPoll.at) / 1000 : NaN;

	// the same file, fetched by curl to a file on this machine, and by n8n's HTTP Request node
	const headers = { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' };
	const run = await (
		await fetch(`${ctx.sandboxOrigin}/v1/videos/generations`, {
			method: 'POST',
			headers: { ...headers, 'idempotency-key': `plain-${Date.now()}` },
			body: JSON.stringify({ prompt: 'a long take', duration: 5 }),
		})
	).json();
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
	const httpRss = rssSampler(ctx.worker.pid);
	const httpNode = await runWorkflow(ctx, httpWorkflowId, { url: done.output.output_url });
	const httpMemory = await httpRss.stop();
	const httpNodeWall = (Date.parse(httpNode.stoppedAt) - Date.parse(httpNode.startedAt)) / 1000;
	mark(
		`big output ${mb} MB: MediaGen Video execution`,
		Date.parse(execution.startedAt),
		Date.parse(execution.stoppedAt),
	);
	if (file && lastPoll) mark(`big output ${mb} MB: MediaGen Video download`, lastPoll.at, file.at);
	mark(
		`big output ${mb} MB: HTTP Request node execution`,
		Date.parse(httpNode.startedAt),
		Date.parse(httpNode.stoppedAt),
	);
	log(
		`big output ${mb} MB: ${execution.status}, wall ${wall.toFixed(2)} s, download ${downloadSpan.toFixed(2)} s, plain curl ${plain.toFixed(2)} s, HTTP Request node ${httpNodeWall.toFixed(2)} s (+${httpMemory.rss_growth_mb} MB); RSS ${memory.rss_before_mb} → peak ${memory.peak_rss_mb} MB`,
	);
	return {
		row: `big output: one ${mb} MB MP4 through MediaGen Video, ${where}, ${values.queue ? 'database' : 'filesystem'} binary mode${suffix}`,
		items: 1,
		latency_ms: 200,
		cap: 1,
		wall_s: wall,
		download_s: Number(downloadSpan.toFixed(2)),
		plain_download_s: Number(plain.toFixed(2)),
		http_request_node_s: httpNodeWall,
		http_request_node_rss_growth_mb: httpMemory.rss_growth_mb,
		...memory,
		note: `execution ${execution.id} ${execution.status}; node from ${extensionsDir}; download = sandbox log, file request closed minus the poll that saw the run complete; plain = curl -o of ${plainBytes} bytes; HTTP Request node = n8n's own node fetching the same file as binary (execution ${httpNode.id} ${httpNode.status})`,
	};
}

/** One n8n (filesystem binary mode), workflows published before it starts. */
async function startRegular(folder, sandboxOrigin, workflows) {
	const userFolder = join(folder, 'user');
	const env = { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem', N8N_METRICS: 'true' };
	for (const args of [
		['import:credentials', `--input=${join(folder, 'cred.json')}`],
		['import:workflow', `--input=${join(folder, 'workflows.json')}`],
		...workflows.map((w) => ['publish:workflow', `--id=${w.id}`]),
	]) {
		const result = await n8nCli(args, { userFolder, extensionsDir, env });
		if (result.code !== 0)
			throw new Error(`n8n ${args[0]} failed: ${result.stderr || result.stdout}`);
	}
	const port = await freePort();
	if (profileDir) mkdirSync(profileDir, { recursive: true });
	n8nStartedAt = Date.now();
	const nodeOptions = [
		profileDir && `--cpu-prof --cpu-prof-dir=${profileDir}`,
		values['live-heap-at'] && '--inspect=127.0.0.1:0',
		values['node-options'],
	]
		.filter(Boolean)
		.join(' ');
	let inspectorUrl;
	const n8nLog = (line) => {
		// the first inspector to start is n8n's own (its task runner may open one after it)
		inspectorUrl ??= /Debugger listening on (ws:\/\/\S+)/.exec(line)?.[1];
		if (values['n8n-log']) appendFileSync(values['n8n-log'], `${line}\n`);
	};
	const n8n = await startN8n({
		userFolder,
		extensionsDir,
		port,
		log: n8nLog,
		env: { ...env, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) },
	});
	await setupOwner(n8n.url);
	const apiKey = await createApiKey(n8n.url);
	return {
		n8n,
		worker: n8n,
		apiKey,
		metricsUrl: `${n8n.url}/metrics`,
		inspectorUrl,
		stops: [() => n8n.stop()],
	};
}

/** Queue mode: Redis + PostgreSQL (test/queue/services.mjs), one main, one worker; workflows activated through the public API. */
async function startQueue(folder, workflows) {
	const { ensurePackages, startPostgres, startRedis } = await import('../test/queue/services.mjs');
	ensurePackages(log);
	const [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
	const stops = [redis.stop, pg.stop];
	const mainPort = await freePort();
	const mainUrl = `http://127.0.0.1:${mainPort}`;
	const env = {
		...pg.n8nEnv,
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		QUEUE_HEALTH_CHECK_ACTIVE: 'true',
		DB_POSTGRESDB_POOL_SIZE: '10',
		N8N_WEBHOOK_URL: `${mainUrl}/`,
		N8N_EDITOR_BASE_URL: `${mainUrl}/`,
	};
	const mainFolder = makeUserFolder('mediagen-bench-queue-main-');
	for (const args of [
		['import:credentials', `--input=${join(folder, 'cred.json')}`],
		['import:workflow', `--input=${join(folder, 'workflows.json')}`],
	]) {
		const result = await n8nCli(args, { userFolder: mainFolder, extensionsDir, env });
		if (result.code !== 0)
			throw new Error(`n8n ${args[0]} failed: ${result.stderr || result.stdout}`);
	}
	n8nStartedAt = Date.now();
	const profileEnv = profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } : {};
	if (profileDir) mkdirSync(profileDir, { recursive: true });
	const [n8n, worker] = await Promise.all([
		startN8n({ port: mainPort, userFolder: mainFolder, extensionsDir, env, log: () => {} }),
		startN8nWorker({
			userFolder: makeUserFolder('mediagen-bench-queue-worker-'),
			extensionsDir,
			env: { ...env, ...profileEnv },
			log: () => {},
		}),
	]);
	stops.unshift(
		() => n8n.stop(),
		() => worker.stop(),
	);
	await setupOwner(n8n.url);
	const apiKey = await createApiKey(n8n.url);
	for (const w of workflows)
		await publicApi(n8n.url, apiKey, `/workflows/${w.id}/activate`, { method: 'POST' });
	return { n8n, worker, apiKey, stops };
}

async function main() {
	await ensureN8nInstalled({ log });
	const sandboxPort = await freePort();
	const sandboxOrigin = `http://127.0.0.1:${sandboxPort}`;
	const folder = mkdtempSync(join(tmpdir(), 'mediagen-bench-n8n-'));
	let started;
	try {
		writeFileSync(
			join(folder, 'cred.json'),
			JSON.stringify([
				{
					id: 'benchcred00000001',
					name: 'MediaGen sandbox',
					type: 'mediaGenApi',
					data: { baseUrl: `${sandboxOrigin}/v1`, apiKey: API_KEY },
				},
			]),
		);
		const workflows = workflowsFor(`${sandboxOrigin}/v1`);
		writeFileSync(join(folder, 'workflows.json'), JSON.stringify(workflows));
		// a sandbox answers while n8n starts (activating nothing needs it, but the first rows restart it anyway)
		await restartSandbox(sandboxPort, ['--latency', '100']);
		started = values.queue
			? await startQueue(folder, workflows)
			: await startRegular(folder, sandboxOrigin, workflows);
		const { n8n, apiKey } = started;
		const api = async (path, opts = {}) => {
			for (let attempt = 1; ; attempt++) {
				try {
					return await publicApi(n8n.url, apiKey, path, opts);
				} catch (e) {
					// a busy n8n (saving a 10,000-item execution) may answer 5xx or drop a connection for a moment
					if (
						(opts.method ?? 'GET') !== 'GET' ||
						attempt >= 10 ||
						!/HTTP 5\d\d|fetch failed/.test(e.message)
					)
						throw e;
					await sleep(1000);
				}
			}
		};
		const ctx = {
			n8n,
			worker: started.worker,
			metricsUrl: started.metricsUrl,
			inspectorUrl: started.inspectorUrl,
			api,
			sandboxPort,
			sandboxOrigin,
		};
		const rows = [];
		if (values['big-output-mb'])
			rows.push(
				await measureBigOutput(
					ctx,
					Number(values['big-output-mb']),
					'benchM000000001',
					'benchH000000001',
				),
			);
		else {
			for (const scenario of JSON.parse(values.scenarios)) {
				const kinds =
					scenario.rows ?? (scenario.nodeOnly ? ['node'] : ['node', 'loop5', 'loop2', 'ideal']);
				for (const kind of kinds) {
					if (!ROW_KINDS[kind])
						throw new Error(
							`unknown row kind ${kind}; known: ${Object.keys(ROW_KINDS).join(', ')}`,
						);
					rows.push(
						ROW_KINDS[kind].ideal
							? await measureIdealClient(ctx, scenario, kind)
							: await measureWorkflow(ctx, scenario, kind),
					);
				}
			}
		}
		process.stdout.write(`${JSON.stringify(rows)}\n`);
	} finally {
		for (const stop of started?.stops ?? []) await stop();
		sandbox?.kill();
		rmSync(folder, { recursive: true, force: true });
		if (profileDir && started) {
			writeFileSync(
				join(profileDir, 'marks.json'),
				JSON.stringify({ pid: started.worker.pid, marks }, null, 1),
			);
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
