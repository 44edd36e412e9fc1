import type { IDataObject, INodeType } from 'n8n-workflow';

import { MediaGenAudio } from '../../nodes/MediaGenAudio/MediaGenAudio.node';
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenLipSync } from '../../nodes/MediaGenLipSync/MediaGenLipSync.node';
import { MediaGenModel3D } from '../../nodes/MediaGenModel3D/MediaGenModel3D.node';
import { MediaGenProduct } from '../../nodes/MediaGenProduct/MediaGenProduct.node';
import { MediaGenVideo } from '../../nodes/MediaGenVideo/MediaGenVideo.node';
import { makePng } from '../../sandbox/png';
import { sleep } from '../helpers/media';
import { runNode } from '../helpers/n8n-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';

interface Case {
	node: string;
	nodeType: INodeType;
	path: string;
	resource: string;
	operation: string;
	params: IDataObject;
	model: string;
	credits: number;
}

/** One generating operation per node, with its expected price on the sandbox. */
const cases: Case[] = [
	{
		node: 'Image',
		nodeType: new MediaGenImage(),
		path: '/images/generations',
		resource: 'image',
		operation: 'generate',
		params: { prompt: 'a quoted castle', count: 2 },
		model: 'image.aurora-2',
		credits: 8,
	},
	{
		node: 'Video',
		nodeType: new MediaGenVideo(),
		path: '/videos/generations',
		resource: 'video',
		operation: 'generate',
		params: { prompt: 'waves', duration: 10 },
		model: 'video.motion-2',
		credits: 60,
	},
	{
		node: 'Audio',
		nodeType: new MediaGenAudio(),
		path: '/audio/music',
		resource: 'audio',
		operation: 'music',
		params: { prompt: 'calm synths', additionalFields: { durationSeconds: 20 } },
		model: 'music.compose-1',
		credits: 10,
	},
	{
		node: 'Lip Sync',
		nodeType: new MediaGenLipSync(),
		path: '/lipsync/generations',
		resource: 'lipSync',
		operation: 'generate',
		params: {
			audioUrl: 'https://cdn.example.com/s.mp3',
			videoUrl: 'https://cdn.example.com/f.mp4',
		},
		model: 'lipsync.sync-1',
		credits: 10,
	},
	{
		node: '3D',
		nodeType: new MediaGenModel3D(),
		path: '/models/3d/generations',
		resource: 'model3d',
		operation: 'generate',
		params: { imageUrls: ['https://cdn.example.com/a.png', 'https://cdn.example.com/b.png'] },
		model: '3d.mesh-1',
		credits: 40,
	},
];

const estimateOp = (c: Case) => ({
	resource: c.resource,
	operation: `${c.operation}EstimateCost`,
	...c.params,
});
const submitOp = (c: Case, options: IDataObject = {}) => ({
	resource: c.resource,
	operation: c.operation,
	...c.params,
	options,
});

