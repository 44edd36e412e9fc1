import type { IDataObject, INodeExecutionData, INodeType } from 'n8n-workflow';

import { MediaGenAudio } from '../../nodes/MediaGenAudio/MediaGenAudio.node';
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenLipSync } from '../../nodes/MediaGenLipSync/MediaGenLipSync.node';
import { MediaGenModel3D } from '../../nodes/MediaGenModel3D/MediaGenModel3D.node';
import { MediaGenProduct } from '../../nodes/MediaGenProduct/MediaGenProduct.node';
import { MediaGenVideo } from '../../nodes/MediaGenVideo/MediaGenVideo.node';
import { makeWav, mp4Clip } from '../../sandbox/media-files';
import { runNode } from '../helpers/n8n-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';

const nodes: Record<string, INodeType> = {
	Image: new MediaGenImage(),
	Video: new MediaGenVideo(),
	Audio: new MediaGenAudio(),
	LipSync: new MediaGenLipSync(),
	Model3D: new MediaGenModel3D(),
	Product: new MediaGenProduct(),
};

const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://cdn.example.com/${i}.png`);
const binary = (name: string, bytes: Buffer, mimeType: string): INodeExecutionData[] => [
	{ json: {}, binary: { [name]: { data: bytes.toString('base64'), mimeType } } },
];
const voices = (n: number) =>
	JSON.stringify(
		Array.from({ length: n }, (_, i) => ({ text: `line ${i}`, voice_id: `voice_${i}` })),
	);

/**
 * [node, what, parameters, field as the message names it, allowed values as the message states them,
 * the API names the description gives (field · model limit or capability), input items]
 */
const badInputs: Array<
	[string, string, IDataObject, string, string, string, INodeExecutionData[]?]
