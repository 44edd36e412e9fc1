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
const binary = (name: string, bytes: Buffer, mimeType: string): INodeExecutionData[] => [{ json: {}, binary: { [name]: { data: bytes.toString('base64'), mimeType } } }];
const voices = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ text: `line ${i}`, voice_id: `voice_${i}` })));

/** [node, what, parameters, field as the message names it, allowed values as the message states them] */
const badInputs: Array<[string, string, IDataObject, string, string, INodeExecutionData[]?]> = [
	['Image', 'aspect ratio', { resource: 'image', operation: 'generate', model: 'image.aurora-1', prompt: 'p', aspectRatio: '4:3' }, 'Aspect Ratio (aspect_ratio)', 'one of 1:1, 16:9, 9:16 (model limit aspect_ratios)'],
	['Image', 'count', { resource: 'image', operation: 'generate', prompt: 'p', count: 9 }, 'Count (count)', 'at most 4 (model limit max_count)'],
	['Image', 'prompt length', { resource: 'image', operation: 'generate', model: 'image.lumen-xl', prompt: 'x'.repeat(2001) }, 'Prompt (prompt)', 'at most 2000 characters (model limit max_prompt_chars)'],
	['Image', 'scale factor', { resource: 'image', operation: 'upscale', model: 'image_upscale.fast', imageUrl: 'https://cdn.example.com/a.png', scale: 4 }, 'Scale Factor (scale)', 'one of 2 (model limit scale_factors)'],
	['Image', 'reference images', { resource: 'image', operation: 'generate', model: 'image.sketch-preview', prompt: 'p', additionalFields: { referenceImageUrls: urls(1) } }, 'Reference Images (reference_image_urls)', 'no value (model capability reference_images is false)'],
	['Image', 'capture URL', { resource: 'image', operation: 'capture', url: 'ftp://example.com/a' }, 'URL (url)', 'an http:// or https:// URL'],
	['Image', 'blockout aspect ratio', { resource: 'image', operation: 'sceneBlockout', prompt: 'p', aspectRatio: '5:4' }, 'Aspect Ratio (aspect_ratio)', 'one of 1:1, 16:9, 9:16, 4:3, 3:4, 21:9'],

	['Video', 'duration', { resource: 'video', operation: 'generate', prompt: 'p', duration: 7 }, 'Duration (Seconds) (duration)', 'one of 5, 10 (model limit duration_seconds)'],
	['Video', 'resolution', { resource: 'video', operation: 'generate', prompt: 'p', additionalFields: { resolution: '4k' } }, 'Resolution (resolution)', 'one of 480p, 720p, 1080p'],
	['Video', 'reference count', { resource: 'video', operation: 'generate', prompt: 'p', additionalFields: { referenceImageUrls: urls(4) } }, 'Reference Images (reference_image_urls)', 'at most 3 (model limit max_reference_images)'],
	['Video', 'prompt length', { resource: 'video', operation: 'generate', prompt: 'x'.repeat(2501) }, 'Prompt (prompt)', 'at most 2500 characters (model limit prompt_max_length)'],
	['Video', 'camera keyframes', { resource: 'video', operation: 'generate', model: 'video.multi-angle', prompt: 'p', additionalFields: { cameraTrajectory: '[{"time": 0}]' } }, 'Camera Trajectory (camera_trajectory)', 'from 2 to 12 items (model limit camera_keyframes)'],
	['Video', 'keyframes', { resource: 'video', operation: 'generate', model: 'video.multi-angle', prompt: 'p', additionalFields: { keyframes: JSON.stringify(urls(5).map((u, i) => ({ time: i, image_url: u }))) } }, 'Keyframes (keyframes)', 'at most 4 (model limit max_keyframes)'],
	['Video', 'camera path', { resource: 'video', operation: 'generate', model: 'video.multi-angle', prompt: 'p', additionalFields: { cameraPath: 'barrel_roll' } }, 'Camera Path (camera_path)', 'one of orbit_left, orbit_right, dolly_in, crane_up'],
	['Video', 'video style', { resource: 'video', operation: 'generate', model: 'video.stylize-preview', prompt: 'p', additionalFields: { videoStyle: 'oil' } }, 'Video Style (video_style)', 'one of anime, claymation, vhs, noir'],
	['Video', 'scale range', { resource: 'video', operation: 'upscale', model: 'video_upscale.flex', videoUrl: 'https://cdn.example.com/a.mp4', scale: 4 }, 'Scale Factor (scale)', 'from 1.5 to 3 (model limit min_scale_factor, max_scale_factor)'],
	['Video', 'scale factor', { resource: 'video', operation: 'upscale', videoUrl: 'https://cdn.example.com/a.mp4', scale: 3 }, 'Scale Factor (scale)', 'one of 2, 4 (model limit scale_factors)'],
	['Video', 'source video the model needs', { resource: 'video', operation: 'generate', model: 'video.extend-1', duration: 5 }, 'Source Video (source_video_url)', 'a value: the model works on it (model capability source_video)'],
	['Video', 'image on a text-only model', { resource: 'video', operation: 'generate', model: 'video.motion-1', prompt: 'p', additionalFields: { imageUrl: 'https://cdn.example.com/a.png' } }, 'Image (image_url)', 'no value (model capability image_to_output is false)'],
	['Video', 'audio on a model without the switch', { resource: 'video', operation: 'generate', model: 'video.motion-1', prompt: 'p', additionalFields: { generateAudio: true } }, 'Generate Audio (generate_audio)', 'off: the model has no such switch (model limit supports_audio is false)'],
	['Video', 'first and last frames', { resource: 'video', operation: 'generate', model: 'video.motion-1', prompt: 'p', additionalFields: { imageUrls: urls(2) } }, 'First and Last Frames (image_urls)', 'no value (model capability first_last_frame is false)'],
	['Video', 'source video length (binary)', { resource: 'video', operation: 'generate', model: 'video.extend-1', duration: 5, additionalFields: { sourceVideoUrlBinaryProperty: 'clip' } }, 'Source Video (source_video_url)', 'at least 2 s (model limit source_video_min_seconds)', binary('clip', mp4Clip(), 'video/mp4')],
	['Video', 'frame count', { resource: 'video', operation: 'extractFrames', videoUrl: 'https://cdn.example.com/a.mp4', count: 25 }, 'Count (count)', 'at most 20'],

	['Audio', 'text length', { resource: 'audio', operation: 'speech', text: 'x'.repeat(5001) }, 'Text (text)', 'at most 5000 characters (model limit max_characters)'],
	['Audio', 'dialogue voices', { resource: 'audio', operation: 'speech', model: 'speech.dialogue-1', additionalFields: { dialogue: voices(11) } }, 'Dialogue (dialogue)', 'at most 10 (model limit max_voices)'],
	['Audio', 'music duration', { resource: 'audio', operation: 'music', prompt: 'p', additionalFields: { durationSeconds: 200 } }, 'Duration (Seconds) (duration_seconds)', 'at most 180 (model limit max_duration_seconds)'],
	['Audio', 'sound effect duration', { resource: 'audio', operation: 'soundEffect', prompt: 'p', additionalFields: { durationSeconds: 31 } }, 'Duration (Seconds) (duration_seconds)', 'at most 30 (model limit max_duration_seconds)'],
	['Audio', 'key terms', { resource: 'audio', operation: 'transcribe', audioUrl: 'https://cdn.example.com/a.mp3', additionalFields: { keyterms: Array.from({ length: 101 }, (_, i) => `t${i}`) } }, 'Key Terms (keyterms)', 'at most 100 (model limit max_keyterms)'],

	['LipSync', 'resolution', { resource: 'lipSync', operation: 'generate', model: 'lipsync.sync-lite', audioUrl: 'https://cdn.example.com/a.mp3', videoUrl: 'https://cdn.example.com/f.mp4', additionalFields: { resolution: '1080p' } }, 'Resolution (resolution)', 'one of 480p, 720p (model limit resolutions)'],
	['LipSync', 'prompt length', { resource: 'lipSync', operation: 'generate', audioUrl: 'https://cdn.example.com/a.mp3', videoUrl: 'https://cdn.example.com/f.mp4', additionalFields: { prompt: 'x'.repeat(501) } }, 'Prompt (prompt)', 'at most 500 characters (model limit prompt_max_length)'],
	['LipSync', 'audio length (binary)', { resource: 'lipSync', operation: 'generate', model: 'lipsync.sync-lite', audioUrlSource: 'binary', audioUrlBinaryProperty: 'speech', videoUrl: 'https://cdn.example.com/f.mp4' }, 'Audio (audio_url)', 'at most 30 s (model limit max_duration_seconds)', binary('speech', makeWav(31, 1), 'audio/wav')],
	['LipSync', 'model', { resource: 'lipSync', operation: 'generate', model: 'video.motion-2', audioUrl: 'https://cdn.example.com/a.mp3', videoUrl: 'https://cdn.example.com/f.mp4' }, 'Model (model)', 'lipsync.sync-1, lipsync.sync-lite'],

	['Model3D', 'image count', { resource: 'model3d', operation: 'generate', imageUrls: urls(5) }, 'Images (image_urls)', 'at most 4'],
	['Model3D', 'image count of the model', { resource: 'model3d', operation: 'generate', model: '3d.mesh-lite', imageUrls: urls(2) }, 'Images (image_urls)', 'at most 1 (model limit max_images)'],
	['Model3D', 'polycount floor', { resource: 'model3d', operation: 'generate', imageUrls: urls(1), additionalFields: { targetPolycount: 50 } }, 'Target Polycount (target_polycount)', 'at least 100'],
	['Model3D', 'polycount of the model', { resource: 'model3d', operation: 'generate', model: '3d.mesh-lite', imageUrls: urls(1), additionalFields: { targetPolycount: 60000 } }, 'Target Polycount (target_polycount)', 'from 100 to 50000 (model limit target_polycount)'],
	['Model3D', 'output format', { resource: 'model3d', operation: 'generate', imageUrls: urls(1), outputFormats: ['glb', 'ply'] }, 'Output Formats (output_formats)', 'one of glb, fbx, obj, usdz, blend, stl (model limit output_formats)'],
	['Model3D', 'topology', { resource: 'model3d', operation: 'generate', imageUrls: urls(1), additionalFields: { topology: 'ngon' } }, 'Topology (topology)', 'one of quad, triangle (model limit topology)'],

	['Product', 'URL', { resource: 'product', operation: 'extract', url: 'ftp://shop.example.com/p/1' }, 'Product URL (url)', 'an http:// or https:// URL'],
	['Product', 'too few images', { resource: 'product', operation: 'extract', url: 'https://shop.example.com/p/1', additionalFields: { maxImages: 0 } }, 'Max Images (max_images)', 'at least 1'],
	['Product', 'too many images', { resource: 'product', operation: 'extract', url: 'https://shop.example.com/p/1', additionalFields: { maxImages: 50 } }, 'Max Images (max_images)', 'at most 10'],
];

