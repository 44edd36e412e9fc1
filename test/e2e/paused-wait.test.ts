/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// Wait Mode "Pause the Execution" in real n8n: an n8n and a sandbox of this test's own (n8n is
// stopped and started again while executions are paused; the sandbox's runs last 90 s). Events are
// delivered by the sandbox to n8n's resume URLs; forged ones are signed here with node:crypto.
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SANDBOX_ACCOUNT_ID, SANDBOX_API_KEY } from '../../sandbox/options';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { leftoverProbeUrl } from '../../src/webhooks/paused-endpoint';
import { eventually, publicApi, startOwnN8n, type OwnN8n } from './own-n8n-client';
import { describeWithN8n, readE2eState, type N8nItem } from './state';

const RUN_SECONDS = 90;
const ITEMS = 20;

interface Execution {
	id: string;
	status: string;
	waitTill?: string | null;
	data?: {
		resultData: {
			runData: Record<string, Array<{ startTime: number; data?: { main: N8nItem[][] } }>>;
			metadata?: Record<string, string>;
		};
		executionData?: { nodeExecutionStack: Array<{ data: { main: N8nItem[][] } }> };
	};
}

/** Webhook `path` → the nodes, one after another (positions and connections follow their order). */
function chain(
	name: string,
	path: string,
	nodes: Array<{ name: string } & Record<string, unknown>>,
) {
	const all = [
		{
			id: 'start',
			name: 'Start',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: path,
			parameters: { httpMethod: 'POST', path, responseMode: 'onReceived' },
		},
		...nodes,
	];
	return {
		name,
		nodes: all.map((node, i) => ({ ...node, position: [200 * i, 0] })),
		connections: Object.fromEntries(
			all
				.slice(1)
				.map((next, i) => [all[i].name, { main: [[{ node: next.name, type: 'main', index: 0 }]] }]),
		),
		settings: { executionOrder: 'v1' },
	};
}

