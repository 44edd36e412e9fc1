// The promise "never charged twice", cell by cell: every kind of input the node sends, under every
// kind of fault that makes it (or n8n's Retry On Fail) send again, through n8n-core's real
// WorkflowExecute. Each cell reads the service's ledger: exactly one run and one charge per item,
// and every item ends with its output because the service completed its run.
import type { IDataObject, INodeExecutionData, INodeType } from 'n8n-workflow';

import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { makePng } from '../../sandbox/png';
import { retryExecution, runNode } from '../helpers/n8n-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';

interface Input {
	name: string;
	nodeType: () => INodeType;
	parameters: IDataObject;
	input: INodeExecutionData[];
	/** the submit route */
	submitPath: string;
	/** reads the first try makes of its runs (or batch) before it has failed under a read fault */
	readsUntilFailure: number;
	readPath: RegExp;
	/** parameters that need the service first (a quote token) */
	prepare?: (fx: Fixture) => Promise<IDataObject>;
}

const photo = (seed: number) => ({
	photo: {
		data: makePng(8, 8, seed).toString('base64'),
		mimeType: 'image/png',
		fileName: `in-${seed}.png`,
	},
});
const runsRead = /^\/runs/;

const inputs: Input[] = [
	{
		name: 'URL only',
		nodeType: () => new MediaGenImage(),
		parameters: { resource: 'image', operation: 'generate', prompt: 'a red fox' },
		input: [{ json: {} }],
		submitPath: '/images/generations',
		readsUntilFailure: 1,
		readPath: runsRead,
	},
	{
		name: 'an input binary (uploaded first)',
		nodeType: () => new MediaGenImage(),
		parameters: {
			resource: 'image',
			operation: 'removeBackground',
			imageUrlSource: 'binary',
			imageUrlBinaryProperty: 'photo',
		},
		input: [{ json: {}, binary: photo(1) }],
		submitPath: '/images/background-remove',
		readsUntilFailure: 1,
		readPath: runsRead,
	},
	{
		name: 'an expression that changes per try ($now)',
		nodeType: () => new MediaGenImage(),
		parameters: {
			resource: 'image',
			operation: 'generate',
			prompt: '={{ "poster " + $now.toMillis() + " " + Math.random() }}',
		},
		input: [{ json: {} }],
		submitPath: '/images/generations',
		readsUntilFailure: 1,
		readPath: runsRead,
	},
	{
		name: 'Max Credits (a quote per try)',
		nodeType: () => new MediaGenImage(),
		parameters: {
			resource: 'image',
			operation: 'generate',
			prompt: 'a red fox',
			options: { maxCredits: 100 },
		},
		input: [{ json: {} }],
		submitPath: '/images/generations',
		readsUntilFailure: 1,
		readPath: runsRead,
	},
	{
		name: 'a Quote Token from an Estimate step, within Max Credits',
		nodeType: () => new MediaGenImage(),
		parameters: {},
		prepare: async (fx) => {
			const priced = { resource: 'image', prompt: 'a red fox', count: 2 };
			const { items } = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: { ...priced, operation: 'generateEstimateCost' },
			});
			return {
				...priced,
				operation: 'generate',
				options: { quoteToken: items[0].json.quote_token, maxCredits: 8 },
			};
		},
		input: [{ json: {} }],
		submitPath: '/images/generations',
		readsUntilFailure: 1,
		readPath: runsRead,
	},
	{
		name: 'Use Batch API with input binaries',
		nodeType: () => new MediaGenImage(),
		parameters: {
			resource: 'image',
			operation: 'removeBackground',
			imageUrlSource: 'binary',
			imageUrlBinaryProperty: 'photo',
			options: { useBatchApi: true },
		},
		input: [1, 2, 3].map((seed) => ({ json: {}, binary: photo(seed) })),
		submitPath: '/batches',
		readsUntilFailure: 1,
		readPath: /^\/batches/,
	},
	{
		name: "the Idempotency Key option naming each item's job ({{ $json.sku }}) for 3 items",
		nodeType: () => new MediaGenImage(),
		parameters: {
			resource: 'image',
			operation: 'generate',
			prompt: '={{ $json.prompt }}',
			options: { idempotencyKey: '={{ $json.sku }}' },
		},
		input: ['a fox', 'a wolf', 'a bear'].map((prompt, i) => ({
			json: { prompt, sku: `sku-${i}` },
		})),
		submitPath: '/images/generations',
		// three runs are read through one list page; when the list is refused, each run is polled on its own
		readsUntilFailure: 4,
		readPath: runsRead,
	},
];