describe('out-of-limit input is refused before any request that could spend credits', () => {
	let fx: Fixture;
	beforeAll(async () => {
		fx = await startFixture();
	});
	afterAll(async () => fx.sandbox.close());

	it('covers every generating node with at least three bad inputs', () => {
		for (const node of Object.keys(nodes)) expect(badInputs.filter(([n]) => n === node).length).toBeGreaterThanOrEqual(3);
	});

	// rest parameters: jest would take a sixth declared parameter of a five-value row for `done`
	it.each(badInputs)('%s: %s', async (...row) => {
		const [node, , parameters, field, allowed, input] = row;
		const before = fx.sandbox.state.requests.filter((r) => r.method !== 'GET').length;
		const { error, items } = await runNode({ nodeType: nodes[node], credentials: fx.credentials, parameters, input });
		expect(items).toHaveLength(0);
		expect(error?.description).toMatch(/Nothing was sent/);
		expect(error?.message.startsWith(`${field}: `)).toBe(true);
		expect(error?.message).toContain(`allowed: ${allowed}`);
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

	it('refuses a choice the model does not list at all (the extend model lists no aspect ratios): nothing is sent', async () => {
		const submits = () => fx.sandbox.state.requests.filter((r) => r.method === 'POST' && r.path === '/v1/videos/generations').length;
		const before = submits();
		const { error } = await runNode({
			nodeType: nodes.Video,
			credentials: fx.credentials,
			parameters: { resource: 'video', operation: 'generate', model: 'video.extend-1', prompt: 'x', aspectRatio: '7:3', duration: 5, additionalFields: { sourceVideoUrl: 'https://cdn.example.com/src.mp4' } },
		});
		expect(error?.message).toContain('Aspect Ratio (aspect_ratio): "7:3" is not allowed by model video.extend-1; allowed: no value: the model lists no aspect ratios');
		expect(submits()).toBe(before);
	});
});
