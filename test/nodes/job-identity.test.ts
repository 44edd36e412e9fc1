// A job is what the node sends (issue 32, findings 6, 7, 10 and 11): an edit that changes only how
// the parameters are spelled keeps every item's job (same key, no second charge); an edit that
// changes what an item sends makes that item, and only that item, a new job; a run that failed at
// the service is submitted again by a retry, and an own key that names a failed job says so.
import type { IDataObject, INodeExecutionData, INodeType } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenBatch } from '../../nodes/MediaGenBatch/MediaGenBatch.node';
import { SANDBOX_API_KEY, SANDBOX_PROJECT_ID, SANDBOX_TEAM_ID } from '../../sandbox/options';
import { makePng } from '../../sandbox/png';
import { retryExecution, runNode } from '../helpers/n8n-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';

let fx: Fixture;
beforeEach(async () => {
	fx = await startFixture({ latencyMs: 50 });
});
afterEach(async () => fx.sandbox.close());

const hintsOf = (result: Awaited<ReturnType<typeof runNode>>) =>
	(result.run.data.resultData.runData.MediaGen?.at(-1)?.hints ?? []).map((h) => h.message);

const photo = (seed: number) => ({
	photo: {
		data: makePng(8, 8, seed).toString('base64'),
		mimeType: 'image/png',
		fileName: `in-${seed}.png`,
	},
});

/** An image generation with an own key from the item, the model picked from the list. */
const base = (): IDataObject => ({
	resource: 'image',
	operation: 'generate',
	prompt: '={{ $json.prompt }}',
	model: {
		__rl: true,
		mode: 'list',
		value: 'image.lumen-xl',
		cachedResultName: 'Lumen XL',
	},
	options: { idempotencyKey: '={{ $json.sku }}' },
});
const input = [{ json: { sku: 'sku-1', prompt: 'a poster' } }];

/**
 * The node as n8n offers it to an AI Agent (its tool variant): n8n adds a Description parameter
 * (`toolDescription`) to the node's own, saved with the workflow like any other.
 */
function imageTool(): INodeType {
	const node = new MediaGenImage();
	node.description = {
		...node.description,
		properties: [
			...node.description.properties,
			{ displayName: 'Description', name: 'toolDescription', type: 'string', default: '' },
		],
	};
	return node;
}

async function submitted(
	parameters: IDataObject,
	nodeType: () => INodeType = () => new MediaGenImage(),
) {
	const before = posts(fx.sandbox, '/images/generations').length;
	const result = await runNode({
		nodeType: nodeType(),
		credentials: fx.credentials,
		parameters,
		input,
	});
	expect(result.error).toBeUndefined();
	const sent = posts(fx.sandbox, '/images/generations').slice(before);
	expect(sent).toHaveLength(1);
	return sent[0];
}

