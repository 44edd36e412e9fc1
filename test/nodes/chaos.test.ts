import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { runNode } from '../helpers/n8n-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';

const ITEMS = 300;

describe('300 items under 20 % chaos (500/503, 429, resets before and after the run exists, slow replies)', () => {
	let fx: Fixture;
	beforeAll(async () => {
		fx = await startFixture({
			latencyMs: 300,
			chaos: 0.2,
			chaosSlowMs: 1500,
			rateLimitPerSecond: 100000,
			concurrencyPerAccount: 100,
		});
	});
	afterAll(async () => fx.sandbox.close());

	it('creates exactly one run per item, charges none twice, and accounts for every item', async () => {
		const input = Array.from({ length: ITEMS }, (_, i) => ({ json: { prompt: `poster ${i}` } }));
		const { items, error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: {
				resource: 'image',
				operation: 'generate',
				prompt: '={{ $json.prompt }}',
				options: { requestTimeout: 1, concurrency: 10, returnUrlsOnly: true },
			},
			settings: { onError: 'continueRegularOutput' },
			input,
		});
		expect(error).toBeUndefined();
		const { state } = fx.sandbox;

		// every item is accounted for, in input order
		expect(items.map((i) => i.pairedItem)).toEqual(input.map((_, item) => ({ item })));
		for (const item of items) {
			const ok = item.json.status === 'completed';
			const clearError = typeof item.json.error === 'string' && typeof item.json.code === 'string';
			expect(ok || clearError).toBe(true);
		}
		// one run per item: chaos replays never made a second one
		const prompts = [...state.runs.values()].map((r) => r.run.input_summary as { prompt: string });
		expect(state.runs.size).toBe(ITEMS);
		expect(new Set(prompts.map((p) => p.prompt)).size).toBe(ITEMS);
		// none charged twice, and every completed run charged once
		const charged = state.ledger.map((e) => e.run_id);
		expect(new Set(charged).size).toBe(charged.length);
		const completed = [...state.runs.values()]
			.filter((r) => r.run.status === 'completed')
			.map((r) => r.run.id);
		expect(charged.sort()).toEqual(completed.sort());
		// and the chaos really happened
		expect(state.requests.filter((r) => r.status === 0 || r.status >= 500).length).toBeGreaterThan(
			20,
		);
		expect(state.requests.some((r) => r.status === 429)).toBe(true);
	}, 300_000);
});

describe('a misbehaving service while a run is waited for', () => {
	let fx: Fixture;
	beforeAll(async () => {
		fx = await startFixture({ latencyMs: 60_000 });
	});
	afterAll(async () => fx.sandbox.close());

	it('fails the item at once with unexpected_response when a read of the run answers something that is not a run, instead of waiting for Wait Timeout', async () => {
		fx.sandbox.injectFault({
			when: 'before',
			method: 'GET',
			path: /^\/runs\/run_/,
			status: 200,
			body: '{"message":"maintenance page"}',
			count: 100,
		});
		const { items, error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: {
				resource: 'image',
				operation: 'generate',
				prompt: 'a fox',
				options: { waitTimeout: 20 },
			},
			settings: { onError: 'continueRegularOutput' },
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			code: 'unexpected_response',
			error: expect.stringContaining('run_'),
		});
		expect(String(items[0].json.detail)).toContain('maintenance page');
	}, 60_000);
});
