import { MediaGenAudio } from '../../nodes/MediaGenAudio/MediaGenAudio.node';
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenLipSync } from '../../nodes/MediaGenLipSync/MediaGenLipSync.node';
import { MediaGenModel3D } from '../../nodes/MediaGenModel3D/MediaGenModel3D.node';
import { MediaGenProduct } from '../../nodes/MediaGenProduct/MediaGenProduct.node';
import { catalog } from '../../src/catalog';
import { makeWav } from '../../sandbox/media-files';
import { SANDBOX_PROJECT_ID, SANDBOX_TEAM_ID } from '../../sandbox/options';
import { makePng } from '../../sandbox/png';
import { kindOf } from '../helpers/media';
import { runNode } from '../helpers/n8n-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';

describe('MediaGen 3D, Lip Sync, Product and the new Image operations in n8n-core (against the sandbox)', () => {
	let fx: Fixture;
	beforeAll(async () => {
		fx = await startFixture();
	});
	afterAll(async () => fx.sandbox.close());

	it('3D: generates from two input images and returns every requested format with its MIME type and extension', async () => {
		const images = [makePng(16, 16, 1), makePng(16, 16, 2)];
		const formats = ['glb', 'fbx', 'obj', 'usdz', 'blend', 'stl'];
		const { items, error } = await runNode({
			nodeType: new MediaGenModel3D(),
			credentials: fx.credentials,
			parameters: {
				resource: 'model3d',
				operation: 'generate',
				imageUrlsSource: 'binary',
				imageUrlsBinaryProperty: 'front, side',
				outputFormats: formats,
				additionalFields: { targetPolycount: 5000, topology: 'quad' },
			},
			input: [
				{
					json: {},
					binary: Object.fromEntries(
						images.map((png, i) => [
							i ? 'side' : 'front',
							{ data: png.toString('base64'), mimeType: 'image/png', fileName: `${i}.png` },
						]),
					),
				},
			],
		});
		expect(error).toBeUndefined();
		const [item] = items;
		expect(Object.keys((item.json.output as { model_urls: object }).model_urls)).toEqual(formats);
		const binaries = Object.values(item.binary!);
		expect(binaries.map((b) => b.fileName!.split('.').pop())).toEqual(formats);
		expect(binaries.map((b) => b.mimeType)).toEqual([
			'model/gltf-binary',
			'application/octet-stream',
			'model/obj',
			'model/vnd.usdz+zip',
			'application/x-blender',
			'model/stl',
		]);
		expect(await Promise.all(binaries.map(kindOf))).toEqual([
			'glb',
			'fbx',
			'obj',
			'zip',
			'blend',
			'stl',
		]);
		expect(posts(fx.sandbox, '/uploads')).toHaveLength(2);
		expect(fx.sandbox.state.chargesFor(String(item.json.id))[0].credits).toBe(2 * 20);
	});

	it('Lip Sync: syncs a face video to an input audio binary and returns MP4', async () => {
		const speech = makeWav(0.3, 9);
		const { items, error } = await runNode({
			nodeType: new MediaGenLipSync(),
			credentials: fx.credentials,
			parameters: {
				resource: 'lipSync',
				operation: 'generate',
				audioUrlSource: 'binary',
				audioUrlBinaryProperty: 'speech',
				videoUrl: 'https://cdn.example.com/face.mp4',
				additionalFields: { resolution: '720p' },
			},
			input: [
				{
					json: {},
					binary: {
						speech: { data: speech.toString('base64'), mimeType: 'audio/wav', fileName: 's.wav' },
					},
				},
			],
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			status: 'completed',
			capability: 'lipsync_generation',
			model: 'lipsync.sync-1',
		});
		expect(items[0].binary!.data.mimeType).toBe('video/mp4');
		expect(await kindOf(items[0].binary!.data)).toBe('mp4');
	});

	it('Product: extracts the product data and its photos as PNG binaries', async () => {
		const { items, error } = await runNode({
			nodeType: new MediaGenProduct(),
			credentials: fx.credentials,
			parameters: {
				resource: 'product',
				operation: 'extract',
				url: 'https://shop.example.com/p/42',
				additionalFields: { maxImages: 2 },
			},
		});
		expect(error).toBeUndefined();
		expect((items[0].json.output as Record<string, unknown>).product).toMatchObject({
			url: 'https://shop.example.com/p/42',
			title: expect.any(String),
			price: { amount: expect.any(Number), currency: 'EUR' },
		});
		expect(Object.keys(items[0].binary!)).toEqual(['data', 'data_1']);
		expect(await kindOf(items[0].binary!.data)).toBe('png');
	});

	it('Image: captures a page as PNG', async () => {
		const { items, error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: {
				resource: 'image',
				operation: 'capture',
				url: 'https://example.com/',
				additionalFields: { fullPage: true },
			},
		});
		expect(error).toBeUndefined();
		expect(items[0].binary!.data.mimeType).toBe('image/png');
		expect(await kindOf(items[0].binary!.data)).toBe('png');
	});

	it('Image: blocks out a scene as PNG and files it in a project (a courtesy Idempotency-Key: the route does not require one)', async () => {
		const params = {
			resource: 'image',
			operation: 'sceneBlockout',
			prompt: 'a market square, wide shot',
			aspectRatio: '16:9',
		};
		const { items, error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: { ...params, options: { projectId: SANDBOX_PROJECT_ID } },
		});
		expect(error).toBeUndefined();
		expect(await kindOf(items[0].binary!.data)).toBe('png');
		expect(posts(fx.sandbox, '/scenes/blockouts')[0].idempotencyKey).toMatch(/^n8n-[0-9a-f]{48}$/);
	});

	it.each([
		['/scenes/blockouts', { prompt: 'x', team_id: SANDBOX_TEAM_ID }, 'team_billing_unsupported'],
		[
			'/products/extract',
			{ url: 'https://shop.example.com/p/1', project_id: SANDBOX_PROJECT_ID },
			'project_filing_unsupported',
		],
		[
			'/models/3d/generations',
			{ image_urls: ['https://cdn.example.com/a.png'], project_id: SANDBOX_PROJECT_ID },
			'project_filing_unsupported',
		],
		[
			'/audio/transcriptions',
			{ audio_url: 'https://cdn.example.com/a.mp3', project_id: SANDBOX_PROJECT_ID },
			'project_filing_unsupported',
		],
	])(
		'the service refuses what %s cannot take (%j → %s), and the node does not offer that option',
		async (path, body, code) => {
			const response = await fetch(`${fx.sandbox.baseUrl}${path}`, {
				method: 'POST',
				headers: {
					Authorization: 'Bearer mg_sandbox_full_access_key',
					'Content-Type': 'application/json',
					'Idempotency-Key': `k-${path}`,
				},
				body: JSON.stringify(body),
			});
			expect(response.status).toBe(400);
			expect(((await response.json()) as { code: string }).code).toBe(code);
			const endpoint = catalog.find((e) => e.method === 'POST' && e.path === path)!;
			const optionName = code === 'team_billing_unsupported' ? 'teamId' : 'projectId';
			const node = { MediaGenImage, MediaGenProduct, MediaGenModel3D, MediaGenAudio }[
				endpoint.node as 'MediaGenImage'
			];
			const options = new node().description.properties.filter(
				(p) =>
					p.name === 'options' && p.displayOptions?.show?.operation?.includes(endpoint.operation),
			);
			expect(options).toHaveLength(1);
			expect((options[0].options ?? []).map((o) => o.name)).not.toContain(optionName);
		},
	);
});