describe('finding 6: the job is the request sent, not the spelling of the parameters', () => {
	const options = (extra: IDataObject) => ({
		...(base().options as IDataObject),
		...extra,
	});
	// every row has three cells: jest takes a shorter row's missing argument for a done callback
	const keepers: Array<[string, IDataObject, (() => INodeType) | undefined]> = [
		[
			'the model picked By ID instead of From List (same alias)',
			{ model: { __rl: true, mode: 'id', value: 'image.lumen-xl' } },
			undefined,
		],
		[
			"the model list's cached label refreshed (cachedResultName)",
			{
				model: {
					__rl: true,
					mode: 'list',
					value: 'image.lumen-xl',
					cachedResultName: 'Lumen XL (new label)',
				},
			},
			undefined,
		],
		['an empty Team ID option', { options: options({ teamId: '' }) }, undefined],
		['an empty Project ID option', { options: options({ projectId: '' }) }, undefined],
		['Tool Description edited', { toolDescription: 'Makes posters for the shop' }, imageTool],
		[
			'Additional Fields added then emptied',
			{ additionalFields: { negativePrompt: '' } },
			undefined,
		],
		[
			'the key expression rewritten',
			{ options: { idempotencyKey: '={{ $json["sku"] }}' } },
			undefined,
		],
	];

	it.each(keepers)(
		'%s: same key, the service replays the first run, one charge',
		async (_, edit, nodeType) => {
			const first = await submitted(base(), nodeType);
			const again = await submitted({ ...base(), ...edit }, nodeType);
			expect(again.idempotencyKey).toBe(first.idempotencyKey);
			expect(fx.sandbox.state.ledger).toHaveLength(1);
		},
	);

	const changers: Array<[string, IDataObject]> = [
		['the prompt', { prompt: '={{ $json.prompt + " in blue" }}' }],
		['the model (another alias)', { model: { __rl: true, mode: 'id', value: 'image.aurora-2' } }],
		['Team ID set', { options: options({ teamId: SANDBOX_TEAM_ID }) }],
		['Project ID set', { options: options({ projectId: SANDBOX_PROJECT_ID }) }],
		['an additional field set', { additionalFields: { negativePrompt: 'text' } }],
		['a number field (Count)', { count: 2 }],
	];

	it.each(changers)('%s changed: a new key and a new run', async (_, edit) => {
		const first = await submitted(base());
		const again = await submitted({ ...base(), ...edit });
		expect(again.idempotencyKey).not.toBe(first.idempotencyKey);
		expect(fx.sandbox.state.ledger).toHaveLength(2);
	});

	describe('an input binary, named by its bytes', () => {
		const removeBackground = (): IDataObject => ({
			resource: 'image',
			operation: 'removeBackground',
			imageUrlSource: 'binary',
			imageUrlBinaryProperty: 'photo',
			options: { idempotencyKey: '={{ $json.sku }}' },
		});
		const withPhoto = (seed: number) => [{ json: { sku: 'sku-1' }, binary: photo(seed) }];
		const sentKey = async (items: INodeExecutionData[]) => {
			const before = posts(fx.sandbox, '/images/background-remove').length;
			await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: removeBackground(),
				input: items,
			});
			return posts(fx.sandbox, '/images/background-remove').slice(before)[0].idempotencyKey;
		};

		// the second upload gets a new asset URL, so the service refuses the same key with another
		// body (idempotency_key_reused): never a second charge for the same bytes
		it('the same bytes again (a new upload, a new asset URL): the same key, one charge', async () => {
			expect(await sentKey(withPhoto(1))).toBe(await sentKey(withPhoto(1)));
			expect(fx.sandbox.state.ledger).toHaveLength(1);
		});

		it('other bytes under the same key value: a new key and a new run', async () => {
			expect(await sentKey(withPhoto(2))).not.toBe(await sentKey(withPhoto(1)));
			expect(fx.sandbox.state.ledger).toHaveLength(2);
		});
	});
});

describe("finding 7: n8n's Retry after an edit makes new jobs only of the items whose request changed", () => {
	const numbered = [1, 2, 3].map((n) => ({ json: { n } }));
	const prompt = (expression: string): IDataObject => ({
		resource: 'image',
		operation: 'generate',
		prompt: expression,
	});

	it.each([false, true])(
		'own key %s: items 0 and 1 replay their paid runs, item 2 is a new job, and the hint names item 2 alone',
		async (ownKey) => {
			const keyed = (parameters: IDataObject) =>
				ownKey
					? { ...parameters, options: { idempotencyKey: '={{ "job-" + $json.n }}' } }
					: parameters;
			// the runs are created, then reading them fails: the execution fails after paying
			fx.sandbox.injectFault({
				when: 'before',
				method: 'GET',
				path: /^\/runs/,
				status: 404,
				count: 1000,
			});
			const failed = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: keyed(prompt('={{ "a fox " + $json.n }}')),
				input: numbered,
				executionId: 'exec-failed',
			});
			expect(failed.error).toBeDefined();
			fx.sandbox.state.faults.length = 0;
			const retried = await retryExecution(failed, {
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				// the same requests for items 0 and 1, spelled another way; another for item 2
				parameters: keyed(prompt('={{ $json.n === 3 ? "a red fox 3" : `a fox ${$json.n}` }}')),
				executionId: 'exec-retry',
				loadWorkflow: true,
			});
			expect(retried.error).toBeUndefined();
			expect(retried.items.map((i) => (i.json.input_summary as IDataObject).prompt)).toEqual([
				'a fox 1',
				'a fox 2',
				'a red fox 3',
			]);
			expect(posts(fx.sandbox, '/images/generations')).toHaveLength(4);
			expect(fx.sandbox.state.ledger).toHaveLength(4);
			const hints = hintsOf(retried).join(' ');
			expect(hints).toContain('Item 2: ');
			expect(hints).not.toMatch(/Items 0/);
		},
	);
});