describe.each(cases)('cost control of MediaGen $node ($path)', (c) => {
	let fx: Fixture;
	const run = (parameters: IDataObject) =>
		runNode({ nodeType: c.nodeType, credentials: fx.credentials, parameters, settings: {} });

	beforeEach(async () => {
		fx = await startFixture({ quoteTtlSeconds: 600 });
	});
	afterEach(async () => fx.sandbox.close());

	it('Estimate Cost returns the quote for the resolved model; submitting with its token binds that price', async () => {
		const estimate = await run(estimateOp(c));
		expect(estimate.error).toBeUndefined();
		expect(estimate.items[0].json).toMatchObject({
			object: 'cost_estimate',
			model: c.model,
			credits: c.credits,
			quote_token: expect.any(String),
		});
		expect(posts(fx.sandbox, c.path)).toHaveLength(0);

		const submitted = await run(submitOp(c, { quoteToken: estimate.items[0].json.quote_token }));
		expect(submitted.error).toBeUndefined();
		expect(submitted.items[0].json.status).toBe('completed');
		expect(posts(fx.sandbox, c.path).map((r) => r.status)).toEqual([202]);
		expect(fx.sandbox.state.ledger).toEqual([
			expect.objectContaining({ run_id: submitted.items[0].json.id, credits: c.credits }),
		]);
	});

	it('Max Credits below the price: a clear error and no run', async () => {
		const { error, items } = await run(submitOp(c, { maxCredits: c.credits - 1 }));
		expect(items).toHaveLength(0);
		expect(error?.message).toBe(
			`Max Credits: ${submitName(c)} costs ${c.credits} credits on model ${c.model}, above the maximum of ${c.credits - 1}`,
		);
		expect(error?.description).toContain('no run was created');
		expect(posts(fx.sandbox, '/models/estimate-cost')).toHaveLength(1);
		expect(posts(fx.sandbox, c.path)).toHaveLength(0);
		expect(fx.sandbox.state.runs.size).toBe(0);
	});

	it('Max Credits below the price with Continue On Fail: an error item with code max_credits_exceeded', async () => {
		const { items } = await runNode({
			nodeType: c.nodeType,
			credentials: fx.credentials,
			parameters: submitOp(c, { maxCredits: c.credits / 2 }),
			settings: { onError: 'continueRegularOutput' },
		});
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			code: 'max_credits_exceeded',
			error: expect.stringContaining(`costs ${c.credits} credits`),
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(fx.sandbox.state.runs.size).toBe(0);
	});

	it('Max Credits at the price: estimates, submits bound to the quote and is charged the quoted credits', async () => {
		const { error, items } = await run(submitOp(c, { maxCredits: c.credits }));
		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('completed');
		expect(posts(fx.sandbox, '/models/estimate-cost')).toHaveLength(1);
		expect(posts(fx.sandbox, c.path).map((r) => r.status)).toEqual([202]);
		expect(fx.sandbox.state.ledger.map((e) => e.credits)).toEqual([c.credits]);
	});
});

function submitName(c: Case): string {
	return { generate: 'Generate', music: 'Music' }[c.operation] ?? c.operation;
}

describe('expired quotes', () => {
	let fx: Fixture;
	const tokens = new Map<Case, string>();

	beforeAll(async () => {
		fx = await startFixture({ quoteTtlSeconds: 1 });
		for (const c of cases) {
			const { items } = await runNode({
				nodeType: c.nodeType,
				credentials: fx.credentials,
				parameters: estimateOp(c),
			});
			tokens.set(c, String(items[0].json.quote_token));
		}
		await sleep(1200);
	});
	afterAll(async () => fx.sandbox.close());

	it.each(cases)(
		'$node: a lapsed Quote Token is refreshed once from the 409 when the fresh quote fits Max Credits',
		async (c) => {
			const before = posts(fx.sandbox, c.path).length;
			const { error, items } = await runNode({
				nodeType: c.nodeType,
				credentials: fx.credentials,
				parameters: submitOp(c, { quoteToken: tokens.get(c), maxCredits: c.credits + 5 }),
			});
			expect(error).toBeUndefined();
			expect(items[0].json.status).toBe('completed');
			expect(
				posts(fx.sandbox, c.path)
					.slice(before)
					.map((r) => r.status),
			).toEqual([409, 202]);
			expect(fx.sandbox.state.chargesFor(String(items[0].json.id))[0].credits).toBe(c.credits);
		},
	);

	it.each(cases)(
		'$node: a lapsed Quote Token with Max Credits below the price is refused before sending; without Max Credits it fails with quote_expired and the fresh quote',
		async (c) => {
			const runsBefore = fx.sandbox.state.runs.size;
			const submitsBefore = posts(fx.sandbox, c.path).length;
			const over = await runNode({
				nodeType: c.nodeType,
				credentials: fx.credentials,
				parameters: submitOp(c, { quoteToken: tokens.get(c), maxCredits: c.credits - 1 }),
			});
			expect(over.error?.message).toBe(
				`Max Credits: ${submitName(c)} costs ${c.credits} credits on model ${c.model}, above the maximum of ${c.credits - 1}`,
			);
			expect(posts(fx.sandbox, c.path)).toHaveLength(submitsBefore);
			const unbounded = await runNode({
				nodeType: c.nodeType,
				credentials: fx.credentials,
				parameters: submitOp(c, { quoteToken: tokens.get(c) }),
				settings: { onError: 'continueRegularOutput' },
			});
			expect(unbounded.items[0].json.code).toBe('quote_expired');
			// the fresh quote of the answer reaches the user: wire it into Quote Token, or set Max Credits
			expect(unbounded.items[0].json.quote).toEqual(
				expect.objectContaining({ credits: c.credits, quote_token: expect.any(String) }),
			);
			expect(unbounded.items[0].json.hint).toContain('Set Max Credits');
			expect(unbounded.items[0].json.description).toContain(`fresh quote: ${c.credits} credits`);
			expect(fx.sandbox.state.runs.size).toBe(runsBefore);
		},
	);
});