interface FaultCase {
	name: string;
	inject: (fx: Fixture, input: Input) => void;
	/** the faulty answers the service must have given (proof that the cell exercised its fault) */
	faultyAnswers: (fx: Fixture, input: Input) => number;
}

const faults: FaultCase[] = [
	{
		name: 'the reply to the submit is lost after the run exists',
		inject: (fx, input) =>
			fx.sandbox.injectFault({
				when: 'after',
				method: 'POST',
				path: input.submitPath,
				reset: true,
				count: 1,
			}),
		faultyAnswers: (fx, input) =>
			posts(fx.sandbox, input.submitPath).length -
			(input.submitPath === '/batches' ? 1 : input.input.length),
	},
	{
		name: 'reading the run fails, so n8n runs the node again',
		inject: (fx, input) =>
			fx.sandbox.injectFault({
				when: 'before',
				method: 'GET',
				path: input.readPath,
				status: 404,
				count: input.readsUntilFailure,
			}),
		faultyAnswers: (fx) =>
			fx.sandbox.state.requests.filter((r) => r.method === 'GET' && r.status === 404).length,
	},
	{
		name: 'a storm of 503 with Retry-After: 0 during the wait',
		inject: (fx, input) =>
			fx.sandbox.injectFault({
				when: 'before',
				method: 'GET',
				path: input.readPath,
				status: 503,
				retryAfter: 0,
				count: 10,
			}),
		faultyAnswers: (fx) =>
			fx.sandbox.state.requests.filter((r) => r.method === 'GET' && r.status === 503).length,
	},
];

describe('the retry matrix: one run and one charge per item, whatever is retried', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture({ latencyMs: 150 });
	});
	afterEach(async () => fx.sandbox.close());

	describe.each(inputs.map((i) => [i.name, i] as const))('%s', (_name, input) => {
		it.each(faults.map((f) => [f.name, f] as const))('%s', async (_fault, fault) => {
			const parameters = input.prepare ? await input.prepare(fx) : input.parameters;
			fault.inject(fx, input);
			const { items, error } = await runNode({
				nodeType: input.nodeType(),
				credentials: fx.credentials,
				parameters,
				input: input.input,
				settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 },
			});
			expect(error).toBeUndefined();
			expect(fault.faultyAnswers(fx, input)).toBeGreaterThanOrEqual(
				fault.name.startsWith('a storm') ? 10 : 1,
			);

			const count = input.input.length;
			expect(items.map((i) => [i.pairedItem, i.json.status])).toEqual(
				input.input.map((_, item) => [{ item }, 'completed']),
			);
			expect(items.every((i) => i.binary?.data?.mimeType === 'image/png')).toBe(true);

			const runs = [...fx.sandbox.state.runs.values()];
			expect(runs).toHaveLength(count);
			const charged = fx.sandbox.state.ledger.map((e) => e.run_id);
			expect(charged).toHaveLength(count);
			expect(new Set(charged).size).toBe(count);
			// a batch item names its run in run_id
			const runIds = items.map((i) => i.json.run_id ?? i.json.id);
			expect(new Set(runIds)).toEqual(new Set(charged));
		});
	});
});

