/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// n8n without a public address (issue 33) in real n8n: an n8n of this test's own whose webhook address
// (N8N_WEBHOOK_URL) is a .invalid host the sandbox cannot resolve, and a sandbox of its own that
// records its failed deliveries. n8n itself listens on 127.0.0.1, where the test starts workflows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SANDBOX_ACCOUNT_ID, SANDBOX_API_KEY } from '../../sandbox/options';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { callWebhook, eventually, publicApi, startOwnN8n, type OwnN8n } from './own-n8n-client';
import { describeWithN8n, readE2eState, webhookThenMake, type N8nItem } from './state';

const UNREACHABLE = 'http://n8n.office.invalid:5678/';
const RUN_SECONDS = 10;
const POLLED_RUNS = 20;
/** The browser id the owner's session cookie is bound to (test/n8n-host/n8n.mjs logs in with it). */
const BROWSER_ID = 'mediagen-n8n-host';

interface Execution {
	id: string;
	status: string;
	startedAt: string;
	stoppedAt?: string | null;
	data?: {
		resultData: {
			runData: Record<
				string,
				Array<{ hints?: Array<{ message: string }>; data?: { main: N8nItem[][] } }>
			>;
		};
	};
}

describeWithN8n(
	'n8n whose webhook address the service cannot reach (.invalid): no pause, polling events, activation refused',
	() => {
		const state = readE2eState();
		let n8n: OwnN8n | undefined;
		let sandbox: Sandbox;
		let userFolder: string;
		let apiKey = '';
		let cookie: string | undefined;
		let credential: { id: string; name: string };
		const api = <T>(path: string, method = 'GET', body?: unknown) =>
			publicApi<T>(n8n!, apiKey, path, method, body);
		const executionsOf = async (workflowId: string) =>
			(
				await api<{ data: Execution[] }>(
					`/executions?workflowId=${workflowId}&includeData=true&limit=100`,
				)
			).data;
		const startN8n = async (port?: number) =>
			await startOwnN8n(userFolder, state.extensionsDir, {
				setup: port === undefined,
				port,
				env: { N8N_WEBHOOK_URL: UNREACHABLE },
			});
		let submitted = 0;
		const submitImage = async (latencyMs: number) => {
			sandbox.state.options.latencyMs = latencyMs;
			const res = await fetch(`${sandbox.baseUrl}/images/generations`, {
				method: 'POST',
				headers: {
					authorization: `Bearer ${SANDBOX_API_KEY}`,
					'content-type': 'application/json',
					'idempotency-key': `e2e-poll-${process.pid}-${++submitted}`,
				},
				body: JSON.stringify({ prompt: `picture ${submitted}`, model: 'image.aurora-2' }),
			});
			return String(((await res.json()) as { id: string }).id);
		};

		beforeAll(async () => {
			sandbox = await startSandbox({ latencyMs: RUN_SECONDS * 1000, webhookBackoffScale: 0.05 });
			userFolder = mkdtempSync(join(tmpdir(), 'mediagen-e2e-no-public-'));
			n8n = await startN8n();
			apiKey = n8n.apiKey!;
			cookie = n8n.cookie;
			credential = await api<{ id: string; name: string }>('/credentials', 'POST', {
				name: 'MediaGen sandbox',
				type: 'mediaGenApi',
				data: {
					baseUrl: sandbox.baseUrl,
					apiKey: SANDBOX_API_KEY,
					allowedHttpRequestDomains: 'all',
				},
			});
		});
		afterAll(async () => {
			await n8n?.stop();
			await sandbox.close();
			rmSync(userFolder, { recursive: true, force: true });
		});

		it('Video → Generate with the default Wait Mode delivers the video within 60 s of its run finishing, and says why it did not pause', async () => {
			const path = 'video-no-public';
			const workflow = await api<{ id: string }>(
				'/workflows',
				'POST',
				webhookThenMake('Video behind NAT', path, {
					type: 'CUSTOM.mediaGenVideo',
					typeVersion: 1,
					credentials: { mediaGenApi: credential },
					parameters: {
						resource: 'video',
						operation: 'generate',
						prompt: 'a fox at dawn',
						duration: 5,
					},
				}),
			);
			await api(`/workflows/${workflow.id}/activate`, 'POST');
			await callWebhook(n8n!.url, path);
			const done = await eventually(
				'the execution to finish',
				async () =>
					(await executionsOf(workflow.id)).find(
						(e) => e.status === 'success' || e.status === 'error',
					),
				120_000,
				1000,
			);
			expect(done.status).toBe('success');
			const [make] = done.data!.resultData.runData.Make;
			// node version 1: the run as the service returns it
			const item = make.data!.main[0][0].json as { status: string; id: string };
			expect(item.status).toBe('completed');
			const run = sandbox.state.runs.get(item.id)!.run as unknown as { completed_at: string };
			const afterRunMs = Date.parse(done.stoppedAt!) - Date.parse(run.completed_at);
			process.stderr.write(
				`[no-public-address] the video reached the workflow ${(afterRunMs / 1000).toFixed(1)} s after its run finished (run ${RUN_SECONDS} s)\n`,
			);
			expect(afterRunMs).toBeLessThanOrEqual(60_000);
			expect(make.hints?.map((h) => h.message)).toEqual(
				expect.arrayContaining([
					expect.stringContaining(
						'Waited in this execution instead of pausing it: the service cannot reach this n8n at n8n.office.invalid',
					),
				]),
			);
			// never paused: no endpoint was registered for a resume URL
			expect(sandbox.services.webhooks.listEndpoints(SANDBOX_ACCOUNT_ID)).toEqual([]);
		});

		it('publishing the webhook MediaGen Trigger fails with the reason and the remedy', async () => {
			const workflow = await api<{ id: string }>('/workflows', 'POST', {
				name: 'Webhook trigger behind NAT',
				nodes: [
					{
						id: 'trigger',
						name: 'MediaGen Trigger',
						type: 'CUSTOM.mediaGenTrigger',
						typeVersion: 2,
						webhookId: 'e2e-unreachable-trigger',
						position: [0, 0],
						credentials: { mediaGenApi: credential },
						parameters: { events: ['run.completed'] },
					},
				],
				connections: {},
				settings: { executionOrder: 'v1' },
			});
			// n8n 2.41 publishes asynchronously (its publication service): the answer is 200, and the trigger's
			// error is the workflow's publication status, which the editor shows
			await api(`/workflows/${workflow.id}/activate`, 'POST');
			const status = await eventually(
				'the publication status',
				async () => {
					const res = await fetch(`${n8n!.url}/rest/workflows/${workflow.id}/publication-status`, {
						headers: { cookie: cookie!, 'browser-id': BROWSER_ID },
					});
					const body = (await res.json()) as {
						data?: { status: string; triggers: Array<{ status: string; errorMessage?: string }> };
					};
					return body.data?.status === 'failed' ? body.data : undefined;
				},
				90_000,
				1000,
			);
			process.stderr.write(
				`[no-public-address] publication status: ${JSON.stringify(status).slice(0, 400)}\n`,
			);
			expect(status.triggers.map((t) => [t.status, t.errorMessage])).toEqual([
				[
					'failed',
					"MediaGen cannot send events to this n8n at n8n.office.invalid (rule reserved_name): set n8n's WEBHOOK_URL to an address the service can reach (a public address or a tunnel), or use MediaGen Polling Trigger",
				],
			]);
			expect(sandbox.services.webhooks.listEndpoints(SANDBOX_ACCOUNT_ID)).toEqual([]);
		});

		it('MediaGen Polling Trigger: 20 runs, a restart between polls, each finished run in one execution item once, none missed (latency printed)', async () => {
			const workflow = await api<{ id: string }>('/workflows', 'POST', {
				name: 'Polled renders',
				nodes: [
					{
						id: 'poll',
						name: 'MediaGen Polling Trigger',
						type: 'CUSTOM.mediaGenPollingTrigger',
						typeVersion: 1,
						position: [0, 0],
						credentials: { mediaGenApi: credential },
						parameters: {
							pollTimes: { item: [{ mode: 'everyMinute' }] },
							events: ['run.completed', 'run.failed'],
						},
					},
					{
						id: 'done',
						name: 'Done',
						type: 'n8n-nodes-base.noOp',
						typeVersion: 1,
						position: [200, 0],
						parameters: {},
					},
				],
				connections: {
					'MediaGen Polling Trigger': { main: [[{ node: 'Done', type: 'main', index: 0 }]] },
				},
				settings: { executionOrder: 'v1' },
			});
			const before = await submitImage(0);
			await eventually('the run before activation', async () =>
				sandbox.state.runs.get(before)?.run.status === 'completed' ? true : undefined,
			);
			await api(`/workflows/${workflow.id}/activate`, 'POST');
			// n8n publishes asynchronously: runs that finished before its first poll (the baseline) are not passed on
			await eventually(
				'the baseline poll',
				async () =>
					(
						await api<{ staticData?: Record<string, { runs?: unknown }> }>(
							`/workflows/${workflow.id}`,
						)
					).staticData?.['node:MediaGen Polling Trigger']?.runs
						? true
						: undefined,
				60_000,
				500,
			);
			const runs: string[] = [];
			for (let i = 0; i < POLLED_RUNS / 2; i++) runs.push(await submitImage((i % 5) * 20_000));
			// at least one poll sees some finished, some not
			await eventually(
				'a first polled execution',
				async () => ((await executionsOf(workflow.id)).length > 0 ? true : undefined),
				90_000,
				2000,
			);
			const port = n8n!.port;
			await n8n!.stop();
			n8n = await startN8n(port);
			for (let i = 0; i < POLLED_RUNS / 2; i++) runs.push(await submitImage((i % 3) * 15_000));
			const itemsOf = (executions: Execution[]) =>
				executions.flatMap((e) =>
					(e.data?.resultData.runData['MediaGen Polling Trigger']?.[0]?.data?.main[0] ?? []).map(
						(item) => ({ item, execution: e }),
					),
				);
			const all = await eventually(
				'every run passed on',
				async () => {
					const executions = await executionsOf(workflow.id);
					const items = itemsOf(executions);
					process.stderr.write(
						`[no-public-address] ${new Date().toISOString()}: ${executions.length} polled executions, ${items.length} items\n`,
					);
					return items.length >= POLLED_RUNS ? items : undefined;
				},
				300_000,
				10_000,
			);
			const ids = all.map(({ item }) => String(item.json.run_id));
			expect(ids).not.toContain(before);
			expect([...ids].sort()).toEqual([...runs].sort());
			const latencies = all.map(
				({ item, execution }) =>
					(Date.parse(execution.startedAt) -
						Date.parse(
							String(sandbox.state.runs.get(String(item.json.run_id))!.run.completed_at),
						)) /
					1000,
			);
			process.stderr.write(
				`[no-public-address] ${all.length} runs in ${new Set(all.map((a) => a.execution.id)).size} executions; from a run finishing to its execution starting: min ${Math.min(...latencies).toFixed(1)} s, max ${Math.max(...latencies).toFixed(1)} s (poll every minute, one n8n restart)\n`,
			);
		}, 600_000);
	},
);