describe('mismatched quotes', () => {
	it('a quote made for other parameters: re-estimated first (refused above Max Credits, nothing sent); within Max Credits the 409 quote_mismatch fresh quote is used once', async () => {
		const fx = await startFixture();
		try {
			const image = new MediaGenImage();
			const estimate = await runNode({
				nodeType: image,
				credentials: fx.credentials,
				parameters: {
					resource: 'image',
					operation: 'generateEstimateCost',
					prompt: 'castle',
					count: 2,
				},
			});
			const token = estimate.items[0].json.quote_token;
			const submit = (maxCredits: number) =>
				runNode({
					nodeType: image,
					credentials: fx.credentials,
					parameters: {
						resource: 'image',
						operation: 'generate',
						prompt: 'castle',
						count: 3,
						options: { quoteToken: token, maxCredits },
					},
				});
			const refused = await submit(11);
			expect(refused.error?.message).toBe(
				'Max Credits: Generate costs 12 credits on model image.aurora-2, above the maximum of 11',
			);
			expect(posts(fx.sandbox, '/images/generations')).toHaveLength(0);
			const accepted = await submit(12);
			expect(accepted.error).toBeUndefined();
			expect(posts(fx.sandbox, '/images/generations').map((r) => r.status)).toEqual([409, 202]);
			expect(fx.sandbox.state.ledger.map((e) => e.credits)).toEqual([12]);
			expect(accepted.items[0].json).toMatchObject({
				usage: { credits: 12 },
				quoted_credits: 12,
				quote: { credits: 12, model: 'image.aurora-2' },
			});
		} finally {
			await fx.sandbox.close();
		}
	});
});

describe('Max Credits with a Quote Token (finding 1: the token skipped the check)', () => {
	it('a valid quote for 12 credits with Max Credits 5: refused before sending, no run, nothing charged', async () => {
		const fx = await startFixture();
		try {
			const image = new MediaGenImage();
			const parameters = { resource: 'image', prompt: 'a quoted castle', count: 3 };
			const estimate = await runNode({
				nodeType: image,
				credentials: fx.credentials,
				parameters: { ...parameters, operation: 'generateEstimateCost' },
			});
			expect(estimate.items[0].json.credits).toBe(12);
			const { error, items } = await runNode({
				nodeType: image,
				credentials: fx.credentials,
				parameters: {
					...parameters,
					operation: 'generate',
					options: { quoteToken: estimate.items[0].json.quote_token, maxCredits: 5 },
				},
				settings: { onError: 'continueRegularOutput' },
			});
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({
				code: 'max_credits_exceeded',
				credits: 12,
				max_credits: 5,
			});
			expect(posts(fx.sandbox, '/images/generations')).toHaveLength(0);
			expect(fx.sandbox.state.runs.size).toBe(0);
			expect(fx.sandbox.state.ledger).toEqual([]);
		} finally {
			await fx.sandbox.close();
		}
	});

	it('a valid quote within Max Credits: sent with the token given (the re-estimate only checks), charged the quoted price once', async () => {
		const fx = await startFixture();
		try {
			const image = new MediaGenImage();
			const parameters = { resource: 'image', prompt: 'a quoted castle', count: 3 };
			const estimate = await runNode({
				nodeType: image,
				credentials: fx.credentials,
				parameters: { ...parameters, operation: 'generateEstimateCost' },
			});
			const token = estimate.items[0].json.quote_token;
			const { error, items } = await runNode({
				nodeType: image,
				credentials: fx.credentials,
				parameters: {
					...parameters,
					operation: 'generate',
					options: { quoteToken: token, maxCredits: 12 },
				},
			});
			expect(error).toBeUndefined();
			const [submit] = posts(fx.sandbox, '/images/generations');
			expect((submit.body as { quote_token?: string }).quote_token).toBe(token);
			expect(fx.sandbox.state.ledger.map((e) => e.credits)).toEqual([12]);
			expect(items[0].json).toMatchObject({
				usage: { credits: 12 },
				quoted_credits: 12,
				quote: { credits: 12, model: 'image.aurora-2' },
			});
		} finally {
			await fx.sandbox.close();
		}
	});
});

