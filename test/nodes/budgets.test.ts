// Budgets: Max Credits per Execution (node option) and the credential's Credit Limit per Day / per
// Month, checked against the service's ledger (GET /usage) and the runs in flight, before anything
// is sent; with Continue On Fail, Retry On Fail, n8n's execution Retry and Use Batch API.
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { WorkflowExecute } from 'n8n-core';

import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenProduct } from '../../nodes/MediaGenProduct/MediaGenProduct.node';
import { SANDBOX_API_KEY } from '../../sandbox/options';
import { creditsPerUnpricedItem } from '../../src/spend/spend-options';
import {
	buildWorkflow,
	ensureBinaryData,
	retryExecution,
	runNode,
	startingData,
	type NodeRun,
} from '../helpers/n8n-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';

/** image.aurora-2 costs 4 credits an image on the sandbox */
const PER_IMAGE = 4;

describe('budgets', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture({ latencyMs: 100 });
	});
	afterEach(async () => fx.sandbox.close());

	const generate = (options: IDataObject = {}, extra: IDataObject = {}) => ({
		resource: 'image',
		operation: 'generate',
		prompt: '={{ $json.prompt }}',
		count: '={{ $json.count ?? 1 }}',
		...extra,
		options,
	});
	const prompts = (...counts: number[]) =>
		counts.map((count, i) => ({ json: { prompt: `poster ${i}`, count } }));
	const run = (
		parameters: IDataObject,
		input: INodeExecutionData[],
		more: Partial<Parameters<typeof runNode>[0]> = {},
	) =>
		runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters,
			input,
			...more,
		});
	const keepGoing = { settings: { onError: 'continueRegularOutput' as const } };
	const hints = (result: NodeRun) =>
		(result.run.data.resultData.runData.MediaGen?.at(-1)?.hints ?? []).map((h) => h.message);
	const limitCredential = (limits: IDataObject, apiKey = SANDBOX_API_KEY) =>
		fx.credentials.set('mediaGenApi', { baseUrl: fx.sandbox.baseUrl, apiKey, ...limits });
	const submits = () => posts(fx.sandbox, '/images/generations');

	describe('Max Credits per Execution', () => {
		it('prices every item first and refuses, item by item, one whose price would pass the budget; a later item that fits is still sent', async () => {
			// 8 + 8 would pass 12; 4 still fits after the first 8
			const result = await run(
				generate({ maxCreditsPerExecution: 12 }),
				prompts(2, 2, 1),
				keepGoing,
			);
			expect(result.items.map((i) => i.json.code ?? i.json.status)).toEqual([
				'completed',
				'budget_exceeded',
				'completed',
			]);
			expect(result.items[1].json).toMatchObject({
				budget: 'per_execution',
				limit: 12,
				spent: 0,
				admitted: 8,
				quoted: 8,
				remaining: 4,
			});
			expect(result.items[1].json.error).toBe(
				"Max Credits per Execution: this item costs 8 credits; this node's items in this execution already take 8 of 12",
			);
			// all three priced before the first submit
			const requests = fx.sandbox.state.requests
				.filter((r) => r.method === 'POST')
				.map((r) => r.path);
			expect(requests.slice(0, 3)).toEqual(Array(3).fill('/v1/models/estimate-cost'));
			expect(submits()).toHaveLength(2);
			expect(fx.sandbox.state.ledger.map((e) => e.credits)).toEqual([8, 4]);
			// what remains, on each output item and in the hint
			expect(result.items[0].json).toMatchObject({
				usage: { credits: 8 },
				quoted_credits: 8,
				budget: { per_execution: { limit: 12, used: 12, remaining: 0 } },
			});
			expect(hints(result)).toEqual(
				expect.arrayContaining([
					'Charged 12 credits for 2 runs (quoted before sending: 12 for 2).',
					'Max Credits per Execution: 0 of 12 credits left',
				]),
			);
		});

		it('with Simplify (node version 2) the flat item carries what it was charged, its quote and what remains', async () => {
			const result = await run(
				{ ...generate({ maxCreditsPerExecution: 12 }), simplify: true },
				prompts(2),
				{ typeVersion: 2 },
			);
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({
				status: 'completed',
				credits: 8,
				quoted_credits: 8,
				quote: { credits: 8, model: 'image.aurora-2', currency: 'credits' },
				budget: { per_execution: { limit: 12, used: 8, remaining: 4 } },
			});
			expect(result.items[0].json.usage).toBeUndefined();
		});

		it('without Continue On Fail the node stops before anything is sent', async () => {
			const result = await run(generate({ maxCreditsPerExecution: 10 }), prompts(1, 1, 1));
			expect(result.error?.message).toBe(
				"Max Credits per Execution: this item costs 4 credits; this node's items in this execution already take 8 of 10",
			);
			expect(submits()).toHaveLength(0);
			expect(fx.sandbox.state.ledger).toEqual([]);
		});

		it('covers every run of the node in one execution (a loop runs it again): the second run gets what the first left', async () => {
			await ensureBinaryData();
			const { workflow, node, additionalData, name } = buildWorkflow({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate({ maxCreditsPerExecution: 12 }),
				settings: { onError: 'continueRegularOutput' },
			});
			const data = startingData(node, prompts(1, 1));
			// the node on the stack twice: n8n runs it a second time in the same execution (run index 1), as a loop does
			data.executionData!.nodeExecutionStack.push({
				node,
				data: { main: [prompts(1, 1)] },
				source: null,
			});
			const run = await new WorkflowExecute(additionalData, 'manual', data).processRunExecutionData(
				workflow,
			);
			const [first, second] = run.data.resultData.runData[name].map((task) =>
				(task.data?.main[0] ?? []).map((i) => String(i.json.code ?? i.json.status)),
			);
			expect(first).toEqual(['completed', 'completed']);
			expect(second).toEqual(['completed', 'budget_exceeded']);
			expect(run.data.resultData.runData[name][1].data!.main[0]![1].json).toMatchObject({
				budget: 'per_execution',
				spent: 8,
				admitted: 4,
				quoted: 4,
				limit: 12,
			});
			expect(fx.sandbox.state.ledger).toHaveLength(3);
		});

		it('with Retry On Fail: the retry replays the admitted runs (no new estimate, no refusal) and each is charged once', async () => {
			fx.sandbox.injectFault({
				when: 'before',
				method: 'GET',
				path: /^\/runs/,
				status: 404,
				count: 4,
			});
			const result = await run(generate({ maxCreditsPerExecution: 12 }), prompts(1, 1, 1), {
				settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 },
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((i) => i.json.status)).toEqual([
				'completed',
				'completed',
				'completed',
			]);
			expect(posts(fx.sandbox, '/models/estimate-cost')).toHaveLength(3);
			expect(submits()).toHaveLength(3);
			expect(fx.sandbox.state.ledger).toHaveLength(3);
		});

		it("with n8n's execution Retry of a failed execution: replayed runs count, nothing is refused or paid again", async () => {
			fx.sandbox.injectFault({
				when: 'before',
				method: 'GET',
				path: /^\/runs/,
				status: 404,
				count: 1000,
			});
			const failed = await run(generate({ maxCreditsPerExecution: 8 }), prompts(1, 1), {
				executionId: 'exec-failed',
			});
			expect(failed.error).toBeDefined();
			fx.sandbox.state.faults.length = 0;
			const retried = await retryExecution(failed, {
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate({ maxCreditsPerExecution: 8 }),
				executionId: 'exec-retry',
				loadWorkflow: false,
			});
			expect(retried.error).toBeUndefined();
			expect(submits()).toHaveLength(2);
			expect(fx.sandbox.state.ledger).toHaveLength(2);
		});

		it('with Use Batch API: each item is estimated, the batch carries the admitted items only', async () => {
			const result = await run(
				generate({ maxCreditsPerExecution: 8, useBatchApi: true }),
				prompts(1, 1, 1),
				keepGoing,
			);
			expect(result.items.map((i) => i.json.code ?? i.json.status)).toEqual([
				'completed',
				'completed',
				'budget_exceeded',
			]);
			const [batch] = posts(fx.sandbox, '/batches');
			expect((batch.body as { items: unknown[] }).items).toHaveLength(2);
			expect(fx.sandbox.state.ledger).toHaveLength(2);
		});

		it.each([
			['an empty value', '={{ "" }}', 'an empty value'],
			['blank text', '={{ "  " }}', 'an empty value'],
			['a list', '={{ [] }}', '[]'],
			['infinity', '={{ 1/0 }}', 'Infinity'],
			['a negative number', -1, '-1'],
		])('refuses %s, naming the field, before anything is sent', async (_name, value, shown) => {
			const { error } = await run(generate({ maxCreditsPerExecution: value }), prompts(1));
			expect(error?.message).toBe(
				`Max Credits per Execution: ${shown} is not allowed; allowed: a number of credits of 0 or more`,
			);
			expect(fx.sandbox.state.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
		});
	});

	describe("the credential's Credit Limit per Day / per Month (the service's ledger)", () => {
		async function spend(count: number) {
			const { error } = await run(generate(), prompts(count));
			expect(error).toBeUndefined();
		}

		it('counts what the account was charged today and refuses an item that would pass the limit, with spent, quoted and limit', async () => {
			await spend(2);
			limitCredential({ creditLimitPerDay: '16' });
			const result = await run(generate(), prompts(1, 1, 1), keepGoing);
			expect(result.items.map((i) => i.json.code ?? i.json.status)).toEqual([
				'completed',
				'completed',
				'budget_exceeded',
			]);
			expect(result.items[2].json).toMatchObject({
				code: 'budget_exceeded',
				budget: 'per_day',
				limit: 16,
				spent: 8,
				in_flight: 0,
				admitted: 8,
				quoted: PER_IMAGE,
				remaining: 0,
			});
			expect(String(result.items[2].json.since)).toMatch(/^\d{4}-\d\d-\d\dT00:00:00\.000Z$/);
			expect(result.items[0].json.budget).toEqual({
				per_day: { limit: 16, used: 16, remaining: 0, since: result.items[2].json.since },
			});
			expect(fx.sandbox.state.ledger.map((e) => e.credits)).toEqual([8, 4, 4]);
			const usage = fx.sandbox.state.requests.filter(
				(r) => r.method === 'GET' && r.path === '/v1/usage',
			);
			expect(usage).toHaveLength(1);
		});

		it('counts the runs still in flight, which the ledger does not show yet', async () => {
			fx.sandbox.state.options.latencyMs = 60_000;
			// two runs of 8 credits each, submitted and not waited for: reserved, not charged
			const queued = await run(generate({}, { waitForCompletion: false }), prompts(2, 2));
			expect(queued.items.map((i) => i.json.status)).toEqual(['queued', 'queued']);
			limitCredential({ creditLimitPerDay: '19' });
			const result = await run(generate({}, { waitForCompletion: false }), prompts(1), keepGoing);
			expect(result.items[0].json).toMatchObject({
				code: 'budget_exceeded',
				spent: 0,
				in_flight: 16,
				quoted: PER_IMAGE,
				limit: 19,
			});
			expect(fx.sandbox.state.runs.size).toBe(2);
		});

		it('a run in flight the node cannot price (no model to estimate) is counted as 0 and reported', async () => {
			fx.sandbox.state.options.latencyMs = 60_000;
			const extraction = await runNode({
				nodeType: new MediaGenProduct(),
				credentials: fx.credentials,
				parameters: {
					resource: 'product',
					operation: 'extract',
					url: 'https://shop.example.com/p/7',
					waitForCompletion: false,
				},
			});
			expect(extraction.items[0].json).toMatchObject({ status: 'queued', model: null });
			limitCredential({ creditLimitPerDay: '3' });
			const result = await run(generate(), prompts(1), keepGoing);
			expect(result.items[0].json).toMatchObject({
				code: 'budget_exceeded',
				in_flight: 0,
				unpriced_in_flight: 1,
				quoted: PER_IMAGE,
				limit: 3,
			});
		});

		it('the month limit counts the whole month, and both limits apply (the tighter one refuses)', async () => {
			await spend(1);
			limitCredential({ creditLimitPerDay: '100', creditLimitPerMonth: '8' });
			const result = await run(generate(), prompts(1, 1), keepGoing);
			expect(result.items.map((i) => i.json.code ?? i.json.status)).toEqual([
				'completed',
				'budget_exceeded',
			]);
			expect(result.items[1].json).toMatchObject({
				budget: 'per_month',
				limit: 8,
				spent: 4,
				admitted: 4,
			});
			expect(String(result.items[1].json.since)).toMatch(/^\d{4}-\d\d-01T00:00:00\.000Z$/);
			expect(result.items[0].json.budget).toMatchObject({
				per_day: { remaining: 92 },
				per_month: { remaining: 0 },
			});
		});

		it('an operation the node cannot price (Product → Extract) is counted at Credits per Unpriced Item, and refused without it', async () => {
			limitCredential({ creditLimitPerDay: '5' });
			const product = (url: string, options: IDataObject = {}) =>
				runNode({
					nodeType: new MediaGenProduct(),
					credentials: fx.credentials,
					parameters: { resource: 'product', operation: 'extract', url, options },
					...keepGoing,
				});
			const unstated = await product('https://shop.example.com/p/0');
			expect(unstated.items[0].json).toMatchObject({ code: 'budget_exceeded', quoted: null });
			expect(String(unstated.items[0].json.error)).toContain(
				`cannot be priced before it is sent and ${creditsPerUnpricedItem.displayName} is not set`,
			);
			const first = await product('https://shop.example.com/p/1', {
				[creditsPerUnpricedItem.name]: 1,
			});
			expect(first.items[0].json.status).toBe('completed');
			await spend(1);
			const refused = await product('https://shop.example.com/p/2', {
				[creditsPerUnpricedItem.name]: 1,
			});
			expect(refused.items[0].json).toMatchObject({ code: 'budget_exceeded', quoted: 1 });
			expect(posts(fx.sandbox, '/products/extract')).toHaveLength(1);
		});

		it('a key that cannot read the ledger (no runs:read): nothing new is sent (the limit could not be checked)', async () => {
			limitCredential(
				{ creditLimitPerDay: '100' },
				fx.sandbox.state.createApiKey(['images:write', 'models:read']),
			);
			const { error } = await run(generate(), prompts(1));
			expect(error?.message).toMatch(/^insufficient_scope/);
			expect(submits()).toHaveLength(0);
		});

		it.each([
			['text', 'lots', '"lots"'],
			['a negative number', '-5', '"-5"'],
		])('refuses a limit set to %s, naming the credential field', async (_name, value, shown) => {
			limitCredential({ creditLimitPerMonth: value });
			const { error } = await run(generate(), prompts(1));
			expect(error?.message).toBe(
				`Credit Limit per Month (credential): ${shown} is not allowed; allowed: a number of credits of 0 or more`,
			);
			expect(fx.sandbox.state.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
		});

		it('an empty limit is no limit: no ledger read', async () => {
			limitCredential({ creditLimitPerDay: '', creditLimitPerMonth: '  ' });
			const { error } = await run(generate(), prompts(1));
			expect(error).toBeUndefined();
			expect(fx.sandbox.state.requests.filter((r) => r.path === '/v1/usage')).toHaveLength(0);
		});

		it('with Retry On Fail: runs admitted by the first try are replayed, not counted again or refused', async () => {
			limitCredential({ creditLimitPerDay: '8' });
			fx.sandbox.injectFault({
				when: 'before',
				method: 'GET',
				path: /^\/runs\/run_/,
				status: 404,
				count: 2,
			});
			const result = await run(generate(), prompts(1, 1), {
				settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 },
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((i) => i.json.status)).toEqual(['completed', 'completed']);
			expect(submits()).toHaveLength(2);
			expect(fx.sandbox.state.ledger).toHaveLength(2);
		});
	});
});