> = [
	[
		'Image',
		'aspect ratio',
		{
			resource: 'image',
			operation: 'generate',
			model: 'image.aurora-1',
			prompt: 'p',
			aspectRatio: '4:3',
		},
		'Aspect Ratio',
		'one of 1:1, 16:9, 9:16',
		'aspect_ratio · model limit aspect_ratios',
	],
	[
		'Image',
		'count',
		{ resource: 'image', operation: 'generate', prompt: 'p', count: 9 },
		'Count',
		'at most 4',
		'count · model limit max_count',
	],
	[
		'Image',
		'prompt length',
		{ resource: 'image', operation: 'generate', model: 'image.lumen-xl', prompt: 'x'.repeat(2001) },
		'Prompt',
		'at most 2000 characters',
		'prompt · model limit max_prompt_chars',
	],
	[
		'Image',
		'scale factor',
		{
			resource: 'image',
			operation: 'upscale',
			model: 'image_upscale.fast',
			imageUrl: 'https://cdn.example.com/a.png',
			scale: 4,
		},
		'Scale Factor',
		'one of 2',
		'scale · model limit scale_factors',
	],
	[
		'Image',
		'reference images',
		{
			resource: 'image',
			operation: 'generate',
			model: 'image.sketch-preview',
			prompt: 'p',
			additionalFields: { referenceImageUrls: urls(1) },
		},
		'Reference Images',
		'no value: this model does not take it',
		'reference_image_urls · model capability reference_images',
	],
	[
		'Image',
		'capture URL',
		{ resource: 'image', operation: 'capture', url: 'ftp://example.com/a' },
		'URL',
		'an http:// or https:// URL',
		'url',
	],
	[
		'Image',
		'blockout aspect ratio',
		{ resource: 'image', operation: 'sceneBlockout', prompt: 'p', aspectRatio: '5:4' },
		'Aspect Ratio',
		'one of 1:1, 16:9, 9:16, 4:3, 3:4, 21:9',
		'aspect_ratio',
	],

	[
		'Video',
		'duration',
		{ resource: 'video', operation: 'generate', prompt: 'p', duration: 7 },
		'Duration (Seconds)',
		'one of 5, 10',
		'duration · model limit duration_seconds',
	],
	[
		'Video',
		'resolution',
		{
			resource: 'video',
			operation: 'generate',
			prompt: 'p',
			additionalFields: { resolution: '4k' },
		},
		'Resolution',
		'one of 480p, 720p, 1080p',
		'resolution',
	],
	[
		'Video',
		'reference count',
		{
			resource: 'video',
			operation: 'generate',
			prompt: 'p',
			additionalFields: { referenceImageUrls: urls(4) },
		},
		'Reference Images',
		'at most 3',
		'reference_image_urls · model limit max_reference_images',
	],
	[
		'Video',
		'prompt length',
		{ resource: 'video', operation: 'generate', prompt: 'x'.repeat(2501) },
		'Prompt',
		'at most 2500 characters',
		'prompt · model limit prompt_max_length',
	],
	[
		'Video',
		'camera keyframes',
		{
			resource: 'video',
			operation: 'generate',
			model: 'video.multi-angle',
			prompt: 'p',
			additionalFields: { cameraTrajectory: '[{"time": 0}]' },
		},
		'Camera Trajectory',
		'from 2 to 12 items',
		'camera_trajectory · model limit camera_keyframes',
	],
	[
		'Video',
		'keyframes',
		{
			resource: 'video',
			operation: 'generate',
			model: 'video.multi-angle',
			prompt: 'p',
			additionalFields: {
				keyframes: JSON.stringify(urls(5).map((u, i) => ({ time: i, image_url: u }))),
			},
		},
		'Keyframes',
		'at most 4',
		'keyframes · model limit max_keyframes',
	],
	[
		'Video',
		'camera path',
		{
			resource: 'video',
			operation: 'generate',
			model: 'video.multi-angle',
			prompt: 'p',
			additionalFields: { cameraPath: 'barrel_roll' },
		},
		'Camera Path',
		'one of orbit_left, orbit_right, dolly_in, crane_up',
		'camera_path',
	],
	[
		'Video',
		'video style',
		{
			resource: 'video',
			operation: 'generate',
			model: 'video.stylize-preview',
			prompt: 'p',
			additionalFields: { videoStyle: 'oil' },
		},
		'Video Style',
		'one of anime, claymation, vhs, noir',
		'video_style',
	],
	[
		'Video',
		'scale range',
		{
			resource: 'video',
			operation: 'upscale',
			model: 'video_upscale.flex',
			videoUrl: 'https://cdn.example.com/a.mp4',
			scale: 4,
		},
		'Scale Factor',
		'from 1.5 to 3',
		'scale · model limit min_scale_factor, max_scale_factor',
	],
	[
		'Video',
		'scale factor',
		{
			resource: 'video',
			operation: 'upscale',
			videoUrl: 'https://cdn.example.com/a.mp4',
			scale: 3,
		},
		'Scale Factor',
		'one of 2, 4',
		'scale · model limit scale_factors',
	],
	[
		'Video',
		'source video the model needs',
		{ resource: 'video', operation: 'generate', model: 'video.extend-1', duration: 5 },
		'Source Video',
		'a value: this model works on it',
		'source_video_url · model capability source_video',
	],
	[
		'Video',
		'image on a text-only model',
		{
			resource: 'video',
			operation: 'generate',
			model: 'video.motion-1',
			prompt: 'p',
			additionalFields: { imageUrl: 'https://cdn.example.com/a.png' },
		},
		'Image',
		'no value: this model does not take it',
		'image_url · model capability image_to_output',
	],
	[
		'Video',
		'audio on a model without the switch',
		{
			resource: 'video',
			operation: 'generate',
			model: 'video.motion-1',
			prompt: 'p',
			additionalFields: { generateAudio: true },
		},
		'Generate Audio',
		'off: the model has no such switch (its supports audio is false)',
		'generate_audio · model limit supports_audio',
	],
	[
		'Video',
		'audio on a model that reports no switch',
		{
			resource: 'video',
			operation: 'generate',
			model: 'video.stylize-preview',
			prompt: 'p',
			additionalFields: { generateAudio: true },
		},
		'Generate Audio',
		'off: the model has no such switch (it reports no supports audio)',
		'generate_audio · model limit supports_audio',
	],
	[
		'Video',
		'first and last frames',
		{
			resource: 'video',
			operation: 'generate',
			model: 'video.motion-1',
			prompt: 'p',
			additionalFields: { imageUrls: urls(2) },
		},
		'First and Last Frames',
		'no value: this model does not take it',
		'image_urls · model capability first_last_frame',
	],
	[
		'Video',
		'source video length (binary)',
		{
			resource: 'video',
			operation: 'generate',
			model: 'video.extend-1',
			duration: 5,
			additionalFields: { sourceVideoUrlBinaryProperty: 'clip' },
		},
		'Source Video',
		'at least 2 s',
		'source_video_url · model limit source_video_min_seconds',
		binary('clip', mp4Clip(), 'video/mp4'),
	],
	[
		'Video',
		'frame count',
		{
			resource: 'video',
			operation: 'extractFrames',
			videoUrl: 'https://cdn.example.com/a.mp4',
			count: 25,
		},
		'Count',
		'at most 20',
		'count',
	],

	[
		'Audio',
		'text length',
		{ resource: 'audio', operation: 'speech', text: 'x'.repeat(5001) },
		'Text',
		'at most 5000 characters',
		'text · model limit max_characters',
	],
	[
		'Audio',
		'dialogue voices',
		{
			resource: 'audio',
			operation: 'speech',
			model: 'speech.dialogue-1',
			additionalFields: { dialogue: voices(11) },
		},
		'Dialogue',
		'at most 10',
		'dialogue · model limit max_voices',
	],
	[
		'Audio',
		'music duration',
		{
			resource: 'audio',
			operation: 'music',
			prompt: 'p',
			additionalFields: { durationSeconds: 200 },
		},
		'Duration (Seconds)',
		'at most 180',
		'duration_seconds · model limit max_duration_seconds',
	],
	[
		'Audio',
		'sound effect duration',
		{
			resource: 'audio',
			operation: 'soundEffect',
			prompt: 'p',
			additionalFields: { durationSeconds: 31 },
		},
		'Duration (Seconds)',
		'at most 30',
		'duration_seconds · model limit max_duration_seconds',
	],
	[
		'Audio',
		'key terms',
		{
			resource: 'audio',
			operation: 'transcribe',
			audioUrl: 'https://cdn.example.com/a.mp3',
			additionalFields: { keyterms: Array.from({ length: 101 }, (_, i) => `t${i}`) },
		},
		'Key Terms',
		'at most 100',
		'keyterms · model limit max_keyterms',
	],

	[
		'LipSync',
		'resolution',
		{
			resource: 'lipSync',
			operation: 'generate',
			model: 'lipsync.sync-lite',
			audioUrl: 'https://cdn.example.com/a.mp3',
			videoUrl: 'https://cdn.example.com/f.mp4',
			additionalFields: { resolution: '1080p' },
		},
		'Resolution',
		'one of 480p, 720p',
		'resolution · model limit resolutions',
	],
	[
		'LipSync',
		'prompt length',
		{
			resource: 'lipSync',
			operation: 'generate',
			audioUrl: 'https://cdn.example.com/a.mp3',
			videoUrl: 'https://cdn.example.com/f.mp4',
			additionalFields: { prompt: 'x'.repeat(501) },
		},
		'Prompt',
		'at most 500 characters',
		'prompt · model limit prompt_max_length',
	],
	[
		'LipSync',
		'audio length (binary)',
		{
			resource: 'lipSync',
			operation: 'generate',
			model: 'lipsync.sync-lite',
			audioUrlSource: 'binary',
			audioUrlBinaryProperty: 'speech',
			videoUrl: 'https://cdn.example.com/f.mp4',
		},
		'Audio',
		'at most 30 s',
		'audio_url · model limit max_duration_seconds',
		binary('speech', makeWav(31, 1), 'audio/wav'),
	],
	[
		'LipSync',
		'model',
		{
			resource: 'lipSync',
			operation: 'generate',
			model: 'video.motion-2',
			audioUrl: 'https://cdn.example.com/a.mp3',
			videoUrl: 'https://cdn.example.com/f.mp4',
		},
		'Model',
		'lipsync.sync-1, lipsync.sync-lite',
		'model',
	],

	[
		'Model3D',
		'image count',
		{ resource: 'model3d', operation: 'generate', imageUrls: urls(5) },
		'Images',
		'at most 4',
		'image_urls',
	],
	[
		'Model3D',
		'image count of the model',
		{ resource: 'model3d', operation: 'generate', model: '3d.mesh-lite', imageUrls: urls(2) },
		'Images',
		'at most 1',
		'image_urls · model limit max_images',
	],
	[
		'Model3D',
		'polycount floor',
		{
			resource: 'model3d',
			operation: 'generate',
			imageUrls: urls(1),
			additionalFields: { targetPolycount: 50 },
		},
		'Target Polycount',
		'at least 100',
		'target_polycount',
	],
	[
		'Model3D',
		'polycount of the model',
		{
			resource: 'model3d',
			operation: 'generate',
			model: '3d.mesh-lite',
			imageUrls: urls(1),
			additionalFields: { targetPolycount: 60000 },
		},
		'Target Polycount',
		'from 100 to 50000',
		'target_polycount · model limit target_polycount',
	],
	[
		'Model3D',
		'output format',
		{
			resource: 'model3d',
			operation: 'generate',
			imageUrls: urls(1),
			outputFormats: ['glb', 'ply'],
		},
		'Output Formats',
		'one of glb, fbx, obj, usdz, blend, stl',
		'output_formats · model limit output_formats',
	],
	[
		'Model3D',
		'topology',
		{
			resource: 'model3d',
			operation: 'generate',
			imageUrls: urls(1),
			additionalFields: { topology: 'ngon' },
		},
		'Topology',
		'one of quad, triangle',
		'topology · model limit topology',
	],

	[
		'Product',
		'URL',
		{ resource: 'product', operation: 'extract', url: 'ftp://shop.example.com/p/1' },
		'Product URL',
		'an http:// or https:// URL',
		'url',
	],
	[
		'Product',
		'too few images',
		{
			resource: 'product',
			operation: 'extract',
			url: 'https://shop.example.com/p/1',
			additionalFields: { maxImages: 0 },
		},
		'Max Images',
		'at least 1',
		'max_images',
	],
	[
		'Product',
		'too many images',
		{
			resource: 'product',
			operation: 'extract',
			url: 'https://shop.example.com/p/1',
			additionalFields: { maxImages: 50 },
		},
		'Max Images',
		'at most 10',
		'max_images',
	],
];