/**
 * An execution of MediaGen Image whose runs all fail at the service, then n8n's Retry of it (the
 * node as the failed execution ran it) with runs that succeed; `beforeRetry` changes the world in
 * between.
 */
async function failThenRetry(
	parameters: IDataObject,
	items?: INodeExecutionData[],
	beforeRetry: () => void = () => {},
) {
	fx.sandbox.state.options.failureRate = 1;
	const failed = await runNode({
		nodeType: new MediaGenImage(),
		credentials: fx.credentials,
		parameters,
		input: items,
		executionId: 'exec-failed',
	});
	expect(failed.error?.message).toContain('provider_error');
	fx.sandbox.state.options.failureRate = 0;
	beforeRetry();
	const retried = await retryExecution(failed, {
		nodeType: new MediaGenImage(),
		credentials: fx.credentials,
		parameters,
		input: items,
		executionId: 'exec-retry',
		loadWorkflow: false,
	});
	return retried;
}

describe('finding 10: a run that failed at the service is submitted again by a retry, as a new job', () => {
	const generate = { resource: 'image', operation: 'generate', prompt: 'a fox' };

	it('Retry On Fail (3 tries): three submits under three keys, not three reads of one failed run', async () => {
		fx.sandbox.state.options.failureRate = 1;
		const result = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: generate,
			settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 },
		});
		expect(result.error).toBeDefined();
		const sent = posts(fx.sandbox, '/images/generations');
		expect(sent).toHaveLength(3);
		expect(new Set(sent.map((r) => r.idempotencyKey)).size).toBe(3);
		expect(sent.map((r) => r.status)).toEqual([202, 202, 202]);
		expect(fx.sandbox.state.ledger).toHaveLength(0);
	});

	it("n8n's Retry of the execution (unchanged): a new submit under another key, which completes", async () => {
		const retried = await failThenRetry(generate);
		expect(retried.error).toBeUndefined();
		expect(retried.items[0].json.status).toBe('completed');
		const sent = posts(fx.sandbox, '/images/generations');
		expect(sent).toHaveLength(2);
		expect(sent[1].idempotencyKey).not.toBe(sent[0].idempotencyKey);
		expect(fx.sandbox.state.ledger).toHaveLength(1);
	});
});

