/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// Replay protection of the MediaGen Trigger in real n8n, on an n8n and a sandbox of this test's own
// (n8n is stopped and started again). Deliveries are signed here with node:crypto from the secret the
// service issued (the node keeps it only sealed) — an implementation of the signature that shares no
// code with the package.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SANDBOX_API_KEY } from '../../sandbox/options';
import { makePng } from '../../sandbox/png';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { eventually, publicApi, startOwnN8n, type OwnN8n } from './own-n8n-client';
import { describeWithN8n, readE2eState } from './state';

const TRIGGER = 'Run Completed';

function triggerWorkflow(
	credential: { id: string; name: string },
	extra: Record<string, unknown> = {},
	webhookId = 'replay-protection',
) {
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

function signed(secret: string, event: Record<string, unknown>) {
	const body = JSON.stringify(event);
	const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
	return {
		body,
		headers: {
			'content-type': 'application/json',
			'X-Service-Signature': signature,
			'X-Service-Event': String(event.type),
		},
	};
}

function runCompleted(id: string, createdAt: Date, outputUrl: string) {
	return {
		id,
		object: 'event',
		type: 'run.completed',
		created_at: createdAt.toISOString(),
		data: {
			object: {
				id: `run_${id}`,
				object: 'run',
				status: 'completed',
				capability: 'image_generation',
				output: { output_url: outputUrl },
			},
		},
	};
}

describeWithN8n(
	'MediaGen Trigger replay protection in real n8n (defaults, repeats, restarts, slow downloads)',
	() => {
		const state = readE2eState();
		let n8n: OwnN8n | undefined;
		const afterAllCleanups: Array<() => void> = [];
		let slowFiles: Server;
		let slowFilesUrl = '';
		let sandbox: Sandbox;

		beforeAll(async () => {
			sandbox = await startSandbox({ latencyMs: 300 });
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
			await sandbox.close();
			for (const cleanup of afterAllCleanups) cleanup();
		});

		it('refuses stale events with empty Options, starts one execution per event id (also after a restart), and answers before a slow download', async () => {
			const userFolder = mkdtempSync(join(tmpdir(), 'mediagen-e2e-replay-'));
			afterAllCleanups.push(() => rmSync(userFolder, { recursive: true, force: true }));
			n8n = await startOwnN8n(userFolder, state.extensionsDir, { setup: true });
			const apiKey = n8n.apiKey!;
			// the same port after the restart: the trigger keeps its registered URL, as a real install does
			const start = async () =>
				(n8n = await startOwnN8n(userFolder, state.extensionsDir, { port: n8n!.port }));
			const api = <T>(path: string, method = 'GET', body?: unknown) =>
				publicApi<T>(n8n!, apiKey, path, method, body);
			const credential = await api<{ id: string; name: string }>('/credentials', 'POST', {
				name: 'MediaGen sandbox',
				type: 'mediaGenApi',
				data: {
					baseUrl: sandbox.baseUrl,
					apiKey: SANDBOX_API_KEY,
					allowedHttpRequestDomains: 'all',
				},
			});
			const created = await api<{ id: string }>('/workflows', 'POST', triggerWorkflow(credential));
			await api(`/workflows/${created.id}/activate`, 'POST');

			const staticDataOf = async (id = created.id) => {
				const workflow = await api<{
					staticData?: Record<string, { endpointId?: string; seenEvents?: Record<string, number> }>;
				}>(`/workflows/${id}`);
				return workflow.staticData?.[`node:${TRIGGER}`];
			};
			const endpointSecrets = (
				sandbox.services.webhooks as unknown as { endpoints: Map<string, { secret: string }> }
			).endpoints;
			/** the signing secret the service issued for the endpoint the node keeps */
			const secretOf = async (id = created.id) => {
				const endpointId = (await staticDataOf(id))?.endpointId;
				return endpointId ? endpointSecrets.get(endpointId)?.secret : undefined;
			};
			const secret = (await eventually(
				'the trigger to register its endpoint',
				async () => await secretOf(),
			))!;
			const webhookUrl = `${n8n!.url}/webhook/replay-protection/webhook`;
			const executions = async () =>
				(await api<{ data: unknown[] }>(`/executions?workflowId=${created.id}&limit=100`)).data
					.length;
			const deliver = async (event: Record<string, unknown>) => {
				const { body, headers } = signed(secret, event);
				const started = Date.now();
				const res = await fetch(webhookUrl, { method: 'POST', headers, body });
				return { status: res.status, ms: Date.now() - started, body: await res.text() };
			};

			// a correctly signed event older than the documented default (5 minutes) is refused
			const stale = await deliver(
				runCompleted('evt_stale', new Date(Date.now() - 10 * 60_000), slowFilesUrl),
			);
			expect(stale.status).toBe(401);
			expect(stale.body).toContain('stale_event');

			const fresh = runCompleted('evt_once', new Date(), slowFilesUrl);
			expect((await deliver(fresh)).status).toBe(200);
			await eventually('one execution', async () =>
				(await executions()) === 1 ? true : undefined,
			);
			const again = await deliver(fresh);
			expect(again.status).toBe(200);
			expect(again.body).toContain('repeated_event');
			expect(Object.keys((await staticDataOf())?.seenEvents ?? {})).toContain('evt_once');

			await n8n!.stop();
			await start();
			await eventually('the trigger to be active again', async () =>
				(await secretOf()) === secret ? true : undefined,
			);
			const afterRestart = await deliver(fresh);
			expect(afterRestart.status).toBe(200);
			expect(afterRestart.body).toContain('repeated_event');
			await new Promise((r) => setTimeout(r, 1500));
			expect(await executions()).toBe(1);

			// with Download Outputs, the delivery is answered before the 4 s download finishes
			const downloading = await api<{ id: string }>(
				'/workflows',
				'POST',
				triggerWorkflow(credential, { options: { downloadOutputs: true } }, 'download-outputs'),
			);
			await api(`/workflows/${downloading.id}/activate`, 'POST');
			const secret2 = (await eventually(
				'the second endpoint',
				async () => await secretOf(downloading.id),
			))!;
			const slow = signed(secret2, runCompleted('evt_slow', new Date(), slowFilesUrl));
			const t0 = Date.now();
			const answer = await fetch(`${n8n!.url}/webhook/download-outputs/webhook`, {
				method: 'POST',
				headers: slow.headers,
				body: slow.body,
			});
			expect(answer.status).toBe(200);
			expect(Date.now() - t0).toBeLessThan(1000);
			const withFile = await eventually('the execution with the downloaded file', async () => {
				const list = await api<{
					data: Array<{
						status: string;
						data?: {
							resultData: {
								runData: Record<
									string,
									Array<{
										data?: {
											main: Array<Array<{ binary?: Record<string, { mimeType: string }> }>>;
										};
									}>
								>;
							};
						};
					}>;
				}>(`/executions?workflowId=${downloading.id}&includeData=true&limit=100`);
				const done = list.data.find(
					(e) =>
						e.status === 'success' &&
						e.data?.resultData.runData[TRIGGER]?.[0]?.data?.main[0][0].binary,
				);
				return done;
			});
			expect(
				withFile.data!.resultData.runData[TRIGGER][0].data!.main[0][0].binary!.data.mimeType,
			).toBe('image/png');
		});
	},
);
