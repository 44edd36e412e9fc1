import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { makePng } from '../../sandbox/png';
import { binaryBytes, runNode } from '../helpers/n8n-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const generate = (extra: Record<string, unknown> = {}) => ({
	resource: 'image',
	operation: 'generate',
	prompt: 'a red fox',
	...extra,
});

describe('MediaGen Image in n8n-core (against the sandbox)', () => {
	let fx: Fixture;
	afterEach(async () => fx.sandbox.close());

	describe('with the default sandbox', () => {
		beforeEach(async () => {
			fx = await startFixture();
		});

		it('generates, waits and returns each image as PNG binary with pairedItem', async () => {
			const { items, error } = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate({ count: 2, aspectRatio: '16:9' }),
			});
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
			const [item] = items;
			expect(item.json.status).toBe('completed');
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(Object.keys(item.binary ?? {})).toEqual(['data', 'data_1']);
			expect(item.binary!.data.mimeType).toBe('image/png');
			expect(item.binary!.data.fileName).toMatch(/\.png$/);
			expect((await binaryBytes(item.binary!.data)).subarray(0, 8)).toEqual(PNG_SIGNATURE);
			expect(fx.sandbox.state.ledger).toHaveLength(1);
			expect(posts(fx.sandbox, '/images/generations')[0].idempotencyKey).toMatch(
				/^n8n-[0-9a-f]{48}$/,
			);
		});

		it('uses the model picked from the list or typed by ID, and a model saved as a plain string by older workflows', async () => {
			for (const model of [
				{ __rl: true, mode: 'list', value: 'image.lumen-xl' },
				{ __rl: true, mode: 'id', value: 'image.lumen-xl' },
				'image.lumen-xl',
			]) {
				const { items, error } = await runNode({
					nodeType: new MediaGenImage(),
					credentials: fx.credentials,
					parameters: generate({ model, aspectRatio: '3:2' }),
				});
				expect(error).toBeUndefined();
				expect(items[0].json).toMatchObject({
					model: 'image.lumen-xl',
					input_summary: expect.objectContaining({ aspect_ratio: '3:2' }),
				});
			}
			const empty = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate({ model: { __rl: true, mode: 'list', value: '' } }),
			});
			expect(empty.items[0].json.model).toBe('image.aurora-2');
		});

		it('refuses an aspect ratio the model does not offer, naming the field and the allowed values, before any POST', async () => {
			const { error, items } = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate({ model: 'image.aurora-1', aspectRatio: '4:3' }),
			});
			expect(items).toHaveLength(0);
			expect(error?.message).toContain('Aspect Ratio: ');
			expect(error?.description).toContain('API field aspect_ratio; model limit aspect_ratios');
			expect(error?.message).toContain('"4:3"');
			expect(error?.message).toContain('one of 1:1, 16:9, 9:16');
			expect(posts(fx.sandbox, '/images/generations')).toHaveLength(0);
			expect(fx.sandbox.state.runs.size).toBe(0);
		});

		it('refuses a count above the model maximum and a model of another capability before any POST', async () => {
			const tooMany = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate({ count: 9 }),
			});
			expect(tooMany.error?.message).toBe(
				'Count: 9 is not allowed by the model Aurora 2 (image.aurora-2); allowed: at most 4',
			);
			const video = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate({ model: 'video.motion-2' }),
			});
			expect(video.error?.message).toMatch(
				/^Model: "video\.motion-2" is a video generation model, not an image generation model; allowed: image\.aurora-2/,
			);
			expect(posts(fx.sandbox, '/images/generations')).toHaveLength(0);
		});

		it('sends a pinned alias the model list does not show (superseded aliases stay usable), and reads model_not_found clearly', async () => {
			const pinned = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate({ model: 'image.aurora-classic' }),
			});
			expect(pinned.error).toBeUndefined();
			expect(pinned.items[0].json).toMatchObject({
				status: 'completed',
				model: 'image.aurora-classic',
			});
			const unknown = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate({ model: 'image.nope' }),
			});
			expect(unknown.error?.message).toMatch(/^model_not_found/);
			expect(unknown.error?.description).toContain('The service does not know this model alias');
			expect(fx.sandbox.state.runs.size).toBe(1);
		});

		it('validates every item before sending any: one bad item means no run at all', async () => {
			const { error } = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate({ prompt: '={{ $json.prompt }}', aspectRatio: '={{ $json.ratio }}' }),
				input: [
					{ json: { prompt: 'ok', ratio: '1:1' } },
					{ json: { prompt: 'bad', ratio: '5:4' } },
				],
			});
			expect(error?.message).toContain('Aspect Ratio: "5:4"');
			expect(fx.sandbox.state.runs.size).toBe(0);
		});

		it('surfaces insufficient_scope with its code, and Continue On Fail puts the code in the error item', async () => {
			fx.credentials.set('mediaGenApi', {
				baseUrl: fx.sandbox.baseUrl,
				apiKey: fx.sandbox.state.createApiKey(['models:read', 'runs:read']),
			});
			const failing = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate(),
			});
			expect(failing.error?.message).toMatch(/^insufficient_scope/);
			expect(failing.error?.description).toContain('required_scope: images:write');

			const continued = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate(),
				settings: { onError: 'continueRegularOutput' },
				input: [{ json: { a: 1 } }, { json: { a: 2 } }],
			});
			expect(continued.error).toBeUndefined();
			expect(continued.items).toHaveLength(2);
			expect(continued.items.map((i) => i.json.code)).toEqual([
				'insufficient_scope',
				'insufficient_scope',
			]);
			expect(continued.items.map((i) => i.json.status)).toEqual([403, 403]);
			expect(continued.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			expect(continued.items[0].json.request_id).toMatch(/^req_/);
		});

		it('retries a 429 after Retry-After and sends the same Idempotency-Key; one run, one charge', async () => {
			fx.sandbox.injectFault({
				when: 'before',
				method: 'POST',
				path: '/images/generations',
				status: 429,
				retryAfter: 1,
			});
			const started = Date.now();
			const { items, error } = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate(),
			});
			expect(error).toBeUndefined();
			expect(items[0].json.status).toBe('completed');
			expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
			const sent = posts(fx.sandbox, '/images/generations');
			expect(sent.map((r) => r.status)).toEqual([429, 202]);
			expect(sent[0].idempotencyKey).toBe(sent[1].idempotencyKey);
			expect(fx.sandbox.state.runs.size).toBe(1);
			expect(fx.sandbox.state.ledger).toHaveLength(1);
		});

		it('resends a POST whose answer was lost with the same key: the sandbox replays the original run', async () => {
			fx.sandbox.injectFault({
				when: 'after',
				method: 'POST',
				path: '/images/generations',
				reset: true,
			});
			const { items, error } = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate(),
			});
			expect(error).toBeUndefined();
			expect(items[0].json.status).toBe('completed');
			const sent = posts(fx.sandbox, '/images/generations');
			expect(sent).toHaveLength(2);
			expect(new Set(sent.map((r) => r.idempotencyKey)).size).toBe(1);
			expect(fx.sandbox.state.runs.size).toBe(1);
			expect(fx.sandbox.state.ledger).toHaveLength(1);
		});

		it("waits for the first try's run on n8n's Retry On Fail instead of submitting again: one run, one charge", async () => {
			// The run is created, then reading it fails for good (404): the node fails and n8n retries it.
			fx.sandbox.injectFault({ when: 'before', method: 'GET', path: '/runs/', status: 404 });
			const { items, error, run } = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate(),
				settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 },
			});
			expect(error).toBeUndefined();
			expect(items[0].json.status).toBe('completed');
			expect(run.data.resultData.runData.MediaGen).toHaveLength(1);
			expect(posts(fx.sandbox, '/images/generations')).toHaveLength(1);
			expect(fx.sandbox.state.runs.size).toBe(1);
			expect(fx.sandbox.state.ledger).toHaveLength(1);
		});

		it('gives a new execution a new key (a deliberate re-run is a new run)', async () => {
			await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate(),
				executionId: 'e1',
			});
			await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate(),
				executionId: 'e2',
			});
			const keys = posts(fx.sandbox, '/images/generations').map((r) => r.idempotencyKey);
			expect(new Set(keys).size).toBe(2);
			expect(fx.sandbox.state.ledger).toHaveLength(2);
		});

		it('uploads an input binary through /uploads and uses its asset URL', async () => {
			const source = makePng(8, 8, 42);
			const { items, error } = await runNode({
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
						binary: {
							photo: { data: source.toString('base64'), mimeType: 'image/png', fileName: 'in.png' },
						},
					},
				],
			});
			expect(error).toBeUndefined();
			expect(items[0].json.status).toBe('completed');
			const [upload] = [...fx.sandbox.state.uploads.values()];
			expect(upload.content_type).toBe('image/png');
			expect(upload.bytes).toEqual(source);
			const [record] = [...fx.sandbox.state.runs.values()];
			expect(record.run.input_summary).toMatchObject({ has_image: true });
			const submitted = fx.sandbox.state.requests.find(
				(r) => r.path === '/v1/images/background-remove',
			);
			expect(submitted?.status).toBe(202);
			expect(items[0].binary?.data.mimeType).toBe('image/png');
		});

		it('returns the queued run without waiting, and URLs only when asked', async () => {
			const queued = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate({ waitForCompletion: false }),
			});
			expect(queued.items[0].json).toMatchObject({ object: 'run', status: 'queued' });
			expect(queued.items[0].binary).toBeUndefined();
			const urls = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate({ options: { returnUrlsOnly: true } }),
			});
			expect(urls.items[0].binary).toBeUndefined();
			expect(urls.items[0].json.output_urls).toEqual([expect.stringContaining('/storage/files/')]);
		});

		it('accepts auto where the model lists it, and refuses it where the model does not (document: some models accept auto or adaptive)', async () => {
			const listed = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate({ model: 'image.fuse-1', aspectRatio: 'auto' }),
			});
			expect(listed.error).toBeUndefined();
			const unlisted = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate({ model: 'image.aurora-1', aspectRatio: 'auto' }),
			});
			expect(unlisted.error?.message).toContain(
				'Aspect Ratio: "auto" is not allowed by the model Aurora 1 (image.aurora-1); allowed: one of 1:1, 16:9, 9:16',
			);
		});

		it("sends Input Images as image_urls, bounded by the model's max_input_images (not reference_image_urls)", async () => {
			const urls = (n: number) =>
				Array.from({ length: n }, (_, i) => `https://example.com/in-${i}.png`);
			const ok = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate({ model: 'image.fuse-1', additionalFields: { imageUrls: urls(3) } }),
			});
			expect(ok.error).toBeUndefined();
			expect(ok.items[0].json.status).toBe('completed');
			const tooMany = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate({ model: 'image.fuse-1', additionalFields: { imageUrls: urls(4) } }),
			});
			expect(tooMany.error?.message).toContain(
				'Input Images: "4 items" is not allowed by the model Fuse (image.fuse-1); allowed: at most 3',
			);
			const references = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate({
					model: 'image.fuse-1',
					additionalFields: { referenceImageUrls: urls(3) },
				}),
			});
			expect(references.error?.message).toContain('allowed: at most 2');
		});

		it("sends the upscaling mode as `modes`, the document's name, and refuses a mode the model does not list", async () => {
			const params = {
				resource: 'image',
				operation: 'upscale',
				imageUrl: 'https://example.com/a.png',
				scale: 2,
			};
			const ok = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: {
					...params,
					model: 'image_upscale.crisp',
					additionalFields: { mode: 'creative' },
				},
			});
			expect(ok.error).toBeUndefined();
			expect(ok.items[0].json.status).toBe('completed');
			const bad = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: {
					...params,
					model: 'image_upscale.fast',
					additionalFields: { mode: 'creative' },
				},
			});
			expect(bad.error?.message).toContain(
				'Mode: "creative" is not allowed by the model Fast Upscale (image_upscale.fast); allowed: no value: the model lists no modes',
			);
		});

		it('upscales with a scale factor from the model and refuses one it does not offer', async () => {
			const params = {
				resource: 'image',
				operation: 'upscale',
				imageUrl: 'https://example.com/a.png',
			};
			const ok = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: { ...params, scale: 4 },
			});
			expect(ok.error).toBeUndefined();
			const bad = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: { ...params, model: 'image_upscale.fast', scale: 4 },
			});
			expect(bad.error?.message).toBe(
				'Scale Factor: 4 is not allowed by the model Fast Upscale (image_upscale.fast); allowed: one of 2',
			);
		});
	});

	it('fails an item whose run fails, with the run error code, and keeps the others (Continue On Fail)', async () => {
		fx = await startFixture({ startingCredits: 5 });
		const { items } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: generate({ count: '={{ $json.count }}' }),
			settings: { onError: 'continueRegularOutput' },
			input: [{ json: { count: 1 } }, { json: { count: 4 } }],
		});
		expect(items).toHaveLength(2);
		expect(items[0].json.status).toBe('completed');
		expect(items[1].json.code).toBe('insufficient_credits');
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(fx.sandbox.state.ledger).toHaveLength(1);
	});

	it('authenticates with OAuth2 client credentials and refreshes an expired token', async () => {
		fx = await startFixture({ tokenTtlSeconds: 1, latencyMs: 2500 });
		const { items, error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			credentialType: 'mediaGenOAuth2Api',
			parameters: generate(),
		});
		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('completed');
		expect(fx.sandbox.state.tokensIssued).toBeGreaterThanOrEqual(2);
		expect(fx.sandbox.state.requests.some((r) => r.status === 401)).toBe(true);
		expect(fx.credentials.tokenUpdates).toBeGreaterThanOrEqual(2);
	});
});
