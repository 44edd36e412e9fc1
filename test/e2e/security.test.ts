/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// Issue 24 in real n8n, on an n8n and a sandbox of this test's own, with n8n's SSRF protection on
// (the sandbox on 127.0.0.1 allowed as an operator allows a private service):
// - a trigger endpoint registered by an earlier version (its signing secret in clear in the static
//   data) is sealed when the new version activates it, deliveries still verify, and the public API
//   shows no clear secret;
// - 20 copies of one event at once start one execution; 20 different events at once lose no id;
// - 20 copies of each run's delivery to a paused execution at once: one resume, one download per file;
// - an output file whose host name resolves to a loopback address n8n does not allow is refused.
// Deliveries are signed here with node:crypto from the secret the service issued.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SANDBOX_ACCOUNT_ID, SANDBOX_API_KEY } from '../../sandbox/options';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import {
	callWebhook,
	eventually,
	publicApi,
	runOwnN8nCli,
	startOwnN8n,
	type OwnN8n,
} from './own-n8n-client';
import { describeWithN8n, readE2eState, type N8nExecution } from './state';

const TRIGGER = 'Run Completed';
/** resolved by n8n only (a preloaded stub of node:dns), to a loopback address n8n is not allowed to reach */
const LOOPBACK_NAME = 'files.loopback-name.test';
const LEGACY_WORKFLOW_ID = 'legacyTrigger24';

const sign = (secret: string, body: string) =>
	`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

function runCompleted(id: string, run: Record<string, unknown>) {
	return JSON.stringify({
		id,
		object: 'event',
		type: 'run.completed',
		created_at: new Date().toISOString(),
		data: { object: run },
	});
}

function triggerNode(
	credential: { id: string; name: string },
	webhookId: string,
	options: Record<string, unknown> = {},
) {
	return {
		id: `trigger-${webhookId}`,
		name: TRIGGER,
		type: 'CUSTOM.mediaGenTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: { events: ['run.completed'], options },
		credentials: { mediaGenApi: credential },
		webhookId,
	};
}

function triggerWorkflow(
	name: string,
	credential: { id: string; name: string },
	webhookId: string,
	options: Record<string, unknown> = {},
) {
	return {
		name,
		nodes: [
			triggerNode(credential, webhookId, options),
			{
				id: 'noop',
				name: 'Done',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [200, 0],
				parameters: {},
			},
		],
		connections: { [TRIGGER]: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

describeWithN8n(
	"secrets at rest and bursts in real n8n, with n8n's SSRF protection on (issue 24)",
	() => {
		const state = readE2eState();
		let n8n: OwnN8n | undefined;
		let sandbox: Sandbox;
		let userFolder: string;
		let apiKey = '';
		let credential: { id: string; name: string };
		let legacySecret = '';
		let legacyEndpointId = '';
		let files: Server;
		const fileConnections: string[] = [];
		const env: Record<string, string> = {};
		const api = <T>(path: string, method = 'GET', body?: unknown) =>
			publicApi<T>(n8n!, apiKey, path, method, body);
		const executions = async (workflowId: string) =>
			(
				await api<{ data: N8nExecution[] }>(
					`/executions?workflowId=${workflowId}&includeData=true&limit=250`,
				)
			).data;
		const endpointSecret = (id: string) =>
			(
				sandbox.services.webhooks as unknown as { endpoints: Map<string, { secret: string }> }
			).endpoints.get(id)!.secret;
		const deliver = async (url: string, secret: string, body: string) => {
			const res = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'X-Service-Signature': sign(secret, body) },
				body,
			});
			return {
				status: res.status,
				body: (await res.json().catch(() => ({}))) as Record<string, unknown>,
			};
		};
		/** the count once it stopped changing for 3 s (executions start asynchronously) */
		const settledCount = async (workflowId: string, atLeast: number) => {
			let count = await eventually(`${atLeast} executions of ${workflowId}`, async () => {
				const n = (await executions(workflowId)).length;
				return n >= atLeast ? n : undefined;
			});
			for (;;) {
				await new Promise((r) => setTimeout(r, 3000));
				const now = (await executions(workflowId)).length;
				if (now === count) return count;
				count = now;
			}
		};

		beforeAll(async () => {
			sandbox = await startSandbox({ latencyMs: 600_000, webhookBackoffScale: 0.2 });
			userFolder = mkdtempSync(join(tmpdir(), 'mediagen-e2e-security-'));
			// the TCP listener a refused download must never reach
			files = createServer((socket) => {
				fileConnections.push(String(socket.remoteAddress));
				socket.destroy();
			});
			await new Promise<void>((resolve) => files.listen(0, '127.0.0.2', resolve));
			const preload = join(userFolder, 'resolve-test-names.cjs');
			writeFileSync(
				preload,
				`const dns = require('node:dns');