describe('Max Credits and n8n Retry On Fail', () => {
	it('never pays twice: a retry after an accepted submit waits for that run (no new estimate, no new submit)', async () => {
		const fx = await startFixture();
		try {
			// the run is created, then reading it fails for good (404): the node fails and n8n runs it again
			fx.sandbox.injectFault({ when: 'before', method: 'GET', path: '/runs/', status: 404 });
			const { error } = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: {
					resource: 'image',
					operation: 'generate',
					prompt: 'retry me',
					options: { maxCredits: 10 },
				},
				settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 },
			});
			expect(error).toBeUndefined();
			expect(posts(fx.sandbox, '/models/estimate-cost')).toHaveLength(1);
			expect(posts(fx.sandbox, '/images/generations').map((r) => r.status)).toEqual([202]);
			expect(fx.sandbox.state.runs.size).toBe(1);
			expect(fx.sandbox.state.ledger).toHaveLength(1);
		} finally {
			await fx.sandbox.close();
		}
	});
});

describe('Max Credits and n8n Retry On Fail after the service accepted the submit (finding 5: the README said 409 idempotency_key_reused)', () => {
	it('every answer of the first try is lost after the run exists: the retry resends the first request (same quote, same key) and gets the original run, never a 409', async () => {
		const fx = await startFixture();
		try {
			// the service creates the run, then each of the first try's 9 attempts loses its answer (503 after acting)
			fx.sandbox.injectFault({
				when: 'after',
				method: 'POST',
				path: '/images/generations',
				status: 503,
				retryAfter: 0.05,
				count: 9,
			});
			const { error, items } = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: {
					resource: 'image',
					operation: 'generate',
					prompt: 'retry me',
					options: { maxCredits: 10 },
				},
				settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 },
			});
			expect(error).toBeUndefined();
			const submits = posts(fx.sandbox, '/images/generations');
			expect(submits.map((r) => r.status)).toEqual([...Array(9).fill(503), 202]);
			expect(new Set(submits.map((r) => r.idempotencyKey)).size).toBe(1);
			expect(
				new Set(submits.map((r) => (r.body as { quote_token?: string }).quote_token)).size,
			).toBe(1);
			expect(posts(fx.sandbox, '/models/estimate-cost')).toHaveLength(1);
			expect(fx.sandbox.state.runs.size).toBe(1);
			expect(fx.sandbox.state.ledger).toHaveLength(1);
			expect(items[0].json).toMatchObject({
				status: 'completed',
				usage: { credits: 4 },
				quoted_credits: 4,
			});
		} finally {
			await fx.sandbox.close();
		}
	});
});

describe('Max Credits with input binaries', () => {
	it('uploads first, so the quote binds the asset URLs the submit carries (no quote_mismatch)', async () => {
		const fx = await startFixture();
		try {
			const png = makePng(8, 8, 5);
			const { error, items } = await runNode({
				nodeType: new MediaGenModel3D(),
				credentials: fx.credentials,
				parameters: {
					resource: 'model3d',
					operation: 'generate',
					imageUrlsSource: 'binary',
					imageUrlsBinaryProperty: 'photo',
					options: { maxCredits: 20 },
				},
				input: [
					{ json: {}, binary: { photo: { data: png.toString('base64'), mimeType: 'image/png' } } },
				],
			});
			expect(error).toBeUndefined();
			expect(items[0].json.status).toBe('completed');
			expect(posts(fx.sandbox, '/uploads')).toHaveLength(1);
			expect(posts(fx.sandbox, '/models/3d/generations').map((r) => r.status)).toEqual([202]);
		} finally {
			await fx.sandbox.close();
		}
	});

	it('offers no Estimate Cost where the route has no model to price (Product extraction)', () => {
		const operations = new MediaGenProduct().description.properties.find(
			(p) => p.name === 'operation',
		)!;
		expect((operations.options ?? []).map((o) => (o as { value: string }).value)).toEqual([
			'extract',
		]);
	});
});
