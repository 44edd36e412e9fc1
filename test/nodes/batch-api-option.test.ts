import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { binaryBytes, runNode } from '../helpers/n8n-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';

describe('Image Generate with "Use Batch API"', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture({ latencyMs: 100 });
	});
	afterEach(async () => fx.sandbox.close());

	it('sends all items as one POST /batches and returns one PNG per item, paired in input order', async () => {
		const input = Array.from({ length: 5 }, (_, i) => ({ json: { prompt: `banner ${i}` } }));
		const { items, error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: {
				resource: 'image',
				operation: 'generate',
				prompt: '={{ $json.prompt }}',
				options: { useBatchApi: true, concurrency: 2 },
			},
			input,
		});
		expect(error).toBeUndefined();
		expect(posts(fx.sandbox, '/batches')).toHaveLength(1);
		expect(posts(fx.sandbox, '/images/generations')).toHaveLength(0);
		expect(items.map((i) => i.pairedItem)).toEqual(input.map((_, item) => ({ item })));
		expect(items.map((i) => i.json.status)).toEqual(Array(5).fill('completed'));
		expect(items.every((i) => i.binary?.data.mimeType === 'image/png')).toBe(true);
		expect((await binaryBytes(items[4].binary!.data)).subarray(1, 4).toString()).toBe('PNG');
		const prompts = [...fx.sandbox.state.runs.values()]
			.map((r) => (r.run.input_summary as { prompt: string }).prompt)
			.sort();
		expect(prompts).toEqual(input.map((i) => i.json.prompt).sort());
		expect(fx.sandbox.state.ledger).toHaveLength(5);
		// what each item's run was charged: read from the runs (a batch item does not say it)
		const charges = new Map(fx.sandbox.state.ledger.map((e) => [e.run_id, e.credits]));
		expect(items.map((i) => (i.json.usage as { credits?: number } | undefined)?.credits)).toEqual(
			items.map((i) => charges.get(String(i.json.run_id))),
		);
		expect(items.map((i) => (i.json.usage as { credits?: number }).credits)).toEqual(
			Array(5).fill(4),
		);
	});

	it('with Simplify (node version 2) each batch item carries the credits its run was charged', async () => {
		const { items, error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			typeVersion: 2,
			parameters: {
				resource: 'image',
				operation: 'generate',
				prompt: '={{ $json.prompt }}',
				simplify: true,
				options: { useBatchApi: true, returnUrlsOnly: true },
			},
			input: [{ json: { prompt: 'a' } }, { json: { prompt: 'b' } }],
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => [i.json.batch_item_index, i.json.credits])).toEqual([
			[0, 4],
			[1, 4],
		]);
	});

	it('still checks every item against the model before sending the batch', async () => {
		const { error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: {
				resource: 'image',
				operation: 'generate',
				prompt: 'x',
				count: '={{ $json.count }}',
				options: { useBatchApi: true },
			},
			input: [{ json: { count: 1 } }, { json: { count: 7 } }],
		});
		expect(error?.message).toContain('Count: 7 is not allowed');
		expect(posts(fx.sandbox, '/batches')).toHaveLength(0);
	});

	it('refuses Max Credits together with the batch API (a batch is not quoted) before sending anything', async () => {
		const { error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: {
				resource: 'image',
				operation: 'generate',
				prompt: 'x',
				options: { useBatchApi: true, maxCredits: 100 },
			},
		});
		expect(error?.message).toContain('Max Credits cannot be combined with Use Batch API');
		expect(fx.sandbox.state.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
	});
});