describe('out-of-limit input is refused before any request that could spend credits', () => {
	let fx: Fixture;
	beforeAll(async () => {
		fx = await startFixture();
	});
	afterAll(async () => fx.sandbox.close());

	it('covers every generating node with at least three bad inputs', () => {
		for (const node of Object.keys(nodes))
			expect(badInputs.filter(([n]) => n === node).length).toBeGreaterThanOrEqual(3);
	});

	// rest parameters: jest would take a sixth declared parameter of a five-value row for `done`
	it.each(badInputs)('%s: %s', async (...row) => {
		const [node, , parameters, field, allowed, apiNames, input] = row;
		const [apiField, modelRule] = apiNames.split(' · ');
		const before = fx.sandbox.state.requests.filter((r) => r.method !== 'GET').length;
		const { error, items } = await runNode({
			nodeType: nodes[node],
			credentials: fx.credentials,
			parameters,
			input,
		});
		expect(items).toHaveLength(0);
		expect(error?.description).toMatch(/Nothing was sent/);
		expect(error?.message.startsWith(`${field}: `)).toBe(true);
		expect(error?.message).toContain(`allowed: ${allowed}`);
		// the message speaks the field's label; the API names follow in the description
		expect(error?.message).not.toContain(`(${apiField})`);
		expect(error?.message).not.toMatch(/model (limit|capability)/);
		expect(error?.description).toContain(`API field ${apiField}`);
		if (modelRule) expect(error?.description).toContain(modelRule);
		expect(fx.sandbox.state.requests.filter((r) => r.method !== 'GET').length).toBe(before);
		expect(fx.sandbox.state.runs.size).toBe(0);
	});

	it('does not invent a bound the model lacks: the extend model reports no prompt cap, so a long prompt is sent', async () => {
		const { error, items } = await runNode({
			nodeType: nodes.Video,
			credentials: fx.credentials,
			parameters: {
				resource: 'video',
				operation: 'generate',
				model: 'video.extend-1',
				prompt: 'x'.repeat(3000),
				duration: 5,
				additionalFields: { sourceVideoUrl: 'https://cdn.example.com/src.mp4' },
			},
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ status: 'completed', model: 'video.extend-1' });
	});

	it('counts a prompt in characters, as the document does: an emoji is one character, not two UTF-16 units', async () => {
		const atCap = `${'x'.repeat(1999)}\u{1F3AC}`;
		const sent = await runNode({
			nodeType: nodes.Image,
			credentials: fx.credentials,
			parameters: {
				resource: 'image',
				operation: 'generate',
				model: 'image.aurora-1',
				prompt: atCap,
			},
		});
		expect(sent.error).toBeUndefined();
		expect(sent.items[0].json).toMatchObject({ status: 'completed', model: 'image.aurora-1' });
		const refused = await runNode({
			nodeType: nodes.Image,
			credentials: fx.credentials,
			parameters: {
				resource: 'image',
				operation: 'generate',
				model: 'image.aurora-1',
				prompt: `x${atCap}`,
			},
		});
		expect(refused.error?.message).toContain('2001 characters');
		expect(refused.error?.message).toContain('allowed: at most 2000 characters');
	});

	it('refuses a choice the model does not list at all (the extend model lists no aspect ratios): nothing is sent', async () => {
		const submits = () =>
			fx.sandbox.state.requests.filter(
				(r) => r.method === 'POST' && r.path === '/v1/videos/generations',
			).length;
		const before = submits();
		const { error } = await runNode({
			nodeType: nodes.Video,
			credentials: fx.credentials,
			parameters: {
				resource: 'video',
				operation: 'generate',
				model: 'video.extend-1',
				prompt: 'x',
				aspectRatio: '7:3',
				duration: 5,
				additionalFields: { sourceVideoUrl: 'https://cdn.example.com/src.mp4' },
			},
		});
		expect(error?.message).toBe(
			'Aspect Ratio: "7:3" is not allowed by the model Extend (video.extend-1); allowed: no value: the model lists no aspect ratios',
		);
		expect(error?.description).toContain('API field aspect_ratio; model limit aspect_ratios');
		expect(submits()).toBe(before);
	});
});
