// Issue 32, money: budgets see everything that will be charged (runs in flight, queued batch items,
// Create From Items bodies), an operation the node cannot price is never admitted at 0, a negative
// price is an unexpected answer, a budget binds the price it admitted at, and an empty input binary
// is refused before anything is uploaded. Each case charged more than the user allowed before.
import { sleep, type IDataObject, type INodeExecutionData } from 'n8n-workflow';

import { MediaGenBatch } from '../../nodes/MediaGenBatch/MediaGenBatch.node';
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenProduct } from '../../nodes/MediaGenProduct/MediaGenProduct.node';
import { SANDBOX_API_KEY } from '../../sandbox/options';
import { creditsPerUnpricedItem, maxCreditsPerExecution } from '../../src/spend/spend-options';
import { maxParallelSubmits, useBatchApi } from '../../src/runs/submit-options';
import { runNode } from '../helpers/n8n-harness';
import {
	forgeEstimate as forgeQuote,
	posts,
	startFixture,
	type Fixture,
} from '../helpers/sandbox-fixture';

/** image.aurora-2 costs 4 credits an image on the sandbox */
const PER_IMAGE = 4;
const MODEL = 'image.aurora-2';

describe('every credit accounted for (issue 32)', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture({ latencyMs: 100 });
	});
	afterEach(async () => fx.sandbox.close());

	const generate = (options: IDataObject = {}, extra: IDataObject = {}) => ({
		resource: 'image',
		operation: 'generate',
		prompt: '={{ $json.prompt }}',
		...extra,
		options,
	});
	const prompts = (n: number) =>
		Array.from({ length: n }, (_, i) => ({ json: { prompt: `poster ${i}` } }));
	const image = (
		parameters: IDataObject,
		input: INodeExecutionData[],
		settings: IDataObject = { onError: 'continueRegularOutput' },
	) =>
		runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters,
			input,
			settings,
		});
	/** Image bodies naming the model, for Create From Items. */
	const tiles = (n: number) =>
		Array.from({ length: n }, (_, i) => ({ json: { prompt: `tile ${i}`, model: MODEL } }));
	/** MediaGen Batch → Create From Items of image bodies; `keepGoing`: Continue On Fail. */
	const createFromItems = (
		input: INodeExecutionData[],
		extra: IDataObject = {},
		keepGoing = false,
	) =>
		runNode({
			nodeType: new MediaGenBatch(),
			credentials: fx.credentials,
			parameters: {
				resource: 'batch',
				operation: 'create',
				mode: 'operation',
				target: 'POST /images/generations',
				...extra,
			},
			input,
			...(keepGoing ? { settings: { onError: 'continueRegularOutput' } } : {}),
		});
	const limitCredential = (limits: IDataObject) =>
		fx.credentials.set('mediaGenApi', {
			baseUrl: fx.sandbox.baseUrl,
			apiKey: SANDBOX_API_KEY,
			...limits,
		});
	/** The service's estimate forged to `credits`, `count` times (once when absent). */
	const forgeEstimate = (credits: number, token: string, count?: number) =>
		forgeQuote(fx.sandbox, MODEL, credits, token, count);
	const charged = () => fx.sandbox.state.ledger.reduce((sum, e) => sum + e.credits, 0);
	const codes = (items: INodeExecutionData[]) => items.map((i) => i.json.code ?? i.json.status);

	it('finding 1: the day limit counts the queued items of a batch still running (they have no run yet)', async () => {
		fx.sandbox.state.options.latencyMs = 60_000;
		// execution A: a batch of 5 images, one started at a time, not waited for
		const a = await image(
			generate(
				{ [useBatchApi.name]: true, [maxParallelSubmits.name]: 1 },
				{ waitForCompletion: false },
			),
			prompts(5),
		);
		expect(codes(a.items)).toEqual(Array(5).fill('queued'));
		limitCredential({ creditLimitPerDay: '20' });
		// execution B: one image while A's batch runs: A will still charge 20
		const b = await image(generate({}, { waitForCompletion: false }), prompts(1));
		expect(b.items[0].json).toMatchObject({
			code: 'budget_exceeded',
			budget: 'per_day',
			in_flight: 5 * PER_IMAGE,
			quoted: PER_IMAGE,
			limit: 20,
		});
		expect(posts(fx.sandbox, '/images/generations')).toHaveLength(0);
	});

	it('finding 2: Batch → Create From Items prices every item body and admits the batch against the budget before sending', async () => {
		await image(generate(), prompts(1));
		expect(charged()).toBe(PER_IMAGE);
		limitCredential({ creditLimitPerDay: '5' });
		const result = await createFromItems(tiles(5), { waitForCompletion: false }, true);
		expect(result.items.map((i) => i.json.code)).toEqual(Array(5).fill('budget_exceeded'));
		expect(result.items[0].json).toMatchObject({ spent: PER_IMAGE, quoted: PER_IMAGE, limit: 5 });
		expect(posts(fx.sandbox, '/models/estimate-cost')).toHaveLength(5);
		expect(posts(fx.sandbox, '/batches')).toHaveLength(0);
	});

	it('finding 2: Create From Items sends only the bodies that fit, priced at their estimate', async () => {
		limitCredential({ creditLimitPerDay: '9' });
		const result = await createFromItems(tiles(3), {}, true);
		expect(codes(result.items)).toEqual(['completed', 'completed', 'budget_exceeded']);
		const [batch] = posts(fx.sandbox, '/batches');
		expect((batch.body as { items: unknown[] }).items).toHaveLength(2);
		expect(charged()).toBe(2 * PER_IMAGE);
	});

	describe('finding 3: an operation the node cannot price', () => {
		const extract = (count: number, options: IDataObject = {}) =>
			runNode({
				nodeType: new MediaGenProduct(),
				credentials: fx.credentials,
				parameters: {
					resource: 'product',
					operation: 'extract',
					url: '={{ $json.url }}',
					options,
				},
				input: Array.from({ length: count }, (_, i) => ({
					json: { url: `https://shop.example.com/p/${i}` },
				})),
				settings: { onError: 'continueRegularOutput' },
			});

		it('is refused under a budget unless the user states what it may cost, naming the option', async () => {
			await image(generate(), prompts(1));
			limitCredential({ creditLimitPerDay: '5' });
			const result = await extract(4);
			expect(result.items.map((i) => i.json.code)).toEqual(Array(4).fill('budget_exceeded'));
			expect(String(result.items[0].json.error)).toContain(creditsPerUnpricedItem.displayName);
			expect(posts(fx.sandbox, '/products/extract')).toHaveLength(0);
		});

		it('is admitted at the credits the user stated, item by item, while they fit', async () => {
			await image(generate(), prompts(1));
			limitCredential({ creditLimitPerDay: '8' });
			const result = await extract(4, { [creditsPerUnpricedItem.name]: 2 });
			expect(codes(result.items)).toEqual([
				'completed',
				'completed',
				'budget_exceeded',
				'budget_exceeded',
			]);
			expect(result.items[2].json).toMatchObject({ spent: 4, admitted: 4, quoted: 2 });
			expect(posts(fx.sandbox, '/products/extract')).toHaveLength(2);
		});
	});

	/** A batch of two images made from items, the second failed at the service (nothing charged for it). */
	async function batchWithAFailedItem(model?: string) {
		const made = await createFromItems(
			[0, 1].map((i) => ({
				json: {
					prompt: `tile ${i}`,
					...(model ? { model } : {}),
					...(i === 1 ? { sandbox_fail: 'provider_error' } : {}),
				},
			})),
		);
		expect(codes(made.items)).toEqual(['completed', 'failed']);
		expect(charged()).toBe(PER_IMAGE);
		return made.items[1].json;
	}
	const retry = (failed: IDataObject, options: IDataObject = {}) =>
		runNode({
			nodeType: new MediaGenBatch(),
			credentials: fx.credentials,
			parameters: {
				resource: 'batchItem',
				operation: 'retry',
				batchId: String(failed.batch_id),
				itemId: String(failed.id),
				options,
			},
			settings: { onError: 'continueRegularOutput' },
		});
	const retries = () =>
		fx.sandbox.state.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/retry'));

	describe('Batch Item → Retry: a failed item run again is priced and admitted like a submit', () => {
		it('refused when its estimate would pass the day limit: nothing is sent', async () => {
			const failed = await batchWithAFailedItem(MODEL);
			limitCredential({ creditLimitPerDay: String(PER_IMAGE + PER_IMAGE - 1) });
			const result = await retry(failed);
			expect(result.items[0].json).toMatchObject({
				code: 'budget_exceeded',
				budget: 'per_day',
				spent: PER_IMAGE,
				quoted: PER_IMAGE,
				limit: 2 * PER_IMAGE - 1,
			});
			expect(retries()).toHaveLength(0);
		});

		it('admitted at its estimate when it fits, and run again', async () => {
			const failed = await batchWithAFailedItem(MODEL);
			limitCredential({ creditLimitPerDay: String(2 * PER_IMAGE) });
			const result = await retry(failed);
			expect(result.items[0].json).toEqual(
				expect.objectContaining({ id: failed.id, status: 'queued' }),
			);
			expect(retries()).toHaveLength(1);
		});

		it('one whose echo names no model cannot be priced: refused unless Credits per Unpriced Item says what it may cost', async () => {
			const failed = await batchWithAFailedItem();
			limitCredential({ creditLimitPerDay: '100' });
			const refused = await retry(failed);
			expect(refused.items[0].json.code).toBe('budget_exceeded');
			expect(String(refused.items[0].json.error)).toContain(creditsPerUnpricedItem.displayName);
			expect(retries()).toHaveLength(0);
			const admitted = await retry(failed, { [creditsPerUnpricedItem.name]: PER_IMAGE });
			expect(admitted.items[0].json).toEqual(expect.objectContaining({ status: 'queued' }));
			expect(retries()).toHaveLength(1);
		});
	});

	it('finding 4: a negative estimate is an unexpected answer, not a discount', async () => {
		forgeEstimate(-100, 'q1.forged.sig');
		const result = await image(
			generate({ [maxCreditsPerExecution.name]: 8 }, { waitForCompletion: false }),
			prompts(3),
		);
		expect(result.items[0].json.code).toBe('unexpected_response');
		expect(codes(result.items).slice(1)).toEqual(['queued', 'queued']);
		expect(posts(fx.sandbox, '/images/generations')).toHaveLength(2);
	});

	it('finding 5: a budget binds the price it admitted at: each submit carries its quote_token', async () => {
		// the service quotes 1 credit and would charge 4: with the quote bound it cannot
		forgeEstimate(1, 'q1.underquoted.sig', 3);
		const result = await image(generate({ [maxCreditsPerExecution.name]: 8 }), prompts(3));
		const sent = posts(fx.sandbox, '/images/generations');
		expect(sent.map((r) => (r.body as IDataObject).quote_token)).toEqual(
			Array(3).fill('q1.underquoted.sig'),
		);
		expect(charged()).toBeLessThanOrEqual(8);
		expect(result.items.map((i) => i.json.code)).toEqual(Array(3).fill('quote_invalid'));
	});

	it('finding 5: an honest quote admitted by a day limit is bound and charged exactly', async () => {
		limitCredential({ creditLimitPerDay: '100' });
		const result = await image(generate(), prompts(2));
		expect(codes(result.items)).toEqual(['completed', 'completed']);
		const sent = posts(fx.sandbox, '/images/generations');
		expect(sent.map((r) => typeof (r.body as IDataObject).quote_token)).toEqual([
			'string',
			'string',
		]);
		expect(charged()).toBe(2 * PER_IMAGE);
	});

	it('finding 5: a bound quote that lapsed before the submit is replaced once by the fresh quote of the 409, when it is within the price the budget admitted', async () => {
		fx.sandbox.state.options.quoteTtlSeconds = 1;
		fx.sandbox.injectFault({
			when: 'before',
			method: 'POST',
			path: '/images/generations',
			delayMs: 1300,
		});
		limitCredential({ creditLimitPerDay: '100' });
		const result = await image(generate(), prompts(1));
		expect(codes(result.items)).toEqual(['completed']);
		expect(posts(fx.sandbox, '/images/generations').map((r) => r.status)).toEqual([409, 202]);
		expect(charged()).toBe(PER_IMAGE);
	});

	it('finding 5: a job named by its own key is admitted at its quote but not bound, so a re-run replays its run (charged once)', async () => {
		limitCredential({ creditLimitPerDay: '100' });
		const job = generate({ idempotencyKey: '={{ $json.sku }}' });
		const input = [{ json: { prompt: 'poster', sku: 'sku-1' } }];
		const first = await image(job, input);
		const again = await image(job, input);
		expect(codes(first.items)).toEqual(['completed']);
		expect(again.items[0].json.id).toBe(first.items[0].json.id);
		expect((posts(fx.sandbox, '/images/generations')[0].body as IDataObject).quote_token).toBe(
			undefined,
		);
		expect(charged()).toBe(PER_IMAGE);
	});

	it('finding 8: an empty (0-byte) input binary is refused before anything is uploaded, naming the field', async () => {
		const result = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: {
				resource: 'image',
				operation: 'removeBackground',
				imageUrlSource: 'binary',
				imageUrlBinaryProperty: 'photo',
			},
			input: [
				{
					json: {},
					binary: { photo: { data: '', mimeType: 'image/png', fileName: 'empty.png' } },
				},
			],
		});
		expect(result.error?.message).toMatch(/photo/);
		expect(result.error?.message).toMatch(/empty/);
		expect(fx.sandbox.state.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
		expect(fx.sandbox.state.ledger).toEqual([]);
	});

	// The figures docs/spend-control.md states as each rule's worst case.
	describe('worst-case overshoot, measured', () => {
		const holdLedgerReads = (count: number) =>
			fx.sandbox.injectFault({
				when: 'after',
				method: 'GET',
				path: '/usage',
				delayMs: 1000,
				count,
			});

		it('priced items: two executions checking at the same moment pass the day limit by what the second admitted beyond what was left', async () => {
			limitCredential({ creditLimitPerDay: '12' });
			holdLedgerReads(2);
			const [a, b] = await Promise.all([
				image(generate(), prompts(2)),
				image(generate(), prompts(2)),
			]);
			expect([...codes(a.items), ...codes(b.items)]).toEqual(Array(4).fill('completed'));
			// each saw 0 spent and nothing in flight, so each admitted 8 of 12
			expect(charged()).toBe(16);
			expect(charged() - 12).toBe(4);
		});

		it('queued batch items: an execution checking after a batch was created counts every queued item, so no overshoot', async () => {
			fx.sandbox.state.options.latencyMs = 60_000;
			limitCredential({ creditLimitPerDay: '24' });
			const a = await image(
				generate(
					{ [useBatchApi.name]: true, [maxParallelSubmits.name]: 1 },
					{ waitForCompletion: false },
				),
				prompts(5),
			);
			expect(codes(a.items)).toEqual(Array(5).fill('queued'));
			const b = await image(generate({}, { waitForCompletion: false }), prompts(2));
			// 20 in flight (1 run + 4 queued items) + 4 fits 24; the second 4 does not
			expect(codes(b.items)).toEqual(['queued', 'budget_exceeded']);
			expect(b.items[1].json).toMatchObject({ in_flight: 20, admitted: 4, limit: 24 });
		});

		it('unpriced items: admitted at Credits per Unpriced Item, charged what the service asks: the overshoot is what each costs beyond the figure stated', async () => {
			limitCredential({ creditLimitPerDay: '2' });
			const result = await runNode({
				nodeType: new MediaGenProduct(),
				credentials: fx.credentials,
				parameters: {
					resource: 'product',
					operation: 'extract',
					url: '={{ $json.url }}',
					options: { [creditsPerUnpricedItem.name]: 0.5 },
				},
				input: Array.from({ length: 4 }, (_, i) => ({
					json: { url: `https://shop.example.com/p/${i}` },
				})),
			});
			expect(codes(result.items)).toEqual(Array(4).fill('completed'));
			// Product → Extract costs 1 credit on the sandbox; stated 0.5, so 4 items fit a limit of 2
			expect(fx.sandbox.state.ledger.map((e) => e.credits)).toEqual([1, 1, 1, 1]);
			expect(charged() - 2).toBe(2);
		});

		it('Create From Items bodies: admitted at their estimate, not bound (a batch item may wait past its quote): a service that under-quotes passes the limit', async () => {
			limitCredential({ creditLimitPerDay: '3' });
			forgeEstimate(1, 'q1.underquoted.sig', 3);
			const result = await createFromItems(tiles(3));
			expect(codes(result.items)).toEqual(Array(3).fill('completed'));
			expect(charged()).toBe(3 * PER_IMAGE);
			expect(charged() - 3).toBe(9);
		});

		it('a failed batch item run again (Batch Item → Retry): admitted at the estimate of its echo, not bound: a service that under-quotes passes the limit', async () => {
			const failed = await batchWithAFailedItem(MODEL);
			limitCredential({ creditLimitPerDay: String(PER_IMAGE + 1) });
			forgeEstimate(1, 'q1.underquoted.sig', 1);
			const result = await retry(failed);
			expect(result.items[0].json).toEqual(expect.objectContaining({ status: 'queued' }));
			for (let waited = 0; fx.sandbox.state.ledger.length < 2 && waited < 100; waited++)
				await sleep(100);
			expect(charged()).toBe(2 * PER_IMAGE);
			expect(charged() - (PER_IMAGE + 1)).toBe(3);
		});
	});
});
