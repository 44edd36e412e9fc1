// Benchmark rows measured in a real n8n (test/n8n-host): (a) the MediaGen Image node in a workflow,
// and (d) what users build today: HTTP Request submit → Wait → HTTP Request poll → IF, looping.
// Usage: node bench/real-n8n.mjs --items 100 --latency 2000 --cap 10 [--wait 5]
// Prints progress on stderr and the rows as JSON on the last stdout line.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { ensureN8nInstalled } from '../test/n8n-host/install.mjs';
import { createApiKey, freePort, n8nCli, publicApi, setupOwner, startN8n } from '../test/n8n-host/n8n.mjs';

const { values } = parseArgs({
	options: {
		items: { type: 'string', default: '100' },
		latency: { type: 'string', default: '2000' },
		cap: { type: 'string', default: '10' },
		wait: { type: 'string', default: '5' },
	},
});
const items = Number(values.items);
const latency = Number(values.latency);
const cap = Number(values.cap);
const waitSeconds = Number(values.wait);
const root = new URL('..', import.meta.url).pathname;
const API_KEY = 'mg_sandbox_full_access_key';
const log = (line) => process.stderr.write(`[real-n8n] ${line}\n`);

async function startSandbox(port) {
	const child = spawn(process.execPath, [join(root, 'build/sandbox/cli.js'), '--port', String(port), '--latency', String(latency), '--concurrency', String(cap), '--rate-limit', '100000'], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	await new Promise((resolve, reject) => {
		child.stdout.on('data', (chunk) => chunk.toString().includes('listening') && resolve());
		child.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
	});
	return child;
}

const node = (name, type, typeVersion, position, parameters, extra = {}) => ({ id: randomUUID(), name, type, typeVersion, position, parameters, ...extra });
const webhook = (path) => node('Webhook', 'n8n-nodes-base.webhook', 2, [0, 0], { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} }, { webhookId: randomUUID() });
const prompts = node('Prompts', 'n8n-nodes-base.code', 2, [200, 0], {
	jsCode: "return Array.from({ length: $input.first().json.body.count }, (_, i) => ({ json: { prompt: 'poster ' + i } }));",
});

