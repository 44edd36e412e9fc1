/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// Replay protection of the MediaGen Trigger in real n8n, on an n8n of this test's own (it is
// stopped and started again). Deliveries are signed here with node:crypto from the secret n8n keeps
// in the workflow's static data — an implementation of the signature that shares no code with the
// package.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { SANDBOX_API_KEY } from '../../sandbox/options';
import { makePng } from '../../sandbox/png';
import { describeWithN8n, readE2eState } from './state';

interface N8n {
	url: string;
	port: number;
	apiKey?: string;
	stop(): Promise<void>;
}

/** An n8n of this test's own, through test/e2e/own-n8n.mjs (ESM host modules cannot be imported here). */
async function startOwnN8n(userFolder: string, extensionsDir: string, options: { setup?: boolean; port?: number }): Promise<N8n> {
	const args = ['--user-folder', userFolder, '--extensions', extensionsDir, ...(options.setup ? ['--setup'] : []), ...(options.port ? ['--port', String(options.port)] : [])];
	const child = spawn(process.execPath, [join(__dirname, 'own-n8n.mjs'), ...args], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const ready = await new Promise<{ url: string; port: number; apiKey?: string }>((resolve, reject) => {
		const lines = createInterface({ input: child.stdout! });
		lines.on('line', (line) => line.startsWith('{') && resolve(JSON.parse(line)));
		child.once('exit', (code) => reject(new Error(`n8n exited with code ${code} before it was ready`)));
	});
	return {
		...ready,
		stop: async () => {
			child.kill('SIGTERM');
			await exited;
		},
	};
}

async function publicApi<T>(n8n: N8n, apiKey: string, path: string, method = 'GET', body?: unknown): Promise<T> {
	const res = await fetch(`${n8n.url}/api/v1${path}`, {
		method,
		headers: { 'X-N8N-API-KEY': apiKey, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
		body: body ? JSON.stringify(body) : undefined,
	});
	if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${await res.text()}`);
	return (await res.json()) as T;
}

const TRIGGER = 'Run Completed';

function triggerWorkflow(credential: { id: string; name: string }, extra: Record<string, unknown> = {}, webhookId = 'replay-protection') {
	return {
		name: `Replay protection (${webhookId})`,
		nodes: [
			{
				id: 'trigger',
				name: TRIGGER,
				type: 'CUSTOM.mediaGenTrigger',
				typeVersion: 1,
				position: [0, 0],
				// what a node dragged onto the canvas stores: its events and an empty Options collection
				parameters: { events: ['run.completed'], options: {}, ...extra },
				credentials: { mediaGenApi: credential },
				webhookId,
			},
			{ id: 'noop', name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [200, 0], parameters: {} },
		],
		connections: { [TRIGGER]: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

function signed(secret: string, event: Record<string, unknown>) {
	const body = JSON.stringify(event);
	const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
	return { body, headers: { 'content-type': 'application/json', 'X-Service-Signature': signature, 'X-Service-Event': String(event.type) } };
}

function runCompleted(id: string, createdAt: Date, outputUrl: string) {
	return {
		id,
		object: 'event',
		type: 'run.completed',
		created_at: createdAt.toISOString(),
		data: { object: { id: `run_${id}`, object: 'run', status: 'completed', capability: 'image_generation', output: { output_url: outputUrl } } },
	};
}

async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check().catch(() => undefined);
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 300));
	}
}

describeWithN8n('MediaGen Trigger replay protection in real n8n (defaults, repeats, restarts, slow downloads)', () => {
	const state = readE2eState();
	let n8n: N8n | undefined;
	const afterAllCleanups: Array<() => void> = [];
	let slowFiles: Server;
	let slowFilesUrl = '';

	beforeAll(async () => {
		const png = makePng(4, 4, 9);
		slowFiles = createServer((_req, res) => {
			setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(png), 4000);
		});
		await new Promise<void>((resolve) => slowFiles.listen(0, '127.0.0.1', resolve));
		slowFilesUrl = `http://127.0.0.1:${(slowFiles.address() as AddressInfo).port}/slow.png`;
	});

	afterAll(async () => {
		await n8n?.stop();
		await new Promise((r) => slowFiles.close(r));
		for (const cleanup of afterAllCleanups) cleanup();
	});

	it('refuses stale events with empty Options, starts one execution per event id (also after a restart), and answers before a slow download', async () => {
		const userFolder = mkdtempSync(join(tmpdir(), 'mediagen-e2e-replay-'));
		afterAllCleanups.push(() => rmSync(userFolder, { recursive: true, force: true }));
		n8n = await startOwnN8n(userFolder, state.extensionsDir, { setup: true });
		const apiKey = n8n.apiKey!;
		// the same port after the restart: the trigger keeps its registered URL, as a real install does
		const start = async () => (n8n = await startOwnN8n(userFolder, state.extensionsDir, { port: n8n!.port }));
		const api = <T>(path: string, method = 'GET', body?: unknown) => publicApi<T>(n8n!, apiKey, path, method, body);
		const credential = await api<{ id: string; name: string }>('/credentials', 'POST', {
			name: 'MediaGen sandbox',
			type: 'mediaGenApi',
			data: { baseUrl: state.sandbox.baseUrl, apiKey: SANDBOX_API_KEY, allowedHttpRequestDomains: 'all' },
		});
		const created = await api<{ id: string }>('/workflows', 'POST', triggerWorkflow(credential));
		await api(`/workflows/${created.id}/activate`, 'POST');

		const secretOf = async (id = created.id) => {
			const workflow = await api<{ staticData?: Record<string, { signingSecret?: string; recentEventIds?: string[] }> }>(`/workflows/${id}`);
			return workflow.staticData?.[`node:${TRIGGER}`];
		};
		const secret = (await eventually('the trigger to register its endpoint', async () => (await secretOf())?.signingSecret))!;
		const webhookUrl = `${n8n!.url}/webhook/replay-protection/webhook`;
		const executions = async () => (await api<{ data: unknown[] }>(`/executions?workflowId=${created.id}&limit=100`)).data.length;
		const deliver = async (event: Record<string, unknown>) => {
			const { body, headers } = signed(secret, event);
			const started = Date.now();
			const res = await fetch(webhookUrl, { method: 'POST', headers, body });
			return { status: res.status, ms: Date.now() - started, body: await res.text() };
		};

		// a correctly signed event older than the documented default (5 minutes) is refused
		const stale = await deliver(runCompleted('evt_stale', new Date(Date.now() - 10 * 60_000), slowFilesUrl));
		expect(stale.status).toBe(401);
		expect(stale.body).toContain('stale_event');

		const fresh = runCompleted('evt_once', new Date(), slowFilesUrl);
		expect((await deliver(fresh)).status).toBe(200);
		await eventually('one execution', async () => ((await executions()) === 1 ? true : undefined));
		const again = await deliver(fresh);
		expect(again.status).toBe(200);
		expect(again.body).toContain('repeated_event');
		expect((await secretOf())?.recentEventIds).toContain('evt_once');

		await n8n!.stop();
		await start();
		await eventually('the trigger to be active again', async () => ((await secretOf())?.signingSecret === secret ? true : undefined));
		const afterRestart = await deliver(fresh);
		expect(afterRestart.status).toBe(200);
		expect(afterRestart.body).toContain('repeated_event');
		await new Promise((r) => setTimeout(r, 1500));
		expect(await executions()).toBe(1);

		// with Download Outputs, the delivery is answered before the 4 s download finishes
		const downloading = await api<{ id: string }>('/workflows', 'POST', triggerWorkflow(credential, { options: { downloadOutputs: true } }, 'download-outputs'));
		await api(`/workflows/${downloading.id}/activate`, 'POST');
		const secret2 = (await eventually('the second endpoint', async () => (await secretOf(downloading.id))?.signingSecret))!;
		const slow = signed(secret2, runCompleted('evt_slow', new Date(), slowFilesUrl));
		const t0 = Date.now();
		const answer = await fetch(`${n8n!.url}/webhook/download-outputs/webhook`, { method: 'POST', headers: slow.headers, body: slow.body });
		expect(answer.status).toBe(200);
		expect(Date.now() - t0).toBeLessThan(1000);
		const withFile = await eventually('the execution with the downloaded file', async () => {
			const list = await api<{ data: Array<{ status: string; data?: { resultData: { runData: Record<string, Array<{ data?: { main: Array<Array<{ binary?: Record<string, { mimeType: string }> }>> } }>> } } }> }>(
				`/executions?workflowId=${downloading.id}&includeData=true&limit=100`,
			);
			const done = list.data.find((e) => e.status === 'success' && e.data?.resultData.runData[TRIGGER]?.[0]?.data?.main[0][0].binary);
			return done;
		});
		expect(withFile.data!.resultData.runData[TRIGGER][0].data!.main[0][0].binary!.data.mimeType).toBe('image/png');
	});
});
