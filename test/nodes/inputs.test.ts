// Inputs that would break a wait or reach the wrong resource are refused before anything is sent;
// IDs that need encoding reach the service encoded.
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenRun } from '../../nodes/MediaGenRun/MediaGenRun.node';
import { runNode } from '../helpers/n8n-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';

describe('inputs checked before anything is sent', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture({ latencyMs: 50 });
	});
	afterEach(async () => fx.sandbox.close());

	const posted = () => fx.sandbox.state.requests.filter((r) => r.method === 'POST');
	const generate = (extra: Record<string, unknown>) => ({
		resource: 'image',
		operation: 'generate',
		prompt: 'a fox',
		...extra,
	});

	it.each([
		[
			'Wait Timeout that is not a number (an expression gone wrong)',
			{ options: { waitTimeout: '={{ "soon" }}' } },
			'Wait Timeout (Seconds): "soon" is not allowed; allowed: a number from 1 to 604800',
		],
		[
			'negative Wait Timeout',
			{ options: { waitTimeout: -5 } },
			'Wait Timeout (Seconds): -5 is not allowed; allowed: a number from 1 to 604800',
		],
		[
			'Max Parallel Submits of 0',
			{ options: { concurrency: 0 } },
			'Max Parallel Submits: 0 is not allowed; allowed: a number from 1 to 50',
		],
		[
			'Request Timeout that is not finite',
			{ options: { requestTimeout: '={{ 1/0 }}' } },
			'Request Timeout (Seconds): Infinity is not allowed; allowed: a number from 1 to 600',
		],
		[
			'Max Credits below zero',
			{ options: { maxCredits: -1 } },
			'Max Credits: -1 is not allowed; allowed: a number of credits of 0 or more',
		],
		// a cap that is set but resolves to nothing must not silently become 0 or no cap (issue 24, item 8)
		[
			'Max Credits of blank text',
			{ options: { maxCredits: '={{ "  " }}' } },
			'Max Credits: an empty value is not allowed; allowed: a number of credits of 0 or more',
		],
		[
			'Max Credits of an empty list',
			{ options: { maxCredits: '={{ [] }}' } },
			'Max Credits: [] is not allowed; allowed: a number of credits of 0 or more',
		],
		[
			'Max Credits of an empty value',
			{ options: { maxCredits: '={{ "" }}' } },
			'Max Credits: an empty value is not allowed; allowed: a number of credits of 0 or more',
		],
		[
			'Max Credits cleared in the editor (null)',
			{ options: { maxCredits: null } },
			'Max Credits: an empty value is not allowed; allowed: a number of credits of 0 or more',
		],
		[
			'Max Credits that is not finite (shown as Infinity, not null)',
			{ options: { maxCredits: '={{ 1/0 }}' } },
			'Max Credits: Infinity is not allowed; allowed: a number of credits of 0 or more',
		],
		[
			'a count that is not a number',
			{ count: '={{ "many" }}' },
			'Count: "many" is not allowed; allowed: a whole number of at least 1',
		],
		[
			'a count that is not whole',
			{ count: 1.5 },
			'Count: 1.5 is not allowed; allowed: a whole number of at least 1',
		],
		[
			'a strength that is NaN',
			{ additionalFields: { strength: '={{ NaN }}' } },
			'Strength: NaN is not allowed; allowed: a number from 0 to 1',
		],
	])('refuses %s', async (_name, extra, message) => {
		const { error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: generate(extra),
		});
		expect(error?.message).toContain(message);
		expect(posted()).toHaveLength(0);
	});

	it.each([
		['a plain object', { foo: 1 }],
		['a text', 'not a file'],
		['null', null],
	])(
		'an input binary field holding %s (no file) is refused naming the field, before anything is sent (issue 32, 19)',
		async (_what, held) => {
			const { error } = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: {
					resource: 'image',
					operation: 'removeBackground',
					imageUrlSource: 'binary',
					imageUrlBinaryProperty: 'photo',
				},
				input: [{ json: {}, binary: { photo: held } as never }],
			});
			expect(error?.message).toBe(
				'Image: the input binary field "photo" holds no file; allowed: a file in the item\'s binary data (data or a stored file id), e.g. from Read/Write Files from Disk or HTTP Request',
			);
			expect((error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(0);
			expect(posted()).toHaveLength(0);
		},
	);

	it('reads a number given as a numeric string by an expression as that number', async () => {
		const { error, items } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: generate({ count: '={{ "2" }}', options: { returnUrlsOnly: true } }),
		});
		expect(error).toBeUndefined();
		expect(items[0].json.output_urls).toHaveLength(2);
	});

	it.each([['.'], ['..'], [' '], ['={{ "" }}']])(
		'refuses the path ID %j, naming the field',
		async (id) => {
			const { error } = await runNode({
				nodeType: new MediaGenRun(),
				credentials: fx.credentials,
				parameters: { resource: 'run', operation: 'get', runId: id },
			});
			expect(error?.message).toMatch(/^Run ID: /);
			expect(fx.sandbox.state.requests.filter((r) => r.path.startsWith('/v1/runs'))).toHaveLength(
				0,
			);
		},
	);

	it.each([
		['a space and a slash', 'run 1/2', '/v1/runs/run%201%2F2'],
		['a question mark and a hash', 'run?x=1#y', '/v1/runs/run%3Fx%3D1%23y'],
		['unicode', 'rün-ß', '/v1/runs/r%C3%BCn-%C3%9F'],
		['a dot segment inside', 'a/../b', '/v1/runs/a%2F..%2Fb'],
	])(
		'sends an ID with %s encoded as one path segment (the service answers not_found)',
		async (_name, id, path) => {
			const { error } = await runNode({
				nodeType: new MediaGenRun(),
				credentials: fx.credentials,
				parameters: { resource: 'run', operation: 'get', runId: id },
			});
			expect(error?.message).toMatch(/^not_found/);
			const reads = fx.sandbox.state.requests.filter(
				(r) => r.method === 'GET' && r.path.startsWith('/v1/runs'),
			);
			expect(reads.map((r) => r.path)).toEqual([path]);
		},
	);
});