const NAME = ${JSON.stringify(LOOPBACK_NAME)};
const lookup = dns.lookup;
dns.lookup = (host, options, callback) => {
	const done = typeof options === 'function' ? options : callback;
	if (host !== NAME) return lookup(host, options, callback);
	return options && options.all ? done(null, [{ address: '127.0.0.2', family: 4 }]) : done(null, '127.0.0.2', 4);
};
const promised = dns.promises.lookup;
dns.promises.lookup = async (host, options) => (host !== NAME ? promised(host, options) : options && options.all ? [{ address: '127.0.0.2', family: 4 }] : { address: '127.0.0.2', family: 4 });
`,
			);
			Object.assign(env, {
				N8N_SSRF_PROTECTION_ENABLED: 'true',
				N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32',
				NODE_OPTIONS: `--require ${preload}`,
			});

			n8n = await startOwnN8n(userFolder, state.extensionsDir, { setup: true, env });
			apiKey = n8n.apiKey!;
			credential = await api<{ id: string; name: string }>('/credentials', 'POST', {
				name: 'MediaGen sandbox',
				type: 'mediaGenApi',
				data: {
					baseUrl: sandbox.baseUrl,
					apiKey: SANDBOX_API_KEY,
					allowedHttpRequestDomains: 'all',
				},
			});
			// An endpoint registered by an earlier version of the package: its secret in clear in the
			// static data (the layout before issue 24), imported with the workflow while n8n is stopped.
			const webhookUrl = `${n8n.url}/webhook/legacy-trigger/webhook`;
			const legacy = sandbox.services.webhooks.createEndpoint(SANDBOX_ACCOUNT_ID, {
				url: webhookUrl,
				description: `n8n workflow "Legacy trigger" (${LEGACY_WORKFLOW_ID}), node "${TRIGGER}"`,
				events: ['run.completed'],
			});
			legacySecret = legacy.signing_secret;
			legacyEndpointId = legacy.id;
			const port = n8n.port;
			await n8n.stop();
			const file = join(userFolder, 'legacy-workflow.json');
			writeFileSync(
				file,
				JSON.stringify({
					id: LEGACY_WORKFLOW_ID,
					...triggerWorkflow('Legacy trigger', credential, 'legacy-trigger'),
					active: false,
					staticData: {
						[`node:${TRIGGER}`]: {
							endpointId: legacy.id,
							signingSecret: legacy.signing_secret,
							webhookUrl,
							recentEventIds: ['evt_before_upgrade'],
						},
					},
				}),
			);
			for (const args of [
				['import:workflow', `--input=${file}`],
				['publish:workflow', `--id=${LEGACY_WORKFLOW_ID}`],
			]) {
				const result = await runOwnN8nCli(userFolder, state.extensionsDir, args, env);
				expect({ args, code: result.code }).toEqual({ args, code: 0 });
			}
			// the upgrade: this version of the package starts with that static data
			n8n = await startOwnN8n(userFolder, state.extensionsDir, { port, env });
		});

		afterAll(async () => {
			await n8n?.stop();
			await sandbox.close();
			await new Promise((r) => files.close(r));
			rmSync(userFolder, { recursive: true, force: true });
		});

		it('seals the secret of an endpoint an earlier version registered when it activates it: deliveries verify, the public API shows no clear secret', async () => {
			type StaticData = Record<
				string,
				{
					endpointId?: string;
					signingSecret?: string;
					sealedSigningSecret?: string;
					seenEvents?: Record<string, number>;
				}
			>;
			const workflow = await eventually('the sealed secret', async () => {
				const read = await api<{ staticData?: StaticData }>(`/workflows/${LEGACY_WORKFLOW_ID}`);
				return read.staticData?.[`node:${TRIGGER}`]?.sealedSigningSecret ? read : undefined;
			});
			const data = workflow.staticData![`node:${TRIGGER}`];
			expect(data.signingSecret).toBeUndefined();
			expect(data.endpointId).toBe(legacyEndpointId);
			expect(JSON.stringify(workflow)).not.toContain(legacySecret);
			expect(JSON.stringify(workflow)).not.toContain(legacySecret.slice('whsec_'.length));
			// the same endpoint, not a new registration
			expect(sandbox.services.webhooks.listEndpoints(SANDBOX_ACCOUNT_ID).map((e) => e.id)).toEqual([
				legacyEndpointId,
			]);

			const url = `${n8n!.url}/webhook/legacy-trigger/webhook`;
			const run = {
				id: 'run_after_upgrade',
				object: 'run',
				status: 'completed',
				capability: 'image_generation',
			};
			expect(
				(await deliver(url, legacySecret, runCompleted('evt_after_upgrade', run))).status,
			).toBe(200);
			expect(await settledCount(LEGACY_WORKFLOW_ID, 1)).toBe(1);
			// an id the earlier version remembered is still a repeat
			expect(
				(await deliver(url, legacySecret, runCompleted('evt_before_upgrade', run))).body,
			).toEqual({ received: true, ignored: 'repeated_event' });
			const after = await api<{ staticData?: StaticData }>(`/workflows/${LEGACY_WORKFLOW_ID}`);
			expect(JSON.stringify(after)).not.toContain(legacySecret);
			expect(Object.keys(after.staticData![`node:${TRIGGER}`].seenEvents ?? {})).toEqual(
				expect.arrayContaining(['evt_before_upgrade', 'evt_after_upgrade']),
			);
		});

		it('starts one execution for 20 copies of one event sent at once while the first downloads its file, and loses no id of 20 different events sent at once', async () => {
			// a file that takes 2 s: the copies arrive while the first delivery still downloads it
			const slowFiles: string[] = [];
			const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
			const slow = createHttpServer((req, res) => {
				slowFiles.push(String(req.url));
				setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(png), 2000);
			});
			await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
			try {
				const created = await api<{ id: string }>(
					'/workflows',
					'POST',
					triggerWorkflow('Burst with downloads', credential, 'burst-downloads', {
						downloadOutputs: true,
					}),
				);
				await api(`/workflows/${created.id}/activate`, 'POST');
				type StaticData = Record<string, { endpointId?: string }>;
				const endpointId = await eventually(
					'the endpoint',
					async () =>
						(await api<{ staticData?: StaticData }>(`/workflows/${created.id}`)).staticData?.[
							`node:${TRIGGER}`
						]?.endpointId,
				);
				const run = {
					id: 'run_burst',
					object: 'run',
					status: 'completed',
					capability: 'image_generation',
					output: {
						output_url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow.png`,
					},
				};
				const copy = runCompleted('evt_twenty_copies', run);
				const copies = await Promise.all(
					Array.from({ length: 20 }, () =>
						deliver(
							`${n8n!.url}/webhook/burst-downloads/webhook`,
							endpointSecret(endpointId),
							copy,
						),
					),
				);
				expect(copies.map((c) => c.status)).toEqual(Array(20).fill(200));
				expect(copies.filter((c) => c.body.ignored === 'repeated_event')).toHaveLength(19);
				expect(await settledCount(created.id, 1)).toBe(1);
				expect(slowFiles).toHaveLength(1);
				// its endpoint goes: it would download the files of the runs the next test makes
				await api(`/workflows/${created.id}/deactivate`, 'POST');
				await eventually('its endpoint to go', async () =>
					sandbox.services.webhooks
						.listEndpoints(SANDBOX_ACCOUNT_ID)
						.some((e) => e.id === endpointId)
						? undefined
						: true,
				);
			} finally {
				await new Promise((r) => slow.close(r));
			}

			const url = `${n8n!.url}/webhook/legacy-trigger/webhook`;
			const before = (await executions(LEGACY_WORKFLOW_ID)).length;
			const ids = Array.from({ length: 20 }, (_, i) => `evt_distinct_${i}`);
			const run = {
				id: 'run_distinct',
				object: 'run',
				status: 'completed',
				capability: 'image_generation',
			};
			const distinct = await Promise.all(
				ids.map((id) => deliver(url, legacySecret, runCompleted(id, run))),
			);
			expect(distinct.map((d) => d.status)).toEqual(Array(20).fill(200));
			expect(await settledCount(LEGACY_WORKFLOW_ID, before + 20)).toBe(before + 20);
			// each of them again, once every delivery saved its static data: all repeats
			const again = await Promise.all(
				ids.map((id) => deliver(url, legacySecret, runCompleted(id, run))),
			);
			const startedAgain = again.filter((a) => a.body.ignored !== 'repeated_event').length;
			process.stderr.write(
				`[security] 20 copies of one event while downloading: 1 execution; 20 different events, then each again: ${startedAgain} started again\n`,
			);
			expect(startedAgain).toBe(0);
			expect(await settledCount(LEGACY_WORKFLOW_ID, before + 20)).toBe(before + 20);
		});

		it("20 copies of each run's delivery to a paused execution at once: one resume, one download per output file", async () => {
			const created = await api<{ id: string }>('/workflows', 'POST', {
				name: 'Paused burst',
				nodes: [
					{
						id: 'start',
						name: 'Start',
						type: 'n8n-nodes-base.webhook',
						typeVersion: 2,
						webhookId: 'paused-burst',
						position: [0, 0],
						parameters: { httpMethod: 'POST', path: 'paused-burst', responseMode: 'onReceived' },
					},
					{
						id: 'shots',
						name: 'Shots',
						type: 'n8n-nodes-base.code',
						typeVersion: 2,
						position: [200, 0],
						parameters: {
							jsCode: "return [{ json: { prompt: 'shot 0' } }, { json: { prompt: 'shot 1' } }];",
						},
					},
					{
						id: 'make',
						name: 'Make',
						type: 'CUSTOM.mediaGenVideo',
						typeVersion: 1,
						position: [400, 0],
						credentials: { mediaGenApi: credential },
						parameters: {
							resource: 'video',
							operation: 'generate',
							prompt: '={{ $json.prompt }}',
							duration: 5,
							waitMode: 'parked',
						},
					},
					{
						id: 'done',
						name: 'Done',
						type: 'n8n-nodes-base.noOp',
						typeVersion: 1,
						position: [600, 0],
						parameters: {},
					},
				],
				connections: {
					Start: { main: [[{ node: 'Shots', type: 'main', index: 0 }]] },
					Shots: { main: [[{ node: 'Make', type: 'main', index: 0 }]] },
					Make: { main: [[{ node: 'Done', type: 'main', index: 0 }]] },
				},
				settings: { executionOrder: 'v1' },
			});
			await api(`/workflows/${created.id}/activate`, 'POST');
			await callWebhook(n8n!.url, 'paused-burst');
			const paused = await eventually('the paused execution', async () =>
				(await executions(created.id)).find((e) => e.status === 'waiting'),
			);
			const endpoint = await eventually('its endpoint', async () =>
				sandbox.services.webhooks
					.listEndpoints(SANDBOX_ACCOUNT_ID)
					.find((e) => e.description?.includes(`n8n execution ${paused.id} `)),
			);
			// the service's own deliveries stay off: the burst below is every delivery there is
			sandbox.services.webhooks.updateEndpoint(SANDBOX_ACCOUNT_ID, endpoint.id, {
				status: 'disabled',
			});
			const runIds = [...sandbox.state.runs.values()]
				.filter((r) => r.run.capability === 'video_generation' && r.run.status === 'processing')
				.map((r) => r.run.id);
			expect(runIds).toHaveLength(2);
			for (const id of runIds) {
				sandbox.services.runs.finishNow(id);
				await new Promise((r) => setTimeout(r, 5));
			}
			const secret = endpointSecret(endpoint.id);
			const bodies = runIds.map((id) => runCompleted(`evt_${id}`, sandbox.state.runs.get(id)!.run));
			const answers = await Promise.all(
				bodies.flatMap((body) =>
					Array.from({ length: 20 }, () => deliver(endpoint.url, secret, body)),
				),
			);
			const done = await eventually(
				'the resumed execution',
				async () =>
					(await executions(created.id)).find((e) => e.id === paused.id && e.status === 'success'),
				120_000,
			);
			const outputs = done.data!.resultData.runData.Make[0].data!.main[0];
			expect(outputs.map((i) => [i.json.status, i.binary?.data.mimeType])).toEqual([
				['completed', 'video/mp4'],
				['completed', 'video/mp4'],
			]);
			expect(answers.filter((a) => a.body.resumed === true)).toHaveLength(1);
			// the other copies: answered 200 by the node, or by n8n itself once the execution ran again
			const others = answers.filter((a) => a.body.resumed !== true);
			expect(
				others.every(
					(a) =>
						(a.status === 200 &&
							(a.body.ignored === 'resuming' || a.body.waiting_for !== undefined)) ||
						a.status === 409,
				),
			).toBe(true);
			const downloads = new Map<string, number>();
			for (const r of sandbox.state.requests)
				if (r.method === 'GET' && r.path.startsWith('/storage/files/'))
					downloads.set(r.path, (downloads.get(r.path) ?? 0) + 1);
			expect([...downloads.values()]).toEqual([1, 1]);
			expect((await executions(created.id)).filter((e) => e.id === paused.id)).toHaveLength(1);
			const label = (a: { status: number; body: Record<string, unknown> }) =>
				`${a.status} ${String(a.body.ignored ?? (a.body.waiting_for !== undefined ? 'waiting_for' : (a.body.message ?? '')))}`;
			const byStatus: Record<string, number> = {};
			for (const a of others) byStatus[label(a)] = (byStatus[label(a)] ?? 0) + 1;
			process.stderr.write(
				`[security] 40 deliveries to a paused execution: 1 resumed, others ${JSON.stringify(byStatus)}; downloads per file ${JSON.stringify([...downloads.values()])}\n`,
			);
		});

		it("refuses an output file whose host name resolves to a loopback address n8n's SSRF protection does not allow, without connecting", async () => {
			const created = await api<{ id: string }>(
				'/workflows',
				'POST',
				triggerWorkflow('Downloads behind SSRF protection', credential, 'ssrf-downloads', {
					downloadOutputs: true,
				}),
			);
			await api(`/workflows/${created.id}/activate`, 'POST');
			type StaticData = Record<string, { endpointId?: string }>;
			const endpointId = await eventually(
				'the endpoint',
				async () =>
					(await api<{ staticData?: StaticData }>(`/workflows/${created.id}`)).staticData?.[
						`node:${TRIGGER}`
					]?.endpointId,
			);
			const port = (files.address() as AddressInfo).port;
			const run = {
				id: 'run_ssrf',
				object: 'run',
				status: 'completed',
				capability: 'image_generation',
				output: { output_url: `https://${LOOPBACK_NAME}:${port}/a.png` },
			};
			expect(
				(
					await deliver(
						`${n8n!.url}/webhook/ssrf-downloads/webhook`,
						endpointSecret(endpointId),
						runCompleted('evt_ssrf', run),
					)
				).status,
			).toBe(200);
			const execution = await eventually('the execution', async () =>
				(await executions(created.id)).find((e) => e.status === 'success'),
			);
			const [item] = execution.data!.resultData.runData[TRIGGER][0].data!.main[0];
			expect(item.json.download_error).toEqual({
				code: 'download_refused',
				message: expect.stringContaining(
					"n8n's SSRF protection refused an output file of run run_ssrf",
				),
			});
			expect(item.binary).toBeUndefined();
			expect(fileConnections).toEqual([]);
		});
	},
);
