import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { MediaGenBatch } from '../../nodes/MediaGenBatch/MediaGenBatch.node';
import { binaryBytes, runNode } from '../helpers/n8n-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Input items 3, 11 and 17 carry the sandbox-only flag that fails their first attempt (docs/request-fields.md). */
const FAILING = [3, 11, 17];
const input = Array.from({ length: 20 }, (_, i) => ({
	json: { prompt: `tile ${i}`, ...(FAILING.includes(i) ? { sandbox_fail: 'provider_error' } : {}) },
}));

describe('MediaGen Batch in n8n-core (against the sandbox)', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture({ latencyMs: 60 });
	});
	afterEach(async () => fx.sandbox.close());

	const run = (parameters: IDataObject, items?: INodeExecutionData[]) =>
		runNode({
			nodeType: new MediaGenBatch(),
			credentials: fx.credentials,
			parameters,
			input: items,
		});

	it('turns 20 input items into one batch, waits, and outputs one item per batch item paired to its input; retry completes a failed item', async () => {
		const created = await run(
			{
				resource: 'batch',
				operation: 'create',
				mode: 'operation',
				target: 'images/generations',
				concurrency: 3,
			},
			input,
		);
		expect(created.error).toBeUndefined();
		const sent = posts(fx.sandbox, '/batches');
		expect(sent).toHaveLength(1);
		expect(sent[0].idempotencyKey).toMatch(/^n8n-[0-9a-f]{48}$/);
		expect(fx.sandbox.state.countRequests('POST', '/v1/images/generations')).toBe(0);

		const { items } = created;
		expect(items).toHaveLength(20);
		expect(items.map((i) => i.pairedItem)).toEqual(input.map((_, i) => ({ item: i })));
		expect(items.map((i) => i.json.index)).toEqual(input.map((_, i) => i));
		expect(new Set(items.map((i) => i.json.batch_status))).toEqual(new Set(['partial']));
		const failed = items.filter((i) => i.json.status === 'failed');
		expect(failed.map((i) => i.json.index)).toEqual(FAILING);
		expect(failed[0].json.error).toEqual(expect.objectContaining({ code: 'provider_error' }));
		expect(failed[0].binary).toBeUndefined();
		const completed = items.filter((i) => i.json.status === 'completed');
		expect(completed).toHaveLength(17);
		expect(completed[0].binary?.data.mimeType).toBe('image/png');
		expect((await binaryBytes(completed[0].binary!.data)).subarray(0, 8)).toEqual(PNG_SIGNATURE);

		const batchId = String(items[0].json.batch_id);
		const retried = await run({
			resource: 'batchItem',
			operation: 'retry',
			batchId,
			itemId: String(failed[0].json.id),
		});
		expect(retried.items[0].json).toEqual(
			expect.objectContaining({ id: failed[0].json.id, status: 'queued' }),
		);

		const waited = await run({
			resource: 'batch',
			operation: 'wait',
			batchId,
			options: { returnUrlsOnly: true },
		});
		expect(waited.error).toBeUndefined();
		expect(waited.items).toHaveLength(20);
		expect(waited.items[FAILING[0]].json).toEqual(
			expect.objectContaining({
				status: 'completed',
				output_urls: [expect.stringContaining('/storage/files/')],
			}),
		);
		expect(waited.items[FAILING[0]].binary).toBeUndefined();

		const stillFailed = await run({
			resource: 'batch',
			operation: 'wait',
			batchId,
			onlyFailed: true,
		});
		expect(stillFailed.items.map((i) => i.json.index)).toEqual(FAILING.slice(1));

		const batch = await run({ resource: 'batch', operation: 'get', batchId });
		expect(batch.items[0].json).toEqual(
			expect.objectContaining({ status: 'partial', completed_items: 18, failed_items: 2 }),
		);
		expect(
			(await run({ resource: 'batch', operation: 'list', returnAll: true })).items.map(
				(i) => i.json.id,
			),
		).toEqual([batchId]);
		const listed = await run({
			resource: 'batchItem',
			operation: 'list',
			batchId,
			returnAll: true,
		});
		expect(listed.items).toHaveLength(20);
		const limited = await run({
			resource: 'batchItem',
			operation: 'list',
			batchId,
			returnAll: false,
			limit: 7,
		});
		expect(limited.items).toHaveLength(7);
		const one = await run({
			resource: 'batchItem',
			operation: 'get',
			batchId,
			itemId: String(items[5].json.id),
		});
		expect(one.items[0].json).toEqual(expect.objectContaining({ index: 5, status: 'completed' }));
	});

	it('runs workflow items and can return the queued batch items without waiting', async () => {
		const queued = await run(
			{
				resource: 'batch',
				operation: 'create',
				mode: 'workflow',
				target: 'ugc_ad',
				waitForCompletion: false,
			},
			[{ json: { prompt: 'a' } }, { json: { prompt: 'b' } }],
		);
		expect(queued.items.map((i) => [i.json.status, i.pairedItem])).toEqual([
			['queued', { item: 0 }],
			['queued', { item: 1 }],
		]);
		const done = await run({
			resource: 'batch',
			operation: 'wait',
			batchId: String(queued.items[0].json.batch_id),
		});
		expect(done.items.map((i) => i.json.status)).toEqual(['completed', 'completed']);
		expect(done.items[1].json.output).toEqual(
			expect.objectContaining({ hooks: expect.any(Array), full_script: expect.any(String) }),
		);
	});

	it('builds item bodies from an expression and refuses a concurrency above 20 before sending', async () => {
		const bad = await run(
			{
				resource: 'batch',
				operation: 'create',
				mode: 'operation',
				target: 'images/generations',
				concurrency: 21,
			},
			[{ json: { prompt: 'x' } }],
		);
		expect(bad.error?.message).toContain('Concurrency: 21 is not allowed; allowed: at most 20');
		expect(posts(fx.sandbox, '/batches')).toHaveLength(0);

		const mapped = await run(
			{
				resource: 'batch',
				operation: 'create',
				mode: 'operation',
				target: 'images/generations',
				item: '={{ { "prompt": $json.title, "count": 2 } }}',
				options: { returnUrlsOnly: true },
			},
			[{ json: { title: 'dune' } }],
		);
		expect(mapped.error).toBeUndefined();
		expect(mapped.items[0].json.output_urls).toHaveLength(2);
		expect(mapped.items[0].json.input_summary).toEqual({ prompt: 'dune', count: 2 });
	});

	it('resends a batch create whose answer was lost with the same Idempotency-Key: one batch, one run per item', async () => {
		fx.sandbox.injectFault({ when: 'after', method: 'POST', path: '/batches', reset: true });
		const { items, error } = await run(
			{
				resource: 'batch',
				operation: 'create',
				mode: 'operation',
				target: 'images/generations',
				options: { returnUrlsOnly: true },
			},
			[{ json: { prompt: 'a' } }, { json: { prompt: 'b' } }],
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.status)).toEqual(['completed', 'completed']);
		const sent = posts(fx.sandbox, '/batches');
		expect(sent).toHaveLength(2);
		expect(sent[0].idempotencyKey).toBe(sent[1].idempotencyKey);
		expect(fx.sandbox.state.runs.size).toBe(2);
		expect(fx.sandbox.state.ledger).toHaveLength(2);
	});

	it('refuses a target that is no workflow or operation before sending, naming the choices', async () => {
		const workflow = await run(
			{ resource: 'batch', operation: 'create', mode: 'workflow', target: 'nope' },
			[{ json: { prompt: 'x' } }],
		);
		expect(workflow.error?.message).toBe(
			'Target: "nope" is not a workflow; allowed: storyboard, hook_pack, ugc_ad, creative_pack, product_ad_variants',
		);
		const operation = await run(
			{ resource: 'batch', operation: 'create', mode: 'operation', target: 'GET /runs' },
			[{ json: { prompt: 'x' } }],
		);
		expect(operation.error?.message).toContain('Target: "GET /runs" is not a generating operation');
		expect(fx.sandbox.state.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
	});

	it('reads a bare path (as earlier versions wrote the target) as the POST of that path', async () => {
		const { error } = await run(
			{
				resource: 'batch',
				operation: 'create',
				mode: 'operation',
				target: 'images/generations',
				options: { returnUrlsOnly: true },
			},
			[{ json: { prompt: 'x' } }],
		);
		expect(error).toBeUndefined();
		expect(
			fx.sandbox.state.requests.filter((r) => r.method === 'POST' && r.path === '/v1/batches'),
		).toHaveLength(1);
	});
});