describe('a re-run of a failed execution', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture({ latencyMs: 150 });
	});
	afterEach(async () => fx.sandbox.close());

	const parameters = (key?: string) => ({
		resource: 'image',
		operation: 'generate',
		prompt: '={{ $json.prompt }}',
		options: key ? { idempotencyKey: key } : {},
	});
	const input = [
		{ json: { prompt: 'a fox', sku: 'sku-1' } },
		{ json: { prompt: 'a wolf', sku: 'sku-2' } },
	];

	async function failThenRerun(key?: string) {
		// the first execution submits, then cannot read its runs and fails for good
		fx.sandbox.injectFault({
			when: 'before',
			method: 'GET',
			path: runsRead,
			status: 404,
			count: 1000,
		});
		const failed = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: parameters(key),
			input,
			executionId: 'exec-first',
		});
		expect(failed.error).toBeDefined();
		fx.sandbox.state.faults.length = 0;
		// n8n's "Retry" of a failed execution is a new execution of the same input
		return await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: parameters(key),
			input,
			executionId: 'exec-retry',
		});
	}

	it('pays again by default: a new execution is a new request', async () => {
		const rerun = await failThenRerun();
		expect(rerun.error).toBeUndefined();
		expect(fx.sandbox.state.ledger).toHaveLength(4);
	});

	it('is free with an Idempotency Key from the item (e.g. {{ $json.sku }}): the service replays the first runs', async () => {
		const rerun = await failThenRerun('={{ $json.sku }}');
		expect(rerun.error).toBeUndefined();
		expect(rerun.items.map((i) => i.json.status)).toEqual(['completed', 'completed']);
		expect(fx.sandbox.state.runs.size).toBe(2);
		expect(fx.sandbox.state.ledger).toHaveLength(2);
		const [first, second] = posts(fx.sandbox, '/images/generations')
			.slice(0, 2)
			.map((r) => r.idempotencyKey);
		expect(
			posts(fx.sandbox, '/images/generations')
				.slice(2)
				.map((r) => r.idempotencyKey),
		).toEqual([first, second]);
	});
});

