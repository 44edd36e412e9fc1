import type { AxiosInstance } from 'axios';

import type { Sandbox } from '../../sandbox/server';
import { startReceiver } from '../helpers/receiver';
import { clientFor, expectProblem, idem, openSandbox, sleep } from './helpers';

interface Batch {
	id: string;
	status: string;
	total_items: number;
	completed_items: number;
	failed_items: number;
	completed_at: string | null;
}

async function waitForBatch(
	http: AxiosInstance,
	id: string,
	onPoll?: (items: Array<{ status: string }>) => void,
): Promise<Batch> {
	for (let i = 0; i < 500; i++) {
		if (onPoll)
			onPoll((await http.get(`/batches/${id}/items`, { params: { limit: 100 } })).data.data);
		const batch = (await http.get(`/batches/${id}`)).data as Batch;
		if (['completed', 'failed', 'partial'].includes(batch.status)) return batch;
		await sleep(10);
	}
	throw new Error(`batch ${id} did not finish`);
}

/** 20 image items; items 4, 9 and 15 carry the sandbox-only flag that makes their first attempt fail. */
const FAILING = [4, 9, 15];
const items = Array.from({ length: 20 }, (_, i) => ({
	prompt: `frame ${i}`,
	...(FAILING.includes(i) ? { sandbox_fail: 'provider_error' } : {}),
}));