/** Webhook → Code (`items` prompts, or the items a code gives) → Make → Done. */
function workflow(
	name: string,
	credential: { id: string; name: string },
	path: string,
	items: number | string,
	make: Record<string, unknown>,
) {
	const jsCode =
		typeof items === 'string'
			? items
			: `return Array.from({ length: ${items} }, (_, i) => ({ json: { prompt: 'shot ' + i } }));`;
	return chain(name, path, [
		{
			id: 'shots',
			name: 'Shots',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			parameters: { jsCode },
		},
		{ id: 'make', name: 'Make', typeVersion: 1, credentials: { mediaGenApi: credential }, ...make },
		{ id: 'done', name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
	]);
}

const videos = (options: Record<string, unknown> = {}) => ({
	type: 'CUSTOM.mediaGenVideo',
	parameters: {
		resource: 'video',
		operation: 'generate',
		prompt: '={{ $json.prompt }}',
		duration: 5,
		waitMode: 'parked',
		options,
	},
});

describeWithN8n(
	'Wait Mode "Pause the Execution" in real n8n (90 s runs, restart while paused, forged events, deadline, batches)',
	() => {
		const state = readE2eState();
		let n8n: OwnN8n | undefined;
		let sandbox: Sandbox;
		let userFolder: string;
		let apiKey = '';
		let credentialRef: { id: string; name: string };
		const api = <T>(path: string, method = 'GET', body?: unknown) =>
			publicApi<T>(n8n!, apiKey, path, method, body);
		const start = async (path: string) => {
			const res = await eventually(`the webhook ${path}`, async () => {
				const r = await fetch(`${n8n!.url}/webhook/${path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: '{}',
				});
				return r.status === 200 ? r : undefined;
			});
			expect(res.status).toBe(200);
		};
		const executionOf = async (workflowId: string) =>
			(await api<{ data: Execution[] }>(`/executions?workflowId=${workflowId}&includeData=true`))
				.data[0];
		const waiting = (workflowId: string) =>
			eventually(`a waiting execution of ${workflowId}`, async () =>
				(await executionOf(workflowId))?.status === 'waiting' ? executionOf(workflowId) : undefined,
			);
		const finished = (workflowId: string, timeoutMs: number) =>
			eventually(
				`execution of ${workflowId} to finish`,
				async () =>
					(await executionOf(workflowId))?.status === 'success'
						? executionOf(workflowId)
						: undefined,
				timeoutMs,
				1000,
			);
		const endpoints = () => sandbox.services.webhooks.listEndpoints(SANDBOX_ACCOUNT_ID);
		/** An execution of a new workflow whose one video run pauses it; runs that must not finish need a long sandbox latency. */
		const pausedExecution = async (name: string, path: string) => {
			const created = await api<{ id: string }>(
				'/workflows',
				'POST',
				workflow(name, credentialRef, path, 1, videos()),
			);
			await api(`/workflows/${created.id}/activate`, 'POST');
			await start(path);
			const paused = await waiting(created.id);
			const endpoint = endpoints().find((e) =>
				e.description?.includes(`n8n execution ${paused.id} `),
			)!;
			expect(endpoint.url).toMatch(
				new RegExp(`^${n8n!.url}/webhook-waiting/${paused.id}\\?signature=`),
			);
			return { executionId: paused.id, endpoint };
		};

		beforeAll(async () => {
			sandbox = await startSandbox({ latencyMs: RUN_SECONDS * 1000, webhookBackoffScale: 0.2 });
			userFolder = mkdtempSync(join(tmpdir(), 'mediagen-e2e-paused-'));
			n8n = await startOwnN8n(userFolder, state.extensionsDir, { setup: true });
			apiKey = n8n.apiKey!;
			credentialRef = await api<{ id: string; name: string }>('/credentials', 'POST', {
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

		it('pauses 20 items for their 90 s runs without polling, survives a restart, ignores forged and foreign events, resumes on the last event (latency printed)', async () => {
			const main = await api<{ id: string }>(
				'/workflows',
				'POST',
				workflow('Paused videos', credentialRef, 'paused-videos', ITEMS, videos()),
			);
			await api(`/workflows/${main.id}/activate`, 'POST');
			await start('paused-videos');
			const paused = await waiting(main.id);
			const pausedAt = Date.now();
			const runIds = paused.data!.executionData!.nodeExecutionStack[0].data.main[0].map((i) =>
				String(i.json.run_id),
			);
			expect(runIds).toHaveLength(ITEMS);
			expect(new Set(runIds).size).toBe(ITEMS);
			const endpoint = endpoints().find((e) =>
				e.description?.includes(`n8n execution ${paused.id} of workflow "Paused videos"`),
			)!;
			expect(endpoint.url).toMatch(
				new RegExp(`^${n8n!.url}/webhook-waiting/${paused.id}\\?signature=`),
			);
			// n8n keeps the node's state sealed: the endpoint's secret is nowhere in the execution
			const secret = (
				sandbox.services.webhooks as unknown as { endpoints: Map<string, { secret: string }> }
			).endpoints.get(endpoint.id)!.secret;
			expect(JSON.stringify(paused)).not.toContain(secret);

			// n8n stopped and started again while the execution is paused
			await n8n!.stop();
			n8n = await startOwnN8n(userFolder, state.extensionsDir, { port: n8n!.port });
			expect((await executionOf(main.id)).status).toBe('waiting');

			// a forged event: 401, still waiting
			const forgedBody = JSON.stringify({
				id: 'evt_forged',
				object: 'event',
				type: 'run.completed',
				created_at: new Date().toISOString(),
				data: { object: { id: runIds[0], object: 'run', status: 'completed' } },
			});
			const forged = await fetch(endpoint.url, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'X-Service-Signature': `sha256=${createHmac('sha256', 'whsec_not_it').update(forgedBody).digest('hex')}`,
				},
				body: forgedBody,
			});
			expect(forged.status).toBe(401);
			// another run of the account finishes: its signed event reaches the endpoint and is answered 200
			sandbox.state.options.latencyMs = 100;
			const other = (await (
				await fetch(`${sandbox.baseUrl}/images/generations`, {
					method: 'POST',
					headers: {
						authorization: `Bearer ${SANDBOX_API_KEY}`,
						'content-type': 'application/json',
						'idempotency-key': 'e2e-foreign-run',
					},
					body: '{"prompt":"not ours"}',
				})
			).json()) as { id: string };
			sandbox.state.options.latencyMs = RUN_SECONDS * 1000;
			const deliveries = () =>
				sandbox.services.webhooks
					.listDeliveries(SANDBOX_ACCOUNT_ID)
					.filter((d) => d.endpoint_id === endpoint.id);
			const foreign = await eventually('the foreign run delivered', async () =>
				deliveries().find((d) => d.run_id === other.id && d.status === 'success'),
			);
			expect(JSON.parse(foreign.response_body!)).toEqual({
				received: true,
				ignored: 'not_this_execution',
			});
			expect((await executionOf(main.id)).status).toBe('waiting');

			const done = await finished(main.id, 200_000);
			const outputs = done.data!.resultData.runData.Make[0].data!.main[0];
			expect(outputs.map((i) => i.json.id)).toEqual(runIds);
			expect(
				outputs.every(
					(i) => i.json.status === 'completed' && i.binary?.data.mimeType === 'video/mp4',
				),
			).toBe(true);
			expect(outputs.map((i) => i.pairedItem)).toEqual(
				runIds.map((_, item) => expect.objectContaining({ item })),
			);
			expect(done.data!.resultData.runData.Done[0].data!.main[0]).toHaveLength(ITEMS);
			expect(new Set(runIds.map((id) => sandbox.state.runs.get(id)!.idempotencyKey)).size).toBe(
				ITEMS,
			);
			expect(runIds.map((id) => sandbox.state.chargesFor(id).length)).toEqual(Array(ITEMS).fill(1));
			expect(endpoints().find((e) => e.id === endpoint.id)).toBeUndefined();

			// no poll while paused: nothing read the runs between the pause and the first of their events
			const ours = deliveries().filter((d) => runIds.includes(String(d.run_id)));
			const firstEvent = Math.min(...ours.map((d) => Date.parse(d.created_at)));
			const reads = sandbox.state.requests.filter(
				(r) => r.path.startsWith('/v1/runs') && r.at > pausedAt,
			);
			expect(reads.filter((r) => r.at < firstEvent)).toEqual([]);
			// after it: one list read per delivery of our runs at most, never one run at a time
			expect(reads.filter((r) => r.path !== '/v1/runs')).toEqual([]);
			// a delivery n8n did not answer within the service's 10 s (a loaded box) is tried again
			expect(reads.length).toBeLessThanOrEqual(ours.reduce((sum, d) => sum + d.attempt_count, 0));
			// the event of the run that finished last, and how long after it the execution resumed
			const last = runIds
				.map((id) => sandbox.state.runs.get(id)!.run)
				.sort((a, b) => Date.parse(String(b.completed_at)) - Date.parse(String(a.completed_at)))[0];
			const lastDelivery = ours.find((d) => d.run_id === last.id)!;
			const lastEvent = Date.parse(lastDelivery.created_at);
			const resumedAfterMs = done.data!.resultData.runData.Make[0].startTime - lastEvent;
			const attempts = ours.reduce((sum, d) => sum + d.attempt_count, 0);
			const answeredAfterMs =
				Date.parse(lastDelivery.last_attempt_at!) + lastDelivery.duration_ms! - lastEvent;
			process.stderr.write(
				`[paused-wait] resumed ${resumedAfterMs} ms after the last run's event (its delivery answered after ${answeredAfterMs} ms, attempt ${lastDelivery.attempt_count}); ${reads.length} list reads for ${ours.length} deliveries (${attempts} attempts)\n`,
			);
			// resumed by that event, not before it; how fast is a figure (README), not a pass mark: speed is
			// measured by the benchmark and by this print, never asserted by a timed test on a shared machine
			expect(resumedAfterMs).toBeGreaterThanOrEqual(0);
		});

		it('resumes at its deadline, without an event, with the wait_timeout items naming the runs; the endpoint stays recognisable', async () => {
			const short = await api<{ id: string }>(
				'/workflows',
				'POST',
				workflow(
					'Paused past its deadline',
					credentialRef,
					'paused-deadline',
					2,
					videos({ waitTimeout: 5 }),
				),
			);
			await api(`/workflows/${short.id}/activate`, 'POST');
			await start('paused-deadline');
			const pastDeadline = await waiting(short.id);
			const shortRuns = pastDeadline.data!.executionData!.nodeExecutionStack[0].data.main[0].map(
				(i) => String(i.json.run_id),
			);
			// n8n looks for due executions every minute
			const resumed = await finished(short.id, 150_000);
			expect(resumed.id).toBe(pastDeadline.id);
			const timeoutItems = resumed.data!.resultData.runData.Make[0].data!.main[0];
			expect(timeoutItems.map((i) => i.json)).toEqual(
				shortRuns.map((id) =>
					expect.objectContaining({
						code: 'wait_timeout',
						run_id: id,
						error: `Run ${id} did not finish within 5 s`,
					}),
				),
			);
			expect(timeoutItems.map((i) => i.pairedItem)).toEqual([
				expect.objectContaining({ item: 0 }),
				expect.objectContaining({ item: 1 }),
			]);
			expect(resumed.data!.resultData.runData.Done[0].data!.main[0]).toHaveLength(2);
			expect(shortRuns.map((id) => sandbox.state.runs.get(id)!.run.status)).toEqual([
				'processing',
				'processing',
			]);
			// no code ran at the deadline: the endpoint is still there, and its description says until when it was needed
			const left = endpoints().find((e) =>
				e.description?.includes(
					`n8n execution ${pastDeadline.id} of workflow "Paused past its deadline"`,
				),
			);
			expect(left?.description).toMatch(/resumes by \S+Z \[mediagen paused wait\]$/);
			expect(Date.parse(/resumes by (\S+Z)/.exec(left!.description!)![1])).toBeLessThan(Date.now());
		});

		it('pauses Create From Items and resumes on batch.completed, on batch.failed, and on the run event that ends a partial batch', async () => {
			sandbox.state.options.latencyMs = 3000;
			// the sandbox-only body flag sandbox_fail fails an item's run (docs/request-fields.md)
			const batch = (path: string, failing: number[]) =>
				workflow(
					`Paused batch ${path}`,
					credentialRef,
					path,
					`return Array.from({ length: 4 }, (_, i) => ({ json: { prompt: 'tile ' + i, ...(${JSON.stringify(failing)}.includes(i) ? { sandbox_fail: 'provider_error' } : {}) } }));`,
					{
						type: 'CUSTOM.mediaGenBatch',
						parameters: {
							resource: 'batch',
							operation: 'create',
							mode: 'operation',
							target: 'images/generations',
							itemBody: '={{ $json }}',
						},
					},
				);
			const cases = [
				{
					path: 'paused-batch',
					failing: [],
					batchStatus: 'completed',
					resumedOn: 'batch.completed',
				},
				{
					path: 'paused-failed',
					failing: [0, 1, 2, 3],
					batchStatus: 'failed',
					resumedOn: 'batch.failed',
				},
				// a partial batch sends no batch event: the run event that ends it resumes
				{
					path: 'paused-partial',
					failing: [1],
					batchStatus: 'partial',
					resumedOn: expect.stringMatching(/^run\./),
				},
			];
			for (const { path, failing, batchStatus, resumedOn } of cases) {
				const created = await api<{ id: string }>('/workflows', 'POST', batch(path, failing));
				await api(`/workflows/${created.id}/activate`, 'POST');
				await start(path);
				const paused = await waiting(created.id);
				const batchId = String(
					paused.data!.executionData!.nodeExecutionStack[0].data.main[0][0].json.batch_id,
				);
				const endpoint = endpoints().find((e) =>
					e.description?.includes(`n8n execution ${paused.id} `),
				)!;
				expect(endpoint.events).toEqual([
					'batch.completed',
					'batch.failed',
					'run.completed',
					'run.failed',
				]);
				const done = await finished(created.id, 60_000);
				const items = done.data!.resultData.runData.Make[0].data!.main[0];
				expect(items.map((i) => [i.json.batch_id, i.json.index, i.json.status])).toEqual(
					[0, 1, 2, 3].map((index) => [
						batchId,
						index,
						failing.includes(index) ? 'failed' : 'completed',
					]),
				);
				expect(new Set(items.map((i) => i.json.batch_status))).toEqual(new Set([batchStatus]));
				expect(
					items
						.filter((i) => i.json.status === 'completed')
						.every((i) => i.binary?.data.mimeType === 'image/png'),
				).toBe(true);
				const resumedBy = sandbox.services.webhooks
					.listDeliveries(SANDBOX_ACCOUNT_ID)
					.filter(
						(d) => d.endpoint_id === endpoint.id && d.response_body?.includes('"resumed":true'),
					);
				expect(resumedBy.map((d) => d.event_type)).toEqual([resumedOn]);
				expect(endpoints().find((e) => e.id === endpoint.id)).toBeUndefined();
			}
		});

		it('pauses the Use Batch API option of a generating operation and resumes on batch.completed with one image per item', async () => {
			sandbox.state.options.latencyMs = 3000;
			const created = await api<{ id: string }>(
				'/workflows',
				'POST',
				workflow('Paused Use Batch API', credentialRef, 'paused-batch-api', 3, {
					type: 'CUSTOM.mediaGenImage',
					parameters: {
						resource: 'image',
						operation: 'generate',
						prompt: '={{ $json.prompt }}',
						waitMode: 'parked',
						options: { useBatchApi: true },
					},
				}),
			);
			await api(`/workflows/${created.id}/activate`, 'POST');
			await start('paused-batch-api');
			const paused = await waiting(created.id);
			const stored = paused.data!.executionData!.nodeExecutionStack[0].data.main[0];
			expect(stored.map((i) => i.json.code)).toEqual([
				'wait_timeout',
				'wait_timeout',
				'wait_timeout',
			]);
			const batchId = String(stored[0].json.batch_id);
			expect(batchId).toMatch(/^batch_/);
			const endpoint = endpoints().find((e) =>
				e.description?.includes(`n8n execution ${paused.id} `),
			)!;
			const done = await finished(created.id, 60_000);
			const items = done.data!.resultData.runData.Make[0].data!.main[0];
			expect(
				items.map((i) => [i.json.batch_id, i.json.index, i.json.status, i.binary?.data.mimeType]),
			).toEqual([0, 1, 2].map((index) => [batchId, index, 'completed', 'image/png']));
			expect(items.map((i) => i.pairedItem)).toEqual(
				[0, 1, 2].map((item) => expect.objectContaining({ item })),
			);
			const resumedBy = sandbox.services.webhooks
				.listDeliveries(SANDBOX_ACCOUNT_ID)
				.filter(
					(d) => d.endpoint_id === endpoint.id && d.response_body?.includes('"resumed":true'),
				);
			expect(resumedBy.map((d) => d.event_type)).toEqual(['batch.completed']);
			expect(endpoints().find((e) => e.id === endpoint.id)).toBeUndefined();
		});

		it('removes the endpoints of executions cancelled or deleted while paused the next time the node pauses, asking n8n; a paused one keeps its endpoint', async () => {
			sandbox.state.options.latencyMs = 600_000;
			const unsignedPost = async (url: string) => {
				const res = await fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: '{}',
				});
				return { status: res.status, body: (await res.json()) as Record<string, unknown> };
			};
			const cancelled = await pausedExecution('Cancelled while paused', 'paused-cancelled');
			const deleted = await pausedExecution('Deleted while paused', 'paused-deleted');
			const live = await pausedExecution('Still paused', 'paused-live');

			await api(`/executions/${cancelled.executionId}/stop`, 'POST');
			await api(`/executions/${deleted.executionId}/stop`, 'POST');
			await api(`/executions/${deleted.executionId}`, 'DELETE');
			expect((await api<Execution>(`/executions/${cancelled.executionId}`)).status).toBe(
				'canceled',
			);
			// what n8n answers beside the resume URLs, where the cleanup asks (n8n adds a stacktrace outside production)
			expect(await unsignedPost(leftoverProbeUrl(cancelled.endpoint.url))).toEqual({
				status: 409,
				body: expect.objectContaining({
					code: 409,
					message: `The execution "${cancelled.executionId}" has finished with error.`,
				}),
			});
			expect(await unsignedPost(leftoverProbeUrl(deleted.endpoint.url))).toEqual({
				status: 404,
				body: expect.objectContaining({
					code: 404,
					message: `The execution "${deleted.executionId}" does not exist.`,
				}),
			});
			expect(await unsignedPost(leftoverProbeUrl(live.endpoint.url))).toEqual({
				status: 404,
				body: expect.objectContaining({
					code: 404,
					message: `The workflow for execution "${live.executionId}" does not contain a waiting webhook with a matching path/method.`,
				}),
			});
			// on the resume URL itself the paused node's webhook answers (an unsigned call: 401, still paused)
			expect((await unsignedPost(live.endpoint.url)).status).toBe(401);
			expect((await api<Execution>(`/executions/${live.executionId}`)).status).toBe('waiting');
			const ids = () => endpoints().map((e) => e.id);
			expect(ids()).toEqual(
				expect.arrayContaining([cancelled.endpoint.id, deleted.endpoint.id, live.endpoint.id]),
			);

			// the node pauses again (another execution): the leftovers are gone, the paused execution's endpoint stays
			const next = await pausedExecution('Pauses next', 'paused-next');
			expect(ids()).not.toContain(cancelled.endpoint.id);
			expect(ids()).not.toContain(deleted.endpoint.id);
			expect(ids()).toEqual(expect.arrayContaining([live.endpoint.id, next.endpoint.id]));
			expect((await api<Execution>(`/executions/${live.executionId}`)).status).toBe('waiting');
			await api(`/executions/${live.executionId}/stop`, 'POST');
			await api(`/executions/${next.executionId}/stop`, 'POST');
		});

		it("never resumes an execution waiting at n8n's Wait node (On Webhook Call, POST) when it asks n8n about a leftover endpoint with that execution's resume URL; the endpoint stays", async () => {
			sandbox.state.options.latencyMs = 600_000;
			/** Webhook → Resume URL (Edit Fields: `$execution.resumeUrl`) → Wait for call (Wait, On Webhook Call, POST) → Resumed */
			const waitingAtWaitNode = async (name: string, path: string) => {
				const created = await api<{ id: string }>(
					'/workflows',
					'POST',
					chain(name, path, [
						{
							id: 'url',
							name: 'Resume URL',
							type: 'n8n-nodes-base.set',
							typeVersion: 3.4,
							parameters: {
								mode: 'manual',
								assignments: {
									assignments: [
										{
											id: 'resume-url',
											name: 'resumeUrl',
											value: '={{ $execution.resumeUrl }}',
											type: 'string',
										},
									],
								},
								options: {},
							},
						},
						{
							id: 'wait',
							name: 'Wait for call',
							type: 'n8n-nodes-base.wait',
							typeVersion: 1.1,
							webhookId: randomUUID(),
							parameters: {
								resume: 'webhook',
								httpMethod: 'POST',
								responseMode: 'onReceived',
								options: {},
							},
						},
						{
							id: 'resumed',
							name: 'Resumed',
							type: 'n8n-nodes-base.noOp',
							typeVersion: 1,
							parameters: {},
						},
					]),
				);
				await api(`/workflows/${created.id}/activate`, 'POST');
				await start(path);
				const execution = await waiting(created.id);
				const resumeUrl = String(
					execution.data!.resultData.runData['Resume URL'][0].data!.main[0][0].json.resumeUrl,
				);
				expect(resumeUrl).toMatch(
					new RegExp(`^${n8n!.url}/webhook-waiting/${execution.id}\\?signature=`),
				);
				return { workflowId: created.id, name, executionId: execution.id, resumeUrl };
			};
			// n8n gives an execution one resume URL: an endpoint a MediaGen node registered while the
			// execution was paused names the URL on which the execution, now waiting at the Wait node,
			// resumes. Registered here as such a leftover (the description the node writes, a deadline to
			// come), for batch events only: no batch finishes in this test, so no delivery of the sandbox
			// reaches the Wait node, only what the cleanup sends.
			const leftover = async (of: {
				workflowId: string;
				name: string;
				executionId: string;
				resumeUrl: string;
			}) => {
				const deadline = new Date(Date.now() + 3_600_000).toISOString();
				const res = await fetch(`${sandbox.baseUrl}/webhooks`, {
					method: 'POST',
					headers: {
						authorization: `Bearer ${SANDBOX_API_KEY}`,
						'content-type': 'application/json',
					},
					body: JSON.stringify({
						url: of.resumeUrl,
						events: ['batch.completed', 'batch.failed'],
						description: `n8n execution ${of.executionId} of workflow "${of.name}" (${of.workflowId}), node "Make", paused until its runs finish; resumes by ${deadline} [mediagen paused wait]`,
					}),
				});
				expect(res.status).toBe(201);
				return ((await res.json()) as { id: string }).id;
			};
			const atWait = await waitingAtWaitNode('Waits at the Wait node', 'waits-at-wait-node');
			// the control: an execution deleted while waiting, whose leftover endpoint the cleanup must remove
			const gone = await waitingAtWaitNode(
				'Deleted while at the Wait node',
				'deleted-at-wait-node',
			);
			await api(`/executions/${gone.executionId}/stop`, 'POST');
			await api(`/executions/${gone.executionId}`, 'DELETE');
			const atWaitEndpoint = await leftover(atWait);
			const goneEndpoint = await leftover(gone);
			const ids = () => endpoints().map((e) => e.id);
			expect(ids()).toEqual(expect.arrayContaining([atWaitEndpoint, goneEndpoint]));

			// a MediaGen node pauses another execution: the cleanup runs before it registers its endpoint
			const next = await pausedExecution('Pauses after the Wait node', 'paused-after-wait-node');
			expect(ids()).not.toContain(goneEndpoint);
			expect(ids()).toContain(atWaitEndpoint);
			const atWaitNow = await executionOf(atWait.workflowId);
			expect([atWaitNow.id, atWaitNow.status]).toEqual([atWait.executionId, 'waiting']);
			expect(Object.keys(atWaitNow.data!.resultData.runData)).not.toContain('Resumed');
			expect(
				sandbox.services.webhooks
					.listDeliveries(SANDBOX_ACCOUNT_ID)
					.filter((d) => d.endpoint_id === atWaitEndpoint),
			).toEqual([]);

			// the execution still resumes on its URL, with the body it is sent, not with anything before it
			const call = await fetch(atWait.resumeUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ resumedBy: 'this test' }),
			});
			expect(call.status).toBe(200);
			const done = await finished(atWait.workflowId, 60_000);
			expect(done.id).toBe(atWait.executionId);
			expect(
				done.data!.resultData.runData.Resumed[0].data!.main[0].map((i) => i.json.body),
			).toEqual([{ resumedBy: 'this test' }]);
			sandbox.services.webhooks.deleteEndpoint(SANDBOX_ACCOUNT_ID, atWaitEndpoint);
			await api(`/executions/${next.executionId}/stop`, 'POST');
		});
	},
);