describe('re-runs and the jobs Options → Idempotency Key names', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture({ latencyMs: 100 });
	});
	afterEach(async () => fx.sandbox.close());

	const job = (extra: IDataObject = {}) => ({
		resource: 'image',
		operation: 'generate',
		prompt: '={{ $json.prompt }}',
		...extra,
		options: { idempotencyKey: '={{ $json.sku }}', ...((extra.options as IDataObject) ?? {}) },
	});
	const skus = (...names: string[]) =>
		names.map((sku) => ({ json: { sku, prompt: `poster for ${sku}` } }));
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
	const hintsOf = (result: Awaited<ReturnType<typeof runNode>>, node = 'MediaGen') =>
		(result.run.data.resultData.runData[node]?.at(-1)?.hints ?? []).map((h) => h.message);

	it('own key, the same jobs in another order in a new execution: replayed, no new charge (finding 2: 2 new charges)', async () => {
		const first = await run(job(), skus('sku-1', 'sku-2'));
		expect(first.error).toBeUndefined();
		const again = await run(job(), skus('sku-2', 'sku-1'));
		expect(again.error).toBeUndefined();
		expect(fx.sandbox.state.ledger).toHaveLength(2);
		expect(fx.sandbox.state.runs.size).toBe(2);
		// each item gets its own job's run back, whatever its position
		expect(again.items.map((i) => i.json.id)).toEqual([
			first.items[1].json.id,
			first.items[0].json.id,
		]);
		expect(again.items.map((i) => (i.json.input_summary as IDataObject).prompt)).toEqual([
			'poster for sku-2',
			'poster for sku-1',
		]);
	});

	it('own key "café" composed (NFC), then decomposed (NFD) in a new execution: one job, one charge (issue 32, 9: two charges)', async () => {
		const item = (sku: string) => [{ json: { sku, prompt: 'poster for the café' } }];
		const first = await run(job(), item('caf\u00e9'));
		expect(first.error).toBeUndefined();
		const again = await run(job(), item('cafe\u0301'));
		expect(again.error).toBeUndefined();
		expect(fx.sandbox.state.ledger).toHaveLength(1);
		expect(fx.sandbox.state.runs.size).toBe(1);
		expect(again.items[0].json.id).toBe(first.items[0].json.id);
	});

	it('the same value in two nodes of one workflow, and in two workflows: separate jobs, no collision (finding 2: idempotency_key_reused)', async () => {
		const one = skus('sku-1');
		const a = await run(job(), one, { nodeName: 'Poster', nodeId: 'node-a' });
		const b = await run(job({ prompt: '={{ "banner for " + $json.sku }}' }), one, {
			nodeName: 'Banner',
			nodeId: 'node-b',
		});
		const c = await run(job(), one, {
			nodeName: 'Poster',
			nodeId: 'node-a',
			workflowId: 'wf-copy',
		});
		for (const result of [a, b, c]) expect(result.error).toBeUndefined();
		expect(posts(fx.sandbox, '/images/generations').map((r) => r.status)).toEqual([202, 202, 202]);
		expect(fx.sandbox.state.ledger).toHaveLength(3);
	});

	it('a renamed node keeps its jobs (the key follows the node id, not its name): a re-run replays', async () => {
		await run(job(), skus('sku-1'), { nodeName: 'Poster', nodeId: 'node-a' });
		const renamed = await run(job(), skus('sku-1'), {
			nodeName: 'Poster (renamed)',
			nodeId: 'node-a',
		});
		expect(renamed.error).toBeUndefined();
		expect(fx.sandbox.state.ledger).toHaveLength(1);
	});

	it('two items of one execution with the same value and the same request: one run serves both, charged once', async () => {
		const input = [
			{ json: { sku: 'sku-1', prompt: 'same' } },
			{ json: { sku: 'sku-2', prompt: 'other' } },
			{ json: { sku: 'sku-1', prompt: 'same' } },
		];
		const { error, items } = await run(job(), input);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[2].json.id).toBe(items[0].json.id);
		expect(items[2].binary?.data?.mimeType).toBe('image/png');
		expect(fx.sandbox.state.ledger).toHaveLength(2);
		expect(posts(fx.sandbox, '/images/generations')).toHaveLength(2);
	});

	it('two items with the same value, the same request and the same input file: one run serves both, charged once (issue 32, finding 13)', async () => {
		const photo = {
			data: makePng(8, 8, 1).toString('base64'),
			mimeType: 'image/png',
			fileName: 'shot.png',
		};
		const cutout = {
			resource: 'image',
			operation: 'removeBackground',
			imageUrlSource: 'binary',
			imageUrlBinaryProperty: 'photo',
			options: { idempotencyKey: '={{ $json.sku }}' },
		};
		const input = [0, 1].map(() => ({ json: { sku: 'sku-1' }, binary: { photo: { ...photo } } }));
		const { error, items } = await run(cutout, input);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(items[1].json.id).toBe(items[0].json.id);
		expect(posts(fx.sandbox, '/images/background-remove')).toHaveLength(1);
		expect(fx.sandbox.state.ledger).toHaveLength(1);
		// another file under the same value is another request: both refused, nothing sent
		const other = { ...photo, data: makePng(9, 9, 2).toString('base64') };
		const differing = await run(
			cutout,
			[input[0], { json: { sku: 'sku-1' }, binary: { photo: other } }],
			{
				settings: { onError: 'continueRegularOutput' },
			},
		);
		expect(differing.items.map((i) => i.json.code)).toEqual(['job_named_twice', 'job_named_twice']);
		expect(posts(fx.sandbox, '/images/background-remove')).toHaveLength(1);
	});

	it('two items sharing one run: when a budget refuses the first, the second is refused with it (never left without an item)', async () => {
		const input = [
			{ json: { sku: 'sku-1', prompt: 'same' } },
			{ json: { sku: 'sku-1', prompt: 'same' } },
		];
		const { items } = await run(job({ options: { maxCreditsPerExecution: 2 } }), input, {
			settings: { onError: 'continueRegularOutput' },
		});
		expect(items.map((i) => [i.pairedItem, i.json.code])).toEqual([
			[{ item: 0 }, 'budget_exceeded'],
			[{ item: 1 }, 'budget_exceeded'],
		]);
		expect(posts(fx.sandbox, '/images/generations')).toHaveLength(0);
	});

	it('two items of one execution with the same value and different requests: both refused before anything is sent, naming both items', async () => {
		const input = [
			{ json: { sku: 'sku-1', prompt: 'a fox' } },
			{ json: { sku: 'sku-9', prompt: 'a bear' } },
			{ json: { sku: 'sku-1', prompt: 'a wolf' } },
		];
		const stopped = await run(job(), input);
		expect(stopped.error?.message).toBe(
			'Idempotency Key: items 0 and 2 name the same job "sku-1" with different requests; allowed: one value per job',
		);
		expect(posts(fx.sandbox, '/images/generations')).toHaveLength(0);
		const kept = await run(job(), input, { settings: { onError: 'continueRegularOutput' } });
		expect(kept.items.map((i) => i.json.code ?? i.json.status)).toEqual([
			'job_named_twice',
			'completed',
			'job_named_twice',
		]);
		expect(kept.items[2].json).toMatchObject({ job: 'sku-1', items: [0, 2] });
		expect(fx.sandbox.state.ledger).toHaveLength(1);
	});

	it('Use Batch API with own keys: a re-run with the same jobs replays, one with more jobs pays only the new one and no item fails (finding 2: 409 for the whole batch)', async () => {
		const batched = job({ options: { useBatchApi: true } });
		const first = await run(batched, skus('sku-1', 'sku-2'));
		expect(first.error).toBeUndefined();
		expect(hintsOf(first).join(' ')).toContain(
			'Use Batch API: each job named by Options → Idempotency Key was sent as its own submit',
		);
		const same = await run(batched, skus('sku-2', 'sku-1'));
		expect(same.error).toBeUndefined();
		expect(fx.sandbox.state.ledger).toHaveLength(2);
		const superset = await run(batched, skus('sku-1', 'sku-2', 'sku-3'));
		expect(superset.error).toBeUndefined();
		expect(superset.items.map((i) => i.json.status)).toEqual([
			'completed',
			'completed',
			'completed',
		]);
		expect(superset.items.slice(0, 2).map((i) => i.json.id)).toEqual(
			first.items.map((i) => i.json.id),
		);
		expect(fx.sandbox.state.ledger).toHaveLength(3);
		expect(posts(fx.sandbox, '/batches')).toHaveLength(0);
	});

	it('own key with Max Credits: a re-run of a done job is refused by the service (its quote differs), never charged twice, and the item says why', async () => {
		const capped = job({ options: { maxCredits: 4 } });
		await run(capped, skus('sku-1'));
		const again = await run(capped, skus('sku-1'), {
			settings: { onError: 'continueRegularOutput' },
		});
		expect(again.items[0].json.code).toBe('idempotency_key_reused');
		expect(String(again.items[0].json.description)).toContain(
			'Job "sku-1" (Options → Idempotency Key) was submitted before with other parameters or another quote',
		);
		expect(fx.sandbox.state.ledger).toHaveLength(1);
	});
});