describe('sandbox batches', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;
	const finished: unknown[] = [];

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 40 }));
		sandbox.state.events.on('batch.finished', (batch) => finished.push(batch));
	});
	afterAll(() => sandbox.close());

	it('runs 20 items with concurrency 3, ends partial with 3 failures, and a retried item completes the failed one', async () => {
		const created = await http.post(
			'/batches',
			{ mode: 'operation', target: 'POST /images/generations', items, concurrency: 3 },
			idem(),
		);
		expect(created.status).toBe(201);
		expect(created.data).toEqual(
			expect.objectContaining({
				object: 'batch',
				mode: 'operation',
				target: 'POST /images/generations',
				status: 'queued',
				total_items: 20,
				concurrency: 3,
				input_summary: { mode: 'operation', target: 'POST /images/generations', item_count: 20 },
			}),
		);
		expect(created.data.items).toHaveLength(20);
		expect(
			created.data.items.map((i: { index: number; status: string }) => [i.index, i.status]),
		).toEqual(items.map((_, i) => [i, 'queued']));

		let maxProcessing = 0;
		const batch = await waitForBatch(http, created.data.id, (list) => {
			maxProcessing = Math.max(maxProcessing, list.filter((i) => i.status === 'processing').length);
		});
		expect(maxProcessing).toBeLessThanOrEqual(3);
		expect(maxProcessing).toBeGreaterThan(0);
		expect(batch).toEqual(
			expect.objectContaining({
				status: 'partial',
				completed_items: 17,
				failed_items: 3,
				completed_at: expect.any(String),
			}),
		);

		const list = (await http.get(`/batches/${batch.id}/items`, { params: { limit: 100 } })).data
			.data;
		const failedIndexes = list
			.filter((i: { status: string }) => i.status === 'failed')
			.map((i: { index: number }) => i.index);
		expect(failedIndexes).toEqual(FAILING);
		const failedItem = list[FAILING[0]];
		expect(failedItem.error).toEqual({ code: 'provider_error', message: expect.any(String) });
		expect(list[0].output.images[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/storage\/files\//);
		expect((await http.get(`/runs/${list[0].run_id}`)).data.status).toBe('completed');
		expect(finished).toHaveLength(1);

		expectProblem(
			await http.post(`/batches/${batch.id}/items/${list[0].id}/retry`),
			409,
			'item_not_failed',
		);
		const retried = await http.post(`/batches/${batch.id}/items/${failedItem.id}/retry`);
		expect(retried.status).toBe(200);
		expect(retried.data).toEqual(
			expect.objectContaining({ id: failedItem.id, status: 'queued', error: null }),
		);
		const after = await waitForBatch(http, batch.id);
		expect(after).toEqual(
			expect.objectContaining({ status: 'partial', completed_items: 18, failed_items: 2 }),
		);
		const item = (await http.get(`/batches/${batch.id}/items/${failedItem.id}`)).data;
		expect(item).toEqual(
			expect.objectContaining({ status: 'completed', error: null, run_id: expect.any(String) }),
		);
		expect(item.run_id).not.toBe(failedItem.run_id);
		expect(finished).toHaveLength(2);
	});

	it('ends completed when every item completes and failed when every item fails', async () => {
		const ok = await http.post(
			'/batches',
			{
				mode: 'operation',
				target: 'POST /images/generations',
				items: [{ prompt: 'a' }, { prompt: 'b' }],
			},
			idem(),
		);
		expect((await waitForBatch(http, ok.data.id)).status).toBe('completed');
		const bad = await http.post(
			'/batches',
			{
				mode: 'operation',
				target: 'POST /images/generations',
				items: [{ prompt: 'a', sandbox_fail: 'provider_error' }, { prompt: '' }],
			},
			idem(),
		);
		const done = await waitForBatch(http, bad.data.id);
		expect(done.status).toBe('failed');
		const list = (await http.get(`/batches/${bad.data.id}/items`)).data.data;
		// an item the target refuses fails at once with the target's problem code and no run
		expect(list[1]).toEqual(
			expect.objectContaining({
				status: 'failed',
				run_id: null,
				error: expect.objectContaining({ code: 'invalid_prompt' }),
			}),
		);
	});

	it('sends batch.completed and batch.failed webhooks (none for a partial batch)', async () => {
		const receiver = await startReceiver();
		try {
			const endpoint = await http.post('/webhooks', {
				url: receiver.url,
				events: ['batch.completed', 'batch.failed'],
			});
			expect(endpoint.status).toBe(201);
			const ok = await http.post(
				'/batches',
				{ mode: 'operation', target: 'POST /images/generations', items: [{ prompt: 'a' }] },
				idem(),
			);
			await waitForBatch(http, ok.data.id);
			const partial = await http.post(
				'/batches',
				{
					mode: 'operation',
					target: 'POST /images/generations',
					items: [{ prompt: 'a' }, { prompt: 'b', sandbox_fail: 'provider_error' }],
				},
				idem(),
			);
			await waitForBatch(http, partial.data.id);
			const bad = await http.post(
				'/batches',
				{
					mode: 'operation',
					target: 'POST /images/generations',
					items: [{ prompt: 'a', sandbox_fail: 'provider_error' }],
				},
				idem(),
			);
			await waitForBatch(http, bad.data.id);
			const received = await receiver.waitFor(2);
			const events = received
				.map((r) => [
					r.body.type,
					(r.body.data as { object: { id: string; status: string } }).object.id,
				])
				.sort();
			expect(events).toEqual(
				[
					['batch.completed', ok.data.id],
					['batch.failed', bad.data.id],
				].sort(),
			);
		} finally {
			await receiver.close();
		}
	});

	it('runs workflow items: outputs carry the workflow fields', async () => {
		const res = await http.post(
			'/batches',
			{
				mode: 'workflow',
				target: 'hook_pack',
				items: [{ prompt: 'socks' }, { prompt: 'hats', tone: 'humorous' }],
			},
			idem(),
		);
		expect(res.status).toBe(201);
		expect((await waitForBatch(http, res.data.id)).status).toBe('completed');
		const list = (await http.get(`/batches/${res.data.id}/items`)).data.data;
		expect(list[1].output).toEqual(
			expect.objectContaining({
				hooks: expect.any(Array),
				body: expect.any(String),
				call_to_action: expect.any(String),
				full_script: expect.any(String),
			}),
		);
	});

	it('lists batches newest first; replays the same key; validates mode, target, items and concurrency', async () => {
		const key = `batch-${Date.now()}`;
		const body = {
			mode: 'operation',
			target: 'POST /images/generations',
			items: [{ prompt: 'one' }],
		};
		const first = await http.post('/batches', body, idem(key));
		const replay = await http.post('/batches', body, idem(key));
		expect(replay.data.id).toBe(first.data.id);
		expect(replay.headers['idempotent-replayed']).toBe('true');
		expectProblem(
			await http.post('/batches', { ...body, items: [{ prompt: 'two' }] }, idem(key)),
			409,
			'idempotency_key_reused',
		);
		expect((await http.get('/batches')).data.data[0].id).toBe(first.data.id);

		expectProblem(await http.post('/batches', body), 400, 'idempotency_key_required');
		expect(
			expectProblem(
				await http.post('/batches', { ...body, mode: 'both' }, idem()),
				400,
				'invalid_parameter',
			).param,
		).toBe('mode');
		expect(
			expectProblem(
				await http.post('/batches', { ...body, target: 'nope/nothing' }, idem()),
				400,
				'invalid_parameter',
			).param,
		).toBe('target');
		for (const path of [
			'images/generations',
			'/images/generations',
			'post /images/generations',
			'POST images/generations',
			'POST /videos/generations/{id}/final',
		]) {
			const problem = expectProblem(
				await http.post('/batches', { ...body, target: path }, idem()),
				400,
				'invalid_parameter',
			);
			expect({ path, param: problem.param, detail: problem.detail }).toEqual({
				path,
				param: 'target',
				detail: expect.stringContaining('"POST /images/generations"'),
			});
		}
		expect(
			expectProblem(
				await http.post('/batches', { ...body, mode: 'workflow', target: 'nope' }, idem()),
				400,
				'invalid_parameter',
			).param,
		).toBe('target');
		expect(
			expectProblem(
				await http.post('/batches', { ...body, items: [] }, idem()),
				400,
				'invalid_parameter',
			).param,
		).toBe('items');
		expect(
			expectProblem(
				await http.post('/batches', { ...body, concurrency: 50 }, idem()),
				400,
				'invalid_parameter',
			).param,
		).toBe('concurrency');
		expectProblem(await http.get('/batches/batch_nope'), 404, 'not_found');
	});

	it('gives every run the operation name as endpoint, the same for a batch item and a direct submit', async () => {
		const batch = await http.post(
			'/batches',
			{ mode: 'operation', target: 'POST /audio/sfx', items: [{ prompt: 'rain' }] },
			idem(),
		);
		expect(batch.data.target).toBe('POST /audio/sfx');
		await waitForBatch(http, batch.data.id);
		const [item] = (await http.get(`/batches/${batch.data.id}/items`)).data.data;
		const direct = await http.post('/audio/sfx', { prompt: 'rain' }, idem());
		expect((await http.get(`/runs/${item.run_id}`)).data.endpoint).toBe('POST /audio/sfx');
		expect(direct.data.endpoint).toBe('POST /audio/sfx');
		expect(item.target).toBe('POST /audio/sfx');
	});

	it("needs the target's scope as well as batches:write", async () => {
		const narrow = clientFor(
			sandbox.baseUrl,
			sandbox.state.createApiKey(['batches:write', 'batches:read']),
		);
		const res = await narrow.post(
			'/batches',
			{ mode: 'operation', target: 'POST /images/generations', items: [{ prompt: 'x' }] },
			idem(),
		);
		expect(expectProblem(res, 403, 'insufficient_scope').required_scope).toBe('images:write');
	});
});
