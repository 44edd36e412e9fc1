import { createHash, createHmac } from 'node:crypto';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { MediaGenBatch } from '../../nodes/MediaGenBatch/MediaGenBatch.node';
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenVideo } from '../../nodes/MediaGenVideo/MediaGenVideo.node';
import { SANDBOX_ACCOUNT_ID, SANDBOX_API_KEY } from '../../sandbox/options';
import { binaryBytes, runNode } from '../helpers/n8n-harness';
import { PausedExecutionHost } from '../helpers/paused-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';

const video = new MediaGenVideo();
const image = new MediaGenImage();

const shots = (n: number) => Array.from({ length: n }, (_, i) => ({ json: { prompt: `shot ${i}` } }));
const generate: IDataObject = { resource: 'video', operation: 'generate', prompt: '={{ $json.prompt }}', duration: 5 };

let executionCounter = 0;
const nextExecutionId = () => `paused-${process.pid}-${++executionCounter}`;

/** An item with what differs between two runs of the same request (ids, times, signed URLs) blanked. */
async function comparable(item: INodeExecutionData) {
	const json = JSON.parse(
		JSON.stringify(item.json)
			.replace(/(run|req|evt|whe|batch|bi|prov)_[A-Za-z0-9_-]+/g, '<id>')
			.replace(/"\d{4}-\d{2}-\d{2}T[^"]+"/g, '"<time>"')
			.replace(/http:\/\/127\.0\.0\.1:\d+\/[^"]*/g, '<url>'),
	) as IDataObject;
	const binary: IDataObject = {};
	for (const [key, data] of Object.entries(item.binary ?? {})) {
		binary[key] = { mimeType: data.mimeType, fileExtension: data.fileExtension, sha256: createHash('sha256').update(await binaryBytes(data)).digest('hex') };
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
	const secretOf = (id: string) => (fx.sandbox.services.webhooks as unknown as { endpoints: Map<string, { secret: string }> }).endpoints.get(id)!.secret;
	const api = async (method: string, path: string, body?: unknown) => {
		const res = await fetch(`${fx.sandbox.baseUrl}${path}`, {
			method,
			headers: { authorization: `Bearer ${SANDBOX_API_KEY}`, 'content-type': 'application/json', 'idempotency-key': `test-${Math.random()}` },
			body: body ? JSON.stringify(body) : undefined,
		});
		return (await res.json()) as IDataObject;
	};

	it('pauses, reads nothing while paused, ignores a forged event and another run\'s, and resumes on the last run\'s event with the in-execution items', async () => {
		const executionId = nextExecutionId();
		const paused = await host.run({ nodeType: video, credentials: fx.credentials, parameters: { ...generate, waitMode: 'parked' }, input: shots(3), executionId, workflowId: 'wf-paused' });
		const pausedAt = Date.now();
		expect(paused.error).toBeUndefined();
		expect(paused.run.status).toBe('waiting');
		expect(paused.run.waitTill!.getTime()).toBeGreaterThan(pausedAt + 590_000);
		expect(paused.run.waitTill!.getTime()).toBeLessThanOrEqual(pausedAt + 600_000);
		// while paused, the node shows what it waits for
		expect(paused.items.map((i) => i.json.status)).toEqual(['waiting', 'waiting', 'waiting']);

		const [endpoint] = endpoints();
		expect(endpoints()).toHaveLength(1);
		expect(endpoint.url).toBe(`${host.baseUrl}/${executionId}`);
		expect(endpoint.events).toEqual(['run.completed', 'run.failed']);
		expect(endpoint.description).toContain(`n8n execution ${executionId} of workflow "test" (wf-paused), node "MediaGen"`);
		expect(endpoint.description).toContain(`resumes by ${paused.run.waitTill!.toISOString()}`);

		// what n8n stores: the deadline's items as the node's input, the sealed state in custom data
		const stored = host.storedData(executionId);
		const storedItems = stored.executionData!.nodeExecutionStack[0].data.main[0]!;
		const runIds = paused.items.map((i) => String(i.json.run_id));
		expect(storedItems.map((i) => i.json)).toEqual(runIds.map((id) => expect.objectContaining({ code: 'wait_timeout', run_id: id, error: `Run ${id} did not finish within 600 s` })));
		expect(storedItems.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(Object.keys(stored.resultData.metadata ?? {})).toEqual([expect.stringMatching(/^mediagen_wait_[0-9a-f]{16}$/)]);
		expect(JSON.stringify(stored)).not.toContain(secretOf(endpoint.id));

		// a forged delivery: 401, still paused
		const forgedBody = JSON.stringify({ id: 'evt_forged', object: 'event', type: 'run.completed', created_at: new Date().toISOString(), data: { object: { id: runIds[0], status: 'completed' } } });
		const forged = await fetch(endpoint.url, { method: 'POST', headers: { 'content-type': 'application/json', 'X-Service-Signature': `sha256=${createHmac('sha256', 'not the secret').update(forgedBody).digest('hex')}` }, body: forgedBody });
		expect(forged.status).toBe(401);
		expect(await forged.json()).toEqual({ error: 'unauthorized', reason: 'signature_mismatch' });

		// another run of the account finishes first: its event reaches the endpoint and changes nothing
		fx.sandbox.state.options.latencyMs = 50;
		const other = await api('POST', '/images/generations', { prompt: 'someone else' });
		await new Promise((r) => setTimeout(r, 400));
		expect(host.deliveries.find((d) => (d.body as IDataObject).ignored === 'not_this_execution')).toBeDefined();
		expect(host.status(executionId)).toBe('waiting');
		expect(fx.sandbox.state.runs.get(String(other.id))!.run.status).toBe('completed');

		const resumed = await host.finished(executionId);
		const firstOwnDelivery = host.deliveries.find((d) => d.status === 200 && (d.body as IDataObject).ignored === undefined)!;
		// no run was read between pausing and the first event about its runs (no polling)
		expect(fx.sandbox.state.requests.filter((r) => r.path.startsWith('/v1/runs') && r.at >= pausedAt && r.at < firstOwnDelivery.at)).toEqual([]);
		// one delivery resumed it (the last run's), after a single read of the list per delivery
		expect(host.deliveries.filter((d) => d.resumed)).toHaveLength(1);
		expect(fx.sandbox.state.requests.filter((r) => r.method === 'GET' && /^\/v1\/runs\/run_/.test(r.path) && r.at >= pausedAt)).toEqual([]);
		expect(endpoints()).toEqual([]);

		expect(resumed.error).toBeUndefined();
		expect(resumed.items.map((i) => i.json.id)).toEqual(runIds);
		const inExecution = await runNode({ nodeType: video, credentials: fx.credentials, parameters: { ...generate, waitMode: 'inExecution' }, input: shots(3) });
		expect(await Promise.all(resumed.items.map(comparable))).toEqual(await Promise.all(inExecution.items.map(comparable)));
		for (const id of runIds) expect(fx.sandbox.state.chargesFor(id)).toHaveLength(1);
	});

	it('resumes at the deadline with the in-execution timeout items, naming their runs (no node code runs then)', async () => {
		fx.sandbox.state.options.latencyMs = 60_000;
		const executionId = nextExecutionId();
		const parameters = { ...generate, waitMode: 'parked', options: { waitTimeout: 2 } };
		const paused = await host.run({ nodeType: video, credentials: fx.credentials, parameters, input: shots(2), executionId, settings: { onError: 'continueRegularOutput' } });
		expect(paused.run.status).toBe('waiting');
		const requests = fx.sandbox.state.requests.length;
		const atDeadline = await host.deadline(executionId);
		expect(fx.sandbox.state.requests.length).toBe(requests);
		const runIds = paused.items.map((i) => String(i.json.run_id));

		const inExecution = await runNode({ nodeType: video, credentials: fx.credentials, parameters: { ...parameters, waitMode: 'inExecution' }, input: shots(2), settings: { onError: 'continueRegularOutput' } });
		expect(atDeadline.items.map((i) => i.json)).toEqual(runIds.map((id) => expect.objectContaining({ code: 'wait_timeout', run_id: id })));
		expect(await Promise.all(atDeadline.items.map(comparable))).toEqual(await Promise.all(inExecution.items.map(comparable)));
	});
});