describe("n8n's Retry of a failed execution (ExecutionService.retry as in n8n 2.41.1, in-process)", () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture({ latencyMs: 100 });
	});
	afterEach(async () => fx.sandbox.close());

	const parameters = (prompt: string) => ({
		resource: 'image',
		operation: 'generate',
		prompt: `={{ "${prompt} " + $json.n }}`,
	});
	const input = [1, 2, 3].map((n) => ({ json: { n } }));
	const hintsOf = (result: Awaited<ReturnType<typeof runNode>>) =>
		(result.run.data.resultData.runData.MediaGen?.at(-1)?.hints ?? []).map((h) => h.message);

	async function failedExecution(options: IDataObject = {}) {
		// the runs are created, then reading them fails for good: the execution fails after paying
		fx.sandbox.injectFault({
			when: 'before',
			method: 'GET',
			path: runsRead,
			status: 404,
			count: 1000,
		});
		const failed = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: { ...parameters('a fox'), ...options },
			input,
			executionId: 'exec-failed',
		});
		expect(failed.error).toBeDefined();
		fx.sandbox.state.faults.length = 0;
		return failed;
	}

	it.each([false, true])(
		'retried unchanged (loadWorkflow %s): the runs of the failed execution, no new submit, charges unchanged',
		async (loadWorkflow) => {
			const failed = await failedExecution();
			const retried = await retryExecution(failed, {
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: parameters('a fox'),
				executionId: 'exec-retry',
				loadWorkflow,
			});
			expect(retried.error).toBeUndefined();
			expect(retried.items.map((i) => i.json.status)).toEqual([
				'completed',
				'completed',
				'completed',
			]);
			expect(posts(fx.sandbox, '/images/generations')).toHaveLength(3);
			expect(fx.sandbox.state.ledger).toHaveLength(3);
			expect(hintsOf(retried).join(' ')).not.toContain('edited');
		},
	);

	it('retried with the saved workflow after the prompt was edited: new runs of the edited prompt, and the hint says so (finding 3: the old runs came back as success)', async () => {
		const failed = await failedExecution();
		const retried = await retryExecution(failed, {
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: parameters('a red fox'),
			executionId: 'exec-retry',
			loadWorkflow: true,
		});
		expect(retried.error).toBeUndefined();
		expect(retried.items.map((i) => (i.json.input_summary as IDataObject).prompt)).toEqual([
			'a red fox 1',
			'a red fox 2',
			'a red fox 3',
		]);
		expect(posts(fx.sandbox, '/images/generations')).toHaveLength(6);
		// new requests under new keys: never a replay of the old runs
		const keys = posts(fx.sandbox, '/images/generations').map((r) => r.idempotencyKey);
		expect(new Set(keys).size).toBe(6);
		expect(hintsOf(retried).join(' ')).toContain(
			"Items 0, 1 and 2: the node's parameters were edited since the execution this one retries",
		);
	});

	it('retried with the saved workflow after only Wait Timeout was edited: still the old runs (not a new job)', async () => {
		const failed = await failedExecution();
		const retried = await retryExecution(failed, {
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: { ...parameters('a fox'), options: { waitTimeout: 120 } },
			executionId: 'exec-retry',
			loadWorkflow: true,
		});
		expect(retried.error).toBeUndefined();
		expect(posts(fx.sandbox, '/images/generations')).toHaveLength(3);
	});

	it('own key: retried after an edit, the edited jobs get new keys (a new edition of the node), so the service does not refuse them', async () => {
		const keyed = (prompt: string) => ({
			...parameters(prompt),
			options: { idempotencyKey: '={{ "job-" + $json.n }}' },
		});
		fx.sandbox.injectFault({
			when: 'before',
			method: 'GET',
			path: runsRead,
			status: 404,
			count: 1000,
		});
		const failed = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: keyed('a fox'),
			input,
			executionId: 'exec-failed',
		});
		fx.sandbox.state.faults.length = 0;
		const retried = await retryExecution(failed, {
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: keyed('a red fox'),
			executionId: 'exec-retry',
			loadWorkflow: true,
		});
		expect(retried.error).toBeUndefined();
		expect(posts(fx.sandbox, '/images/generations').map((r) => r.status)).toEqual([
			202, 202, 202, 202, 202, 202,
		]);
	});
});
