// The promise "never charged twice", cell by cell: every kind of input the node sends, under every
// kind of fault that makes it (or n8n's Retry On Fail) send again, through n8n-core's real
// WorkflowExecute. Each cell reads the service's ledger: exactly one run and one charge per item,
// and every item ends with its output because the service completed its run.
import type { IDataObject, INodeExecutionData, INodeType } from 'n8n-workflow';

import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { makePng } from '../../sandbox/png';
import { runNode } from '../helpers/n8n-harness';
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
}

const photo = (seed: number) => ({ photo: { data: makePng(8, 8, seed).toString('base64'), mimeType: 'image/png', fileName: `in-${seed}.png` } });
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
		parameters: { resource: 'image', operation: 'removeBackground', imageUrlSource: 'binary', imageUrlBinaryProperty: 'photo' },
		input: [{ json: {}, binary: photo(1) }],
		submitPath: '/images/background-remove',
		readsUntilFailure: 1,
		readPath: runsRead,
	},
	{
		name: 'an expression that changes per try ($now)',
		nodeType: () => new MediaGenImage(),
		parameters: { resource: 'image', operation: 'generate', prompt: '={{ "poster " + $now.toMillis() + " " + Math.random() }}' },
		input: [{ json: {} }],
		submitPath: '/images/generations',
		readsUntilFailure: 1,
		readPath: runsRead,
	},
	{
		name: 'Max Credits (a quote per try)',
		nodeType: () => new MediaGenImage(),
		parameters: { resource: 'image', operation: 'generate', prompt: 'a red fox', options: { maxCredits: 100 } },
		input: [{ json: {} }],
		submitPath: '/images/generations',
		readsUntilFailure: 1,
		readPath: runsRead,
	},
	{
		name: 'Use Batch API with input binaries',
		nodeType: () => new MediaGenImage(),
		parameters: { resource: 'image', operation: 'removeBackground', imageUrlSource: 'binary', imageUrlBinaryProperty: 'photo', options: { useBatchApi: true } },
		input: [1, 2, 3].map((seed) => ({ json: {}, binary: photo(seed) })),
		submitPath: '/batches',
		readsUntilFailure: 1,
		readPath: /^\/batches/,
	},
	{
		name: 'the Idempotency Key option set to one fixed value for 3 items',
		nodeType: () => new MediaGenImage(),
		parameters: { resource: 'image', operation: 'generate', prompt: '={{ $json.prompt }}', options: { idempotencyKey: 'campaign-7' } },
		input: ['a fox', 'a wolf', 'a bear'].map((prompt) => ({ json: { prompt } })),
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
		inject: (fx, input) => fx.sandbox.injectFault({ when: 'after', method: 'POST', path: input.submitPath, reset: true, count: 1 }),
		faultyAnswers: (fx, input) => posts(fx.sandbox, input.submitPath).length - (input.submitPath === '/batches' ? 1 : input.input.length),
	},
	{
		name: 'reading the run fails, so n8n runs the node again',
		inject: (fx, input) => fx.sandbox.injectFault({ when: 'before', method: 'GET', path: input.readPath, status: 404, count: input.readsUntilFailure }),
		faultyAnswers: (fx) => fx.sandbox.state.requests.filter((r) => r.method === 'GET' && r.status === 404).length,
	},
	{
		name: 'a storm of 503 with Retry-After: 0 during the wait',
		inject: (fx, input) => fx.sandbox.injectFault({ when: 'before', method: 'GET', path: input.readPath, status: 503, retryAfter: 0, count: 10 }),
		faultyAnswers: (fx) => fx.sandbox.state.requests.filter((r) => r.method === 'GET' && r.status === 503).length,
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
			fault.inject(fx, input);
			const { items, error } = await runNode({
				nodeType: input.nodeType(),
				credentials: fx.credentials,
				parameters: input.parameters,
				input: input.input,
				settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 },
			});
			expect(error).toBeUndefined();
			expect(fault.faultyAnswers(fx, input)).toBeGreaterThanOrEqual(fault.name.startsWith('a storm') ? 10 : 1);

			const count = input.input.length;
			expect(items.map((i) => [i.pairedItem, i.json.status])).toEqual(input.input.map((_, item) => [{ item }, 'completed']));
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
	const input = [{ json: { prompt: 'a fox', sku: 'sku-1' } }, { json: { prompt: 'a wolf', sku: 'sku-2' } }];

	async function failThenRerun(key?: string) {
		// the first execution submits, then cannot read its runs and fails for good
		fx.sandbox.injectFault({ when: 'before', method: 'GET', path: runsRead, status: 404, count: 1000 });
		const failed = await runNode({ nodeType: new MediaGenImage(), credentials: fx.credentials, parameters: parameters(key), input, executionId: 'exec-first' });
		expect(failed.error).toBeDefined();
		fx.sandbox.state.faults.length = 0;
		// n8n's "Retry" of a failed execution is a new execution of the same input
		return await runNode({ nodeType: new MediaGenImage(), credentials: fx.credentials, parameters: parameters(key), input, executionId: 'exec-retry' });
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
		const [first, second] = posts(fx.sandbox, '/images/generations').slice(0, 2).map((r) => r.idempotencyKey);
		expect(posts(fx.sandbox, '/images/generations').slice(2).map((r) => r.idempotencyKey)).toEqual([first, second]);
	});
});
