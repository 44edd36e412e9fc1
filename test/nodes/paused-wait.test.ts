/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { createHash, createHmac } from 'node:crypto';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { MediaGenBatch } from '../../nodes/MediaGenBatch/MediaGenBatch.node';
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenVideo } from '../../nodes/MediaGenVideo/MediaGenVideo.node';
import { PAUSED_WAIT_TIMEOUTS } from '../../src/catalog';
import {
	SANDBOX_ACCOUNT_ID,
	SANDBOX_API_KEY,
	SANDBOX_EMPTY_POOL_TEAM_ID,
} from '../../sandbox/options';
import { binaryBytes, runNode } from '../helpers/n8n-harness';
import { PausedExecutionHost } from '../helpers/paused-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';

const video = new MediaGenVideo();
const image = new MediaGenImage();

const shots = (n: number) =>
	Array.from({ length: n }, (_, i) => ({ json: { prompt: `shot ${i}` } }));
const generate: IDataObject = {
	resource: 'video',
	operation: 'generate',
	prompt: '={{ $json.prompt }}',
	duration: 5,
};

let executionCounter = 0;
const nextExecutionId = () => `paused-${process.pid}-${++executionCounter}`;

/** An item with what differs between two runs of the same request (ids, times, signed URLs) blanked. */
async function comparable(item: INodeExecutionData) {
	const json = JSON.parse(
		JSON.stringify(item.json)
			.replace(/(run|req|evt|whe|batch|bitem|prov)_[A-Za-z0-9_-]+/g, '<id>')
			.replace(/"\d{4}-\d{2}-\d{2}T[^"]+"/g, '"<time>"')
			.replace(/http:\/\/127\.0\.0\.1:\d+\/[^"]*/g, '<url>'),
	) as IDataObject;
	const binary: IDataObject = {};
	for (const [key, data] of Object.entries(item.binary ?? {})) {
		binary[key] = {
			mimeType: data.mimeType,
			fileExtension: data.fileExtension,
			sha256: createHash('sha256')
				.update(await binaryBytes(data))
				.digest('hex'),
		};
	}
	return { json, binary, pairedItem: item.pairedItem };
}

describe('Wait Mode "Pause the Execution" in n8n-core (the sandbox delivers to a stand-in of n8n\'s waiting webhook)', () => {
	let fx: Fixture;
	let host: PausedExecutionHost;
	beforeEach(async () => {
		fx = await startFixture({ latencyMs: 1500, webhookBackoffScale: 0.01 });
		host = await PausedExecutionHost.start();
	});
	afterEach(async () => {
		await fx.sandbox.close();
		await host.close();
	});

	const endpoints = () => fx.sandbox.services.webhooks.listEndpoints(SANDBOX_ACCOUNT_ID);
	const secretOf = (id: string) =>
		(
			fx.sandbox.services.webhooks as unknown as { endpoints: Map<string, { secret: string }> }
		).endpoints.get(id)!.secret;
	const api = async (method: string, path: string, body?: unknown) => {
		const res = await fetch(`${fx.sandbox.baseUrl}${path}`, {
			method,
			headers: {
				authorization: `Bearer ${SANDBOX_API_KEY}`,
				'content-type': 'application/json',
				'idempotency-key': `test-${Math.random()}`,
			},
			body: body ? JSON.stringify(body) : undefined,
		});
		return (await res.json()) as IDataObject;
	};

	const hintsOf = (run: {
		run: {
			data: {
				resultData: { runData: Record<string, Array<{ hints?: Array<{ message: string }> }>> };
			};
		};
	}) => (run.run.data.resultData.runData.MediaGen?.[0]?.hints ?? []).map((h) => h.message);

	it("pauses, reads nothing while paused, ignores a forged event and another run's, and resumes on the last run's event with the in-execution items", async () => {
		const executionId = nextExecutionId();
		const paused = await host.run({
			nodeType: video,
			credentials: fx.credentials,
			parameters: { ...generate, waitMode: 'parked' },
			input: shots(3),
			executionId,
			workflowId: 'wf-paused',
		});
		const pausedAt = Date.now();
		expect(paused.error).toBeUndefined();
		expect(paused.run.status).toBe('waiting');
		// no Wait Timeout set: the operation's paused deadline from the catalog (2 h for video), not the in-execution 600 s
		const deadlineMs = PAUSED_WAIT_TIMEOUTS.video * 1000;
		expect(paused.run.waitTill!.getTime()).toBeGreaterThan(pausedAt + deadlineMs - 10_000);
		expect(paused.run.waitTill!.getTime()).toBeLessThanOrEqual(pausedAt + deadlineMs);
		// while paused, the node shows what it waits for, in its items and in its output pane (an execution hint)
		expect(paused.items.map((i) => i.json.status)).toEqual(['waiting', 'waiting', 'waiting']);
		const waitingFor = paused.items.map((i) => String(i.json.run_id)).join(', ');
		const by = `${paused.run.waitTill!.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
		expect(hintsOf(paused)).toEqual([
			`Paused until MediaGen finishes 3 runs (${waitingFor}): the execution continues by itself when the service reports them finished, at the latest at ${by} (Wait Timeout). Meanwhile it is listed as Waiting under Executions and holds no worker.`,
		]);

		const [endpoint] = endpoints();
		expect(endpoints()).toHaveLength(1);
		expect(endpoint.url).toBe(`${host.baseUrl}/${executionId}`);
		expect(endpoint.events).toEqual(['run.completed', 'run.failed']);
		expect(endpoint.description).toContain(
			`n8n execution ${executionId} of workflow "test" (wf-paused), node "MediaGen"`,
		);
		expect(endpoint.description).toContain(`resumes by ${paused.run.waitTill!.toISOString()}`);

		// what n8n stores: the deadline's items as the node's input, the sealed state in custom data
		const stored = host.storedData(executionId);
		const storedItems = stored.executionData!.nodeExecutionStack[0].data.main[0]!;
		const runIds = paused.items.map((i) => String(i.json.run_id));
		expect(storedItems.map((i) => i.json)).toEqual(
			runIds.map((id) =>
				expect.objectContaining({
					code: 'wait_timeout',
					run_id: id,
					error: `Run ${id} did not finish within ${PAUSED_WAIT_TIMEOUTS.video} s`,
				}),
			),
		);
		expect(storedItems.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(Object.keys(stored.resultData.metadata ?? {})).toEqual([
			expect.stringMatching(/^mediagen_wait_[0-9a-f]{16}$/),
		]);
		expect(JSON.stringify(stored)).not.toContain(secretOf(endpoint.id));

		// a forged delivery: 401, still paused
		const forgedBody = JSON.stringify({
			id: 'evt_forged',
			object: 'event',
			type: 'run.completed',
			created_at: new Date().toISOString(),
			data: { object: { id: runIds[0], status: 'completed' } },
		});
		const forged = await fetch(endpoint.url, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'X-Service-Signature': `sha256=${createHmac('sha256', 'not the secret').update(forgedBody).digest('hex')}`,
			},
			body: forgedBody,
		});
		expect(forged.status).toBe(401);
		expect(await forged.json()).toEqual({ error: 'unauthorized', reason: 'signature_mismatch' });

		// another run of the account finishes first: its event reaches the endpoint and changes nothing
		fx.sandbox.state.options.latencyMs = 50;
		const other = await api('POST', '/images/generations', { prompt: 'someone else' });
		await new Promise((r) => setTimeout(r, 400));
		expect(
			host.deliveries.find((d) => (d.body as IDataObject).ignored === 'not_this_execution'),
		).toBeDefined();
		expect(host.status(executionId)).toBe('waiting');
		expect(fx.sandbox.state.runs.get(String(other.id))!.run.status).toBe('completed');

		const resumed = await host.finished(executionId);
		const firstOwnDelivery = host.deliveries.find(
			(d) => d.status === 200 && (d.body as IDataObject).ignored === undefined,
		)!;
		// no run was read between pausing and the first event about its runs (no polling)
		expect(
			fx.sandbox.state.requests.filter(
				(r) => r.path.startsWith('/v1/runs') && r.at >= pausedAt && r.at < firstOwnDelivery.at,
			),
		).toEqual([]);
		// one delivery resumed it (the last run's), after a single read of the list per delivery
		expect(host.deliveries.filter((d) => d.resumed)).toHaveLength(1);
		expect(
			fx.sandbox.state.requests.filter(
				(r) => r.method === 'GET' && /^\/v1\/runs\/run_/.test(r.path) && r.at >= pausedAt,
			),
		).toEqual([]);
		expect(endpoints()).toEqual([]);

		expect(resumed.error).toBeUndefined();
		expect(resumed.items.map((i) => i.json.id)).toEqual(runIds);
		// resumed, the node's run is the finished one: the pause's hint is gone with the pause's items
		expect(hintsOf(resumed)).toEqual([]);
		const inExecution = await runNode({
			nodeType: video,
			credentials: fx.credentials,
			parameters: { ...generate, waitMode: 'inExecution' },
			input: shots(3),
		});
		expect(await Promise.all(resumed.items.map(comparable))).toEqual(
			await Promise.all(inExecution.items.map(comparable)),
		);
		for (const id of runIds) expect(fx.sandbox.state.chargesFor(id)).toHaveLength(1);
	});

	it('Simplify (version 2): resumes with the same simplified items as the in-execution wait', async () => {
		const executionId = nextExecutionId();
		const paused = await host.run({
			nodeType: video,
			credentials: fx.credentials,
			parameters: { ...generate, waitMode: 'parked' },
			input: shots(2),
			executionId,
			typeVersion: 2,
		});
		expect(paused.run.status).toBe('waiting');
		const resumed = await host.finished(executionId);
		expect(resumed.error).toBeUndefined();
		expect(resumed.items.map((i) => [i.json.prompt, i.json.status, i.json.id])).toEqual([
			['shot 0', 'completed', undefined],
			['shot 1', 'completed', undefined],
		]);
		const inExecution = await runNode({
			nodeType: video,
			credentials: fx.credentials,
			parameters: { ...generate, waitMode: 'inExecution' },
			input: shots(2),
			typeVersion: 2,
		});
		expect(await Promise.all(resumed.items.map(comparable))).toEqual(
			await Promise.all(inExecution.items.map(comparable)),
		);
	});

	it('resumes at the deadline with the in-execution timeout items, naming their runs (no node code runs then)', async () => {
		fx.sandbox.state.options.latencyMs = 60_000;
		const executionId = nextExecutionId();
		// Wait Mode at its default (paused for video), as a saved workflow stores it: the Wait Timeout set is kept
		const parameters = { ...generate, options: { waitTimeout: 2 } };
		const paused = await host.run({
			nodeType: video,
			credentials: fx.credentials,
			parameters,
			input: shots(2),
			executionId,
			settings: { onError: 'continueRegularOutput' },
		});
		expect(paused.run.status).toBe('waiting');
		const requests = fx.sandbox.state.requests.length;
		const atDeadline = await host.deadline(executionId);
		expect(fx.sandbox.state.requests.length).toBe(requests);
		const runIds = paused.items.map((i) => String(i.json.run_id));

		const inExecution = await runNode({
			nodeType: video,
			credentials: fx.credentials,
			parameters: { ...parameters, waitMode: 'inExecution' },
			input: shots(2),
			settings: { onError: 'continueRegularOutput' },
		});
		expect(atDeadline.items.map((i) => i.json)).toEqual(
			runIds.map((id) => expect.objectContaining({ code: 'wait_timeout', run_id: id })),
		);
		expect(await Promise.all(atDeadline.items.map(comparable))).toEqual(
			await Promise.all(inExecution.items.map(comparable)),
		);
	});

	it('names the deadline it waited for in every timeout item, also where items set different Wait Timeouts (the longest is the deadline)', async () => {
		fx.sandbox.state.options.latencyMs = 60_000;
		const executionId = nextExecutionId();
		const parameters = { ...generate, options: { waitTimeout: '={{ $itemIndex === 0 ? 2 : 3 }}' } };
		const paused = await host.run({
			nodeType: video,
			credentials: fx.credentials,
			parameters,
			input: shots(2),
			executionId,
			settings: { onError: 'continueRegularOutput' },
		});
		expect(paused.run.status).toBe('waiting');
		const atDeadline = await host.deadline(executionId);
		expect(atDeadline.items.map((i) => i.json.error)).toEqual(
			paused.items.map((i) => `Run ${String(i.json.run_id)} did not finish within 3 s`),
		);
	});

	it('waits in the execution instead, saying why, where nothing could resume it or the service cannot call back', async () => {
		// n8n execute (cli): the process ends with the workflow
		const cli = await host.run({
			nodeType: video,
			credentials: fx.credentials,
			parameters: { ...generate, waitMode: 'parked' },
			input: shots(1),
			executionId: nextExecutionId(),
			mode: 'cli',
		});
		expect(cli.run.status).not.toBe('waiting');
		expect(cli.items[0].json.status).toBe('completed');
		expect(hintsOf(cli)).toEqual([
			expect.stringContaining('n8n execute (the command line)'),
			'Charged 30 credits for 1 run.',
		]);

		// a key without webhooks:write: the endpoint cannot be registered (the runs were sent and are waited for here)
		const narrow = fx.sandbox.state.createApiKey(
			['models:read', 'runs:read', 'videos:write', 'webhooks:read'],
			'no webhooks:write',
		);
		fx.credentials.set('mediaGenApi', { baseUrl: fx.sandbox.baseUrl, apiKey: narrow });
		const noScope = await host.run({
			nodeType: video,
			credentials: fx.credentials,
			parameters: { ...generate, waitMode: 'parked' },
			input: shots(2),
			executionId: nextExecutionId(),
		});
		expect(noScope.run.status).not.toBe('waiting');
		expect(noScope.items.map((i) => i.json.status)).toEqual(['completed', 'completed']);
		expect(hintsOf(noScope)).toEqual([
			expect.stringContaining('insufficient_scope); the credential needs the webhooks:write scope'),
			'Charged 60 credits for 2 runs.',
		]);
		expect(endpoints()).toEqual([]);
	});

	it('does not pause when every run finished before its endpoint existed (their events never reach it), and removes that endpoint', async () => {
		fx.sandbox.state.options.latencyMs = 0;
		// the submits are slowed so that the runs finish before the endpoint is registered
		fx.sandbox.injectFault({
			when: 'before',
			method: 'POST',
			path: '/webhooks',
			delayMs: 300,
			count: 1,
		});
		const done = await host.run({
			nodeType: video,
			credentials: fx.credentials,
			parameters: { ...generate, waitMode: 'parked' },
			input: shots(2),
			executionId: nextExecutionId(),
		});
		expect(done.run.status).not.toBe('waiting');
		expect(done.items.map((i) => i.json.status)).toEqual(['completed', 'completed']);
		expect(fx.sandbox.state.countRequests('POST', '/v1/webhooks')).toBe(1);
		expect(endpoints()).toEqual([]);
	});

	it('with Max Credits, each resumed item carries what its run was charged and what the node quoted before pausing', async () => {
		const executionId = nextExecutionId();
		const parameters = { ...generate, waitMode: 'parked', options: { maxCredits: 100 } };
		const paused = await host.run({
			nodeType: video,
			credentials: fx.credentials,
			parameters,
			input: shots(2),
			executionId,
		});
		expect(paused.run.status).toBe('waiting');
		const resumed = await host.finished(executionId);
		expect(resumed.error).toBeUndefined();
		expect(
			resumed.items.map((i) => [(i.json.usage as IDataObject).credits, i.json.quoted_credits]),
		).toEqual([
			[30, 30],
			[30, 30],
		]);
		for (const item of resumed.items)
			expect(fx.sandbox.state.chargesFor(String(item.json.id))).toEqual([
				expect.objectContaining({ credits: 30 }),
			]);
	});

	it('reports a run that failed while paused as an error item with its code (a resumed node cannot stop the workflow)', async () => {
		const executionId = nextExecutionId();
		// the second run is billed to a workspace with an empty pool: it fails team_pool_insufficient
		const input = [
			{ json: { prompt: 'fine', team: '' } },
			{ json: { prompt: 'broken', team: SANDBOX_EMPTY_POOL_TEAM_ID } },
		];
		const parameters = {
			...generate,
			waitMode: 'parked',
			options: { teamId: '={{ $json.team }}' },
		};
		const paused = await host.run({
			nodeType: video,
			credentials: fx.credentials,
			parameters,
			input,
			executionId,
		});
		expect(paused.run.status).toBe('waiting');
		const resumed = await host.finished(executionId);
		expect(resumed.error).toBeUndefined();
		expect(resumed.items[0].json.status).toBe('completed');
		expect(resumed.items[1].json).toEqual(
			expect.objectContaining({
				code: 'team_pool_insufficient',
				run_id: paused.items[1].json.run_id,
			}),
		);
		expect(resumed.items[1].pairedItem).toEqual(expect.objectContaining({ item: 1 }));
	});

	it("removes the endpoints this n8n says no execution waits on (cancelled, deleted, finished) or whose deadline passed, never a live one or another n8n's", async () => {
		const register = (url: string, deadline: Date) =>
			api('POST', '/webhooks', {
				url,
				events: ['run.completed'],
				description: `n8n execution 1 of workflow "old" (wf), node "x", paused until its runs finish; resumes by ${deadline.toISOString()} [mediagen paused wait]`,
			});
		const hourAgo = new Date(Date.now() - 3600_000);
		const inAnHour = new Date(Date.now() + 3600_000);
		const pausedWith = async () => {
			const executionId = nextExecutionId();
			await host.run({
				nodeType: video,
				credentials: fx.credentials,
				parameters: generate,
				input: shots(1),
				executionId,
			});
			expect(host.status(executionId)).toBe('waiting');
			return {
				executionId,
				endpoint: endpoints().find((e) => e.url === `${host.baseUrl}/${executionId}`)!,
			};
		};
		const cancelled = await pausedWith();
		const live = await pausedWith();
		const finished = await pausedWith();
		const expired = await register(`${host.baseUrl}/gone-1?signature=abc`, hourAgo);
		const deleted = await register(`${host.baseUrl}/gone-2?signature=abc`, inAnHour);
		const elsewhere = await register('http://other-n8n.example/webhook-waiting/7', hourAgo);
		const left = () => endpoints().map((e) => e.id);
		expect(left()).toEqual(
			expect.arrayContaining([
				expired.id,
				deleted.id,
				elsewhere.id,
				cancelled.endpoint.id,
				live.endpoint.id,
				finished.endpoint.id,
			]),
		);
		host.cancel(cancelled.executionId);
		// resumed at its deadline: no node code runs then, its endpoint stays behind
		await host.deadline(finished.executionId);
		expect(host.status(finished.executionId)).toBe('done');
		expect(left()).toContain(finished.endpoint.id);

		const deliveriesBefore = host.deliveries.length;
		const next = await pausedWith();
		expect(left().sort()).toEqual([elsewhere.id, live.endpoint.id, next.endpoint.id].sort());
		// n8n was asked about the three whose deadline has not passed, and said who still waits
		const probes = host.deliveries.slice(deliveriesBefore);
		expect(probes.map((d) => [d.executionId, d.status]).sort()).toEqual(
			[
				['gone-2', 404],
				[cancelled.executionId, 409],
				[finished.executionId, 409],
				[live.executionId, 404],
			].sort(),
		);
		// asked beside the resume URL, never on it: the paused node's webhook did not run (an execution
		// waiting at another node, e.g. a Wait node resumed by a POST, would have been resumed)
		expect(probes.find((d) => d.executionId === live.executionId)!.body).toEqual(
			expect.objectContaining({
				message: expect.stringContaining('does not contain a waiting webhook'),
			}),
		);
		expect(host.status(live.executionId)).toBe('waiting');
		fx.sandbox.state.options.latencyMs = 50;
		await host.finished(live.executionId);
		await host.finished(next.executionId);
	});

	describe('bursts and order (issue 24)', () => {
		const sign = (secret: string, body: string) =>
			`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
		const runOf = (id: string) => fx.sandbox.state.runs.get(id)!.run;
		const eventOf = (id: string) =>
			JSON.stringify({
				id: `evt_${id}`,
				object: 'event',
				type: 'run.completed',
				created_at: new Date().toISOString(),
				data: { object: runOf(id) },
			});
		const deliveryOf = (runId: string) =>
			fx.sandbox.services.webhooks
				.listDeliveries(SANDBOX_ACCOUNT_ID)
				.find((d) => d.run_id === runId && d.status !== 'pending');
		const answered = async (runId: string) => {
			for (const end = Date.now() + 20_000; !deliveryOf(runId); ) {
				if (Date.now() > end) throw new Error(`no answered delivery for ${runId}`);
				await new Promise((r) => setTimeout(r, 20));
			}
			return deliveryOf(runId)!;
		};
		/** GETs of each output file (what a resume downloads), by path */
		const downloadsPerFile = () => {
			const counts = new Map<string, number>();
			for (const r of fx.sandbox.state.requests)
				if (r.method === 'GET' && r.path.startsWith('/storage/files/'))
					counts.set(r.path, (counts.get(r.path) ?? 0) + 1);
			return counts;
		};

		it('resumes once, on the event of the run that finished last, when the run created last finishes first', async () => {
			fx.sandbox.state.options.latencyMs = 600_000;
			const executionId = nextExecutionId();
			const paused = await host.run({
				nodeType: video,
				credentials: fx.credentials,
				parameters: { ...generate, waitMode: 'parked' },
				input: shots(3),
				executionId,
			});
			expect(paused.run.status).toBe('waiting');
			// in the order the service made them (created_at, then id): the last of them finishes first
			const byCreation = paused.items
				.map((i) => String(i.json.run_id))
				.sort(
					(a, b) =>
						String(runOf(a).created_at).localeCompare(String(runOf(b).created_at)) ||
						a.localeCompare(b),
				);
			const finishing = [...byCreation].reverse();
			for (const id of finishing) {
				await new Promise((r) => setTimeout(r, 5));
				expect(fx.sandbox.services.runs.finishNow(id)).toBe(true);
				await answered(id);
			}
			const resumed = await host.finished(executionId);
			expect(resumed.items.map((i) => i.json.status)).toEqual([
				'completed',
				'completed',
				'completed',
			]);
			expect(
				host.deliveries.filter((d) => d.executionId === executionId && d.resumed),
			).toHaveLength(1);
			const resumedBy = fx.sandbox.services.webhooks
				.listDeliveries(SANDBOX_ACCOUNT_ID)
				.filter((d) => d.response_body?.includes('"resumed":true'));
			expect(resumedBy.map((d) => d.run_id)).toEqual([finishing.at(-1)]);
			expect(Date.parse(String(runOf(finishing.at(-1)!).completed_at))).toBeGreaterThan(
				Date.parse(String(runOf(finishing[0]).completed_at)),
			);
		});

		it("20 copies of each run's event at once: one resume, one download per output, the others answered 200 and ignored", async () => {
			fx.sandbox.state.options.latencyMs = 600_000;
			const executionId = nextExecutionId();
			const paused = await host.run({
				nodeType: video,
				credentials: fx.credentials,
				parameters: { ...generate, waitMode: 'parked' },
				input: shots(2),
				executionId,
			});
			const runIds = paused.items.map((i) => String(i.json.run_id));
			const [endpoint] = endpoints();
			// the service's own deliveries stay off: this test sends the burst itself
			await api('PATCH', `/webhooks/${endpoint.id}`, { status: 'disabled' });
			for (const id of runIds) {
				fx.sandbox.services.runs.finishNow(id);
				await new Promise((r) => setTimeout(r, 5));
			}
			const bodies = runIds.map(eventOf);
			const burst = bodies.flatMap((body) => Array.from({ length: 20 }, () => body));
			const answers = await Promise.all(
				burst.map(async (body) => {
					const res = await fetch(endpoint.url, {
						method: 'POST',
						headers: {
							'content-type': 'application/json',
							'X-Service-Signature': sign(secretOf(endpoint.id), body),
						},
						body,
					});
					return { status: res.status, body: (await res.json()) as IDataObject };
				}),
			);
			const resumed = await host.finished(executionId);
			expect(resumed.items.map((i) => i.json.status)).toEqual(['completed', 'completed']);
			expect(answers.filter((a) => a.body.resumed === true)).toHaveLength(1);
			// what reached the node was answered 200; what came once the execution ran again, n8n answered itself (409)
			expect(
				answers
					.filter((a) => a.status !== 200)
					.every(
						(a) =>
							a.status === 409 &&
							String(a.body.message).startsWith(`The execution "${executionId}`),
					),
			).toBe(true);
			expect(
				answers
					.filter((a) => a.status === 200 && a.body.resumed !== true)
					.every((a) => a.body.ignored === 'resuming' || a.body.waiting_for !== undefined),
			).toBe(true);
			expect(host.runTimes(executionId)).toHaveLength(2);
			const files = downloadsPerFile();
			expect(files.size).toBe(2);
			expect([...files.values()]).toEqual([1, 1]);
			expect(endpoints()).toEqual([]);
		});

		it("refuses the deliveries of an execution whose credential's API key changed while it was paused (the seal does not open): it stays paused", async () => {
			fx.sandbox.state.options.latencyMs = 600_000;
			const executionId = nextExecutionId();
			const paused = await host.run({
				nodeType: video,
				credentials: fx.credentials,
				parameters: { ...generate, waitMode: 'parked' },
				input: shots(1),
				executionId,
			});
			fx.credentials.set('mediaGenApi', {
				baseUrl: fx.sandbox.baseUrl,
				apiKey: fx.sandbox.state.createApiKey(
					['runs:read', 'webhooks:read', 'webhooks:write'],
					'rotated key',
				),
			});
			fx.sandbox.services.runs.finishNow(String(paused.items[0].json.run_id));
			for (
				const end = Date.now() + 20_000;
				!host.deliveries.some((d) => d.executionId === executionId);

			) {
				if (Date.now() > end) throw new Error('no delivery');
				await new Promise((r) => setTimeout(r, 20));
			}
			expect(host.deliveries.find((d) => d.executionId === executionId)).toEqual(
				expect.objectContaining({
					status: 401,
					body: { error: 'unauthorized', reason: 'no_signing_secret' },
				}),
			);
			expect(host.status(executionId)).toBe('waiting');
			host.cancel(executionId);
		});

		it('leaves the resume to the delivery whose endpoint delete succeeded (another n8n process): code not_found answers 200 and resumes nothing', async () => {
			fx.sandbox.state.options.latencyMs = 600_000;
			const executionId = nextExecutionId();
			const paused = await host.run({
				nodeType: video,
				credentials: fx.credentials,
				parameters: { ...generate, waitMode: 'parked' },
				input: shots(1),
				executionId,
			});
			const runId = String(paused.items[0].json.run_id);
			const [endpoint] = endpoints();
			const secret = secretOf(endpoint.id);
			await api('PATCH', `/webhooks/${endpoint.id}`, { status: 'disabled' });
			fx.sandbox.services.runs.finishNow(runId);
			// another process claimed the resume: it deleted the endpoint
			fx.sandbox.services.webhooks.deleteEndpoint(SANDBOX_ACCOUNT_ID, endpoint.id);
			const body = eventOf(runId);
			const res = await fetch(endpoint.url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'X-Service-Signature': sign(secret, body) },
				body,
			});
			expect([res.status, await res.json()]).toEqual([
				200,
				{ received: true, ignored: 'resumed_elsewhere' },
			]);
			expect(host.status(executionId)).toBe('waiting');
			expect(downloadsPerFile().size).toBe(0);
			host.cancel(executionId);
		});
	});

	describe('batches', () => {
		const batchNode = new MediaGenBatch();
		const create: IDataObject = {
			resource: 'batch',
			operation: 'create',
			mode: 'operation',
			target: 'images/generations',
			itemBody: '={{ $json }}',
		};
		const tiles = (n: number, failing: number[] = []) =>
			Array.from({ length: n }, (_, i) => ({
				json: {
					prompt: `tile ${i}`,
					...(failing.includes(i) ? { sandbox_fail: 'provider_error' } : {}),
				},
			}));

		async function pausedBatch(input: INodeExecutionData[]) {
			const executionId = nextExecutionId();
			const paused = await host.run({
				nodeType: batchNode,
				credentials: fx.credentials,
				parameters: create,
				input,
				executionId,
			});
			expect(paused.run.status).toBe('waiting');
			expect(endpoints()[0].events).toEqual([
				'batch.completed',
				'batch.failed',
				'run.completed',
				'run.failed',
			]);
			const resumed = await host.finished(executionId);
			expect(endpoints()).toEqual([]);
			const inExecution = await runNode({
				nodeType: batchNode,
				credentials: fx.credentials,
				parameters: { ...create, waitMode: 'inExecution' },
				input,
			});
			return { paused, resumed, inExecution };
		}
		const lastResume = () => host.deliveries.filter((d) => d.resumed).at(-1)!;

		it('pauses Create From Items by default and resumes on batch.completed with one item per batch item, as the in-execution wait', async () => {
			const { paused, resumed, inExecution } = await pausedBatch(tiles(4));
			expect(paused.items.map((i) => i.json.batch_id)).toEqual(
				Array(4).fill(paused.items[0].json.batch_id),
			);
			expect(resumed.items.map((i) => i.json.status)).toEqual([
				'completed',
				'completed',
				'completed',
				'completed',
			]);
			expect(await Promise.all(resumed.items.map(comparable))).toEqual(
				await Promise.all(inExecution.items.map(comparable)),
			);
			expect(host.deliveries.filter((d) => d.resumed)).toHaveLength(1);
			expect(lastResume().event).toBe('batch.completed');
		});

		it('resumes a batch that ends partial (it sends no batch event) on the run event that ends it', async () => {
			const { resumed, inExecution } = await pausedBatch(tiles(3, [1]));
			// once: by the event of the run that finished last, not by each run event after the batch ended
			expect(host.deliveries.filter((d) => d.resumed)).toHaveLength(1);
			expect(lastResume().event).toMatch(/^run\./);
			expect(resumed.items.map((i) => [i.json.status, i.json.batch_status])).toEqual([
				['completed', 'partial'],
				['failed', 'partial'],
				['completed', 'partial'],
			]);
			expect(await Promise.all(resumed.items.map(comparable))).toEqual(
				await Promise.all(inExecution.items.map(comparable)),
			);
		});

		it('Simplify (version 2): a paused batch resumes with the in-execution simplified items', async () => {
			const executionId = nextExecutionId();
			const input = tiles(2);
			const paused = await host.run({
				nodeType: batchNode,
				credentials: fx.credentials,
				parameters: create,
				input,
				executionId,
				typeVersion: 2,
			});
			expect(paused.run.status).toBe('waiting');
			const resumed = await host.finished(executionId);
			const inExecution = await runNode({
				nodeType: batchNode,
				credentials: fx.credentials,
				parameters: { ...create, waitMode: 'inExecution' },
				input,
				typeVersion: 2,
			});
			expect(
				resumed.items.map((i) => [i.json.batch_item_index, i.json.prompt, i.json.status]),
			).toEqual([
				[0, 'tile 0', 'completed'],
				[1, 'tile 1', 'completed'],
			]);
			expect(await Promise.all(resumed.items.map(comparable))).toEqual(
				await Promise.all(inExecution.items.map(comparable)),
			);
		});

		it('resumes on batch.failed when every item failed', async () => {
			const { resumed } = await pausedBatch(tiles(2, [0, 1]));
			expect(lastResume().event).toBe('batch.failed');
			expect(resumed.items.map((i) => [i.json.status, i.json.batch_status])).toEqual([
				['failed', 'failed'],
				['failed', 'failed'],
			]);
		});

		it('pauses the Use Batch API option of a generating operation and resumes with the in-execution items', async () => {
			const executionId = nextExecutionId();
			const parameters = {
				resource: 'image',
				operation: 'generate',
				prompt: '={{ $json.prompt }}',
				waitMode: 'parked',
				options: { useBatchApi: true },
			};
			const paused = await host.run({
				nodeType: image,
				credentials: fx.credentials,
				parameters,
				input: tiles(3),
				executionId,
			});
			expect(paused.run.status).toBe('waiting');
			const resumed = await host.finished(executionId);
			const inExecution = await runNode({
				nodeType: image,
				credentials: fx.credentials,
				parameters: { ...parameters, waitMode: 'inExecution' },
				input: tiles(3),
			});
			expect(resumed.items).toHaveLength(3);
			expect(await Promise.all(resumed.items.map(comparable))).toEqual(
				await Promise.all(inExecution.items.map(comparable)),
			);
		});

		it("Batch → Wait for Completion paused: the same items; n8n pairs a resumed node's outputs by position", async () => {
			fx.sandbox.state.options.latencyMs = 1500;
			const created = await runNode({
				nodeType: batchNode,
				credentials: fx.credentials,
				parameters: { ...create, waitForCompletion: false },
				input: tiles(3),
			});
			const batchId = String(created.items[0].json.batch_id);
			const executionId = nextExecutionId();
			const paused = await host.run({
				nodeType: batchNode,
				credentials: fx.credentials,
				parameters: { resource: 'batch', operation: 'wait', batchId },
				input: [{ json: {} }],
				executionId,
			});
			expect(paused.run.status).toBe('waiting');
			const resumed = await host.finished(executionId);
			const inExecution = await runNode({
				nodeType: batchNode,
				credentials: fx.credentials,
				parameters: { resource: 'batch', operation: 'wait', batchId, waitMode: 'inExecution' },
				input: [{ json: {} }],
			});
			const withoutPairing = async (items: INodeExecutionData[]) =>
				(await Promise.all(items.map(comparable))).map(({ json, binary }) => ({ json, binary }));
			expect(await withoutPairing(resumed.items)).toEqual(await withoutPairing(inExecution.items));
			expect(inExecution.items.map((i) => i.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 0 },
				{ item: 0 },
			]);
			// WorkflowExecute.addPairedItemLineage (n8n 2.41) renumbers what a resumed node returns
			expect(resumed.items.map((i) => (i.pairedItem as { item: number }).item)).toEqual([0, 1, 2]);
		});
	});
});