describe('finding 10, batches: items that failed at the service run again on a retry of the node (POST /batches/{id}/items/{itemId}/retry)', () => {
	const batchApi = {
		resource: 'image',
		operation: 'generate',
		prompt: '={{ $json.prompt }}',
		options: { useBatchApi: true },
	};
	const two = [{ json: { prompt: 'a fox' } }, { json: { prompt: 'a hare' } }];
	const reruns = () =>
		fx.sandbox.state.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/retry'));

	it('Use Batch API: an item that failed at the service fails as its run would without the option, naming its code and batch', async () => {
		fx.sandbox.state.options.failureRate = 1;
		const failed = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: batchApi,
			input: two,
			settings: { onError: 'continueRegularOutput' },
		});
		expect(failed.items.map((i) => [i.json.code, i.json.batch_id])).toEqual([
			['provider_error', expect.stringMatching(/^batch_/)],
			['provider_error', expect.stringMatching(/^batch_/)],
		]);
	});

	it('Use Batch API, Retry On Fail (3 tries): one batch, its failed items run again on tries 2 and 3, nothing charged', async () => {
		fx.sandbox.state.options.failureRate = 1;
		const result = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: batchApi,
			input: two,
			settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 },
		});
		expect(result.error?.message).toContain('provider_error');
		expect(posts(fx.sandbox, '/batches')).toHaveLength(1);
		expect(reruns().map((r) => r.status)).toEqual([200, 200, 200, 200]);
		expect(fx.sandbox.state.ledger).toHaveLength(0);
	});

	it("Use Batch API, n8n's Retry of the execution: the failed items run again in the same batch and complete, charged once each", async () => {
		const retried = await failThenRetry(batchApi, two);
		expect(retried.error).toBeUndefined();
		expect(retried.items.map((i) => i.json.status)).toEqual(['completed', 'completed']);
		expect(posts(fx.sandbox, '/batches')).toHaveLength(1);
		expect(reruns()).toHaveLength(2);
		expect(fx.sandbox.state.ledger.map((e) => e.run_id).sort()).toEqual(
			retried.items.map((i) => String(i.json.run_id)).sort(),
		);
	});

	it("under a budget the run again is priced first: past the credential's day limit nothing runs again", async () => {
		// one image costs 4: room for one of the two items run again; the other is refused, and
		// without Continue On Fail that stops the node before anything runs again
		const retried = await failThenRetry(batchApi, two, () =>
			fx.credentials.set('mediaGenApi', {
				baseUrl: fx.sandbox.baseUrl,
				apiKey: SANDBOX_API_KEY,
				creditLimitPerDay: '5',
			}),
		);
		expect(retried.error?.message).toContain('Credit Limit per Day');
		expect(reruns()).toHaveLength(0);
		expect(fx.sandbox.state.ledger).toHaveLength(0);
	});

	it("Create From Items: after the node failed otherwise (its wait timed out), n8n's Retry runs the batch's failed item again and outputs every item", async () => {
		fx.sandbox.state.options.latencyMs = 1500;
		const create = {
			resource: 'batch',
			operation: 'create',
			mode: 'operation',
			target: 'images/generations',
			options: { waitTimeout: 1 },
		};
		const items = [
			{ json: { prompt: 'tile 0' } },
			{ json: { prompt: 'tile 1', sandbox_fail: 'provider_error' } },
		];
		const failed = await runNode({
			nodeType: new MediaGenBatch(),
			credentials: fx.credentials,
			parameters: create,
			input: items,
			executionId: 'exec-failed',
		});
		expect(failed.error?.message).toContain('did not finish');
		// the batch ends partial: item 1 failed at the service, nothing charged for it
		await sleep(2500);
		expect(fx.sandbox.state.ledger).toHaveLength(1);
		// retried with the saved workflow, its Wait Timeout raised (an edit that keeps the batch)
		const retried = await retryExecution(failed, {
			nodeType: new MediaGenBatch(),
			credentials: fx.credentials,
			parameters: { ...create, options: { waitTimeout: 30 } },
			input: items,
			executionId: 'exec-retry',
			loadWorkflow: true,
		});
		expect(retried.error).toBeUndefined();
		expect(retried.items.map((i) => [i.json.index, i.json.status])).toEqual([
			[0, 'completed'],
			[1, 'completed'],
		]);
		expect(posts(fx.sandbox, '/batches')).toHaveLength(1);
		expect(reruns()).toHaveLength(1);
		expect(fx.sandbox.state.ledger).toHaveLength(2);
	});
});

describe('finding 11: an own key whose run failed', () => {
	it('a new execution gets the failed run back, and the error says the key names a failed job and how to go on', async () => {
		const parameters = {
			...base(),
			prompt: 'a fox',
		};
		fx.sandbox.state.options.failureRate = 1;
		const first = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters,
			input,
		});
		expect(first.error).toBeDefined();
		fx.sandbox.state.options.failureRate = 0;
		const again = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters,
			input,
		});
		expect(again.error?.message).toContain('provider_error');
		expect(again.error?.description).toContain(
			'Idempotency Key "sku-1" (Options) names this failed job',
		);
		expect(again.error?.description).toContain('change the key, e.g. append a suffix ("sku-1-2")');
	});
});