function nodeWorkflow(id, sandboxBase) {
	const image = node('MediaGen Image', 'CUSTOM.mediaGenImage', 1, [400, 0], {
		authentication: 'mediaGenApi',
		resource: 'image',
		operation: 'generate',
		prompt: '={{ $json.prompt }}',
		options: { waitTimeout: 3600, concurrency: 10 },
	}, { credentials: { mediaGenApi: { id: 'benchcred00000001', name: 'MediaGen sandbox' } } });
	void sandboxBase;
	return {
		id,
		name: 'bench (a) MediaGen Image node',
		nodes: [webhook(`bench-a-${id}`), prompts, image],
		connections: { Webhook: { main: [[{ node: 'Prompts', type: 'main', index: 0 }]] }, Prompts: { main: [[{ node: 'MediaGen Image', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

function pollingLoopWorkflow(id, sandboxBase) {
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
	const poll = node('Poll', 'n8n-nodes-base.httpRequest', 4.2, [800, 0], {
		method: 'GET',
		url: `=${sandboxBase}/runs/{{ $json.id }}`,
		sendHeaders: true,
		headerParameters: { parameters: [auth] },
		options: {},
	});
	const done = node('Done?', 'n8n-nodes-base.if', 1, [1000, 0], {
		conditions: { string: [{ value1: '={{ $json.status }}', operation: 'equal', value2: 'completed' }] },
	});
	const finished = node('Finished', 'n8n-nodes-base.noOp', 1, [1200, -100], {});
	return {
		id,
		name: 'bench (d) HTTP Request + Wait + IF loop',
		nodes: [webhook(`bench-d-${id}`), prompts, submit, wait, poll, done, finished],
		connections: {
			Webhook: { main: [[{ node: 'Prompts', type: 'main', index: 0 }]] },
			Prompts: { main: [[{ node: 'Submit', type: 'main', index: 0 }]] },
			Submit: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] },
			Wait: { main: [[{ node: 'Poll', type: 'main', index: 0 }]] },
			Poll: { main: [[{ node: 'Done?', type: 'main', index: 0 }]] },
			'Done?': { main: [[{ node: 'Finished', type: 'main', index: 0 }], [{ node: 'Wait', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

async function sandboxRequests(sandboxOrigin) {
	const response = await fetch(`${sandboxOrigin}/_sandbox/requests`);
	return (await response.json()).data.filter((r) => r.path.startsWith('/v1/'));
}

async function measure(n8n, apiKey, sandboxOrigin, workflowId, path, label) {
	const before = (await sandboxRequests(sandboxOrigin)).length;
	const started = Date.now();
	const response = await fetch(`${n8n.url}/webhook/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ count: items }) });
	if (!response.ok) throw new Error(`${label}: webhook answered ${response.status} ${await response.text()}`);
	let execution;
	for (;;) {
		await new Promise((r) => setTimeout(r, 250));
		const list = await publicApi(n8n.url, apiKey, `/executions?workflowId=${workflowId}&limit=1`);
		execution = list.data?.[0];
		if (execution?.finished || (execution?.stoppedAt && execution.status !== 'running' && execution.status !== 'waiting' && execution.status !== 'new')) break;
		if (Date.now() - started > 20 * 60 * 1000) throw new Error(`${label}: not finished after 20 minutes`);
	}
	const wall = (Date.parse(execution.stoppedAt) - Date.parse(execution.startedAt)) / 1000;
	const requests = (await sandboxRequests(sandboxOrigin)).slice(before);
	log(`${label}: ${wall.toFixed(1)} s, status ${execution.status}, ${requests.length} API requests`);
	return {
		row: label,
		items,
		latency_ms: latency,
		cap,
		wall_s: wall,
		requests_per_run: Number((requests.length / items).toFixed(2)),
		polls_after_completion: null,
		peak_rss_mb: null,
		note: `n8n 2.41.1 execution ${execution.id} ${execution.status}; wall = execution stoppedAt - startedAt`,
	};
}

async function main() {
	await ensureN8nInstalled({ log });
	const sandboxPort = await freePort();
	const sandboxOrigin = `http://127.0.0.1:${sandboxPort}`;
	const sandbox = await startSandbox(sandboxPort);
	const folder = mkdtempSync(join(tmpdir(), 'mediagen-bench-n8n-'));
	const userFolder = join(folder, 'user');
	const extensionsDir = join(root, 'dist');
	let n8n;
	try {
		writeFileSync(join(folder, 'cred.json'), JSON.stringify([{ id: 'benchcred00000001', name: 'MediaGen sandbox', type: 'mediaGenApi', data: { baseUrl: `${sandboxOrigin}/v1`, apiKey: API_KEY } }]));
		const wfA = nodeWorkflow('benchA000000001', `${sandboxOrigin}/v1`);
		const wfD = pollingLoopWorkflow('benchD000000001', `${sandboxOrigin}/v1`);
		writeFileSync(join(folder, 'workflows.json'), JSON.stringify([wfA, wfD]));
		for (const args of [['import:credentials', `--input=${join(folder, 'cred.json')}`], ['import:workflow', `--input=${join(folder, 'workflows.json')}`], ['publish:workflow', `--id=${wfA.id}`], ['publish:workflow', `--id=${wfD.id}`]]) {
			const result = await n8nCli(args, { userFolder, extensionsDir });
			if (result.code !== 0) throw new Error(`n8n ${args[0]} failed: ${result.stderr || result.stdout}`);
		}
		n8n = await startN8n({ userFolder, extensionsDir, port: await freePort() });
		await setupOwner(n8n.url);
		const apiKey = await createApiKey(n8n.url);
		const rows = [
			await measure(n8n, apiKey, sandboxOrigin, wfA.id, `bench-a-${wfA.id}`, '(a) MediaGen Image node, real n8n'),
			await measure(n8n, apiKey, sandboxOrigin, wfD.id, `bench-d-${wfD.id}`, `(d) real n8n: HTTP Request + Wait ${waitSeconds} s + IF loop`),
		];
		process.stdout.write(`${JSON.stringify(rows)}\n`);
	} finally {
		await n8n?.stop();
		sandbox.kill();
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		process.stderr.write(`${error.stack ?? error}\n`);
		process.exit(1);
	},
);
