import type { AxiosInstance } from 'axios';

import { videoFile } from '../../sandbox/outputs';
import type { Sandbox } from '../../sandbox/server';
import { expectProblem, idem, openSandbox, waitForRun } from './helpers';

/**
 * The generation parameters as the API document's "Parameters named for generation" and "Limits"
 * tables define them: each refusal is 400 invalid_parameter naming the parameter, and creates no run.
 */
describe('sandbox generation parameters, as strict as the API document', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 30 }));
	});
	afterAll(() => sandbox.close());

	async function refused(
		path: string,
		body: Record<string, unknown>,
		param: string,
	): Promise<Record<string, unknown>> {
		const runs = sandbox.state.runs.size;
		const problem = expectProblem(await http.post(path, body, idem()), 400, 'invalid_parameter');
		expect({ path, body, param: problem.param }).toEqual({ path, body, param });
		expect(sandbox.state.runs.size).toBe(runs);
		return problem;
	}

	const accepted = async (path: string, body: Record<string, unknown>) => {
		const res = await http.post(path, body, idem());
		expect({
			path,
			body,
			status: res.status,
			problem: res.status === 202 ? undefined : res.data,
		}).toEqual({ path, body, status: 202, problem: undefined });
		return res.data as { id: string };
	};

	describe('music and sound effect length (duration_seconds)', () => {
		it.each([
			['/audio/music', { prompt: 'lo-fi', duration_seconds: 0 }],
			['/audio/sfx', { prompt: 'rain', duration_seconds: 0 }],
			['/audio/sfx', { prompt: 'rain', duration_seconds: 31 }],
			['/audio/music', { prompt: 'lo-fi', duration_seconds: 181 }],
			['/audio/music', { prompt: 'lo-fi', duration_seconds: 2.5 }],
			['/audio/sfx', { prompt: 'rain', duration_seconds: '5' }],
		])('%s refuses %j', async (path, body) => {
			await refused(path, body, 'duration_seconds');
		});

		it('takes 1 up to the model limit, and no length at all (the model decides)', async () => {
			await accepted('/audio/sfx', { prompt: 'rain', duration_seconds: 30 });
			await accepted('/audio/sfx', { prompt: 'rain', duration_seconds: 1 });
			await accepted('/audio/music', {
				prompt: 'lo-fi',
				model: 'music.compose-long',
				duration_seconds: 600,
			});
			await accepted('/audio/music', { prompt: 'lo-fi' });
		});
	});

	describe('text lengths in characters (the document counts characters, not UTF-16 units)', () => {
		// one emoji is one character, two UTF-16 units: 1,999 letters and one emoji are 2,000 characters
		const atCap = `${'x'.repeat(1999)}\u{1F3AC}`;
		it('takes a prompt of exactly prompt_max_length characters that holds an emoji', async () => {
			expect(atCap.length).toBe(2001);
			await accepted('/images/generations', { prompt: atCap, model: 'image.aurora-1' });
		});
		it('refuses one character more', async () => {
			const problem = await refused(
				'/images/generations',
				{ prompt: `x${atCap}`, model: 'image.aurora-1' },
				'prompt',
			);
			expect(String(problem.detail)).toContain('2001 characters, at most 2000');
		});
		it('counts speech text and dialogue in characters too', async () => {
			await accepted('/audio/speech', { text: `${'x'.repeat(4999)}\u{1F3AC}` });
			await refused('/audio/speech', { text: `xx${'x'.repeat(4998)}\u{1F3AC}` }, 'text');
			const line = (text: string) => [{ text, voice_id: 'voice_aria' }];
			await accepted('/audio/speech', { model: 'speech.dialogue-1', dialogue: line(atCap) });
			await refused(
				'/audio/speech',
				{ model: 'speech.dialogue-1', dialogue: line(`x${atCap}`) },
				'dialogue',
			);
		});
	});

	describe('mentions', () => {
		it('takes mentions of ready influencers', async () => {
			await accepted('/images/generations', {
				prompt: '@ava on a beach',
				mentions: [{ handle: 'ava', influencer_id: 'inf_ava' }],
			});
		});

		it.each([
			['a draft influencer', [{ handle: 'leo', influencer_id: 'inf_leo' }], /draft/],
			['an archived influencer', [{ handle: 'mia_old', influencer_id: 'inf_mia_old' }], /archived/],
			['an unknown influencer', [{ handle: 'zed', influencer_id: 'inf_nobody' }], /no influencer/],
			['a mention without handle', [{ influencer_id: 'inf_ava' }], /handle/],
			['a mention without influencer_id', [{ handle: 'ava' }], /influencer_id/],
			['a string instead of objects', ['@ava'], /object/],
			['an object instead of an array', { handle: 'ava', influencer_id: 'inf_ava' }, /array/],
		])('refuses %s', async (_what, mentions, why) => {
			const problem = await refused('/images/generations', { prompt: 'p', mentions }, 'mentions');
			expect(String(problem.detail)).toMatch(why);
		});
	});

	describe('image inputs bounded by the model', () => {
		const urls = (n: number) =>
			Array.from({ length: n }, (_, i) => `https://cdn.example.com/${i}.png`);

		it('takes image_urls up to max_input_images on a multi-input model', async () => {
			await accepted('/images/generations', {
				prompt: 'p',
				model: 'image.lumen-xl',
				image_urls: urls(6),
			});
			await refused(
				'/images/generations',
				{ prompt: 'p', model: 'image.lumen-xl', image_urls: urls(7) },
				'image_urls',
			);
		});

		it('refuses image_urls on a model that reports no max_input_images', async () => {
			await refused(
				'/images/generations',
				{ prompt: 'p', model: 'image.aurora-2', image_urls: urls(1) },
				'image_urls',
			);
		});

		it('bounds reference_image_urls by max_reference_images, not by max_input_images', async () => {
			await accepted('/images/generations', {
				prompt: 'p',
				model: 'image.fuse-1',
				image_urls: urls(3),
				reference_image_urls: urls(2),
			});
			await refused(
				'/images/generations',
				{ prompt: 'p', model: 'image.fuse-1', reference_image_urls: urls(3) },
				'reference_image_urls',
			);
			await refused(
				'/images/generations',
				{ prompt: 'p', model: 'image.lumen-xl', reference_image_urls: urls(1) },
				'reference_image_urls',
			);
		});

		it('refuses what is not a URI array', async () => {
			await refused(
				'/images/generations',
				{ prompt: 'p', model: 'image.lumen-xl', image_urls: 'https://cdn.example.com/a.png' },
				'image_urls',
			);
			await refused(
				'/images/generations',
				{ prompt: 'p', model: 'image.lumen-xl', image_urls: ['a.png'] },
				'image_urls',
			);
		});
	});

	describe('upscaling: scale and modes', () => {
		it('takes scale from scale_factors and modes (a string) from the model modes', async () => {
			await accepted('/images/upscale', {
				image_url: 'https://cdn.example.com/a.png',
				scale: 4,
				modes: 'creative',
			});
			await accepted('/videos/upscale', {
				video_url: 'https://cdn.example.com/a.mp4',
				model: 'video_upscale.flex',
				scale: 2.5,
			});
			await refused(
				'/images/upscale',
				{ image_url: 'https://cdn.example.com/a.png', scale: 3 },
				'scale',
			);
			await refused(
				'/videos/upscale',
				{ video_url: 'https://cdn.example.com/a.mp4', model: 'video_upscale.flex', scale: 4 },
				'scale',
			);
			await refused(
				'/images/upscale',
				{ image_url: 'https://cdn.example.com/a.png', modes: 'fast' },
				'modes',
			);
			await refused(
				'/images/upscale',
				{ image_url: 'https://cdn.example.com/a.png', modes: ['precise'] },
				'modes',
			);
			await refused(
				'/images/upscale',
				{
					image_url: 'https://cdn.example.com/a.png',
					model: 'image_upscale.fast',
					modes: 'precise',
				},
				'modes',
			);
		});

		it('refuses `mode` and names the document wire name `modes`', async () => {
			for (const path of ['/images/upscale', '/videos/upscale']) {
				const problem = await refused(
					path,
					{
						image_url: 'https://cdn.example.com/a.png',
						video_url: 'https://cdn.example.com/a.mp4',
						mode: 'precise',
					},
					'mode',
				);
				expect(String(problem.detail)).toContain('modes');
			}
		});
	});

	describe('limits of video and speech models', () => {
		it('takes generate_audio true only where the model reports supports_audio true', async () => {
			await accepted('/videos/generations', {
				prompt: 'p',
				model: 'video.motion-2',
				duration: 5,
				generate_audio: true,
			});
			await refused(
				'/videos/generations',
				{ prompt: 'p', model: 'video.motion-1', duration: 5, generate_audio: true },
				'generate_audio',
			);
			// a model that reports no supports_audio has no toggle either
			await refused(
				'/videos/generations',
				{ prompt: 'p', model: 'video.stylize-preview', duration: 5, generate_audio: true },
				'generate_audio',
			);
			await accepted('/videos/generations', {
				prompt: 'p',
				model: 'video.motion-1',
				duration: 5,
				generate_audio: false,
			});
		});

		it('bounds speech speed by nothing but its being a positive number (no invented 0.5 to 2)', async () => {
			await accepted('/audio/speech', { text: 'hello there', speed: 3 });
			await accepted('/audio/speech', { text: 'hello there', speed: 0.25 });
			await refused('/audio/speech', { text: 'hello there', speed: 0 }, 'speed');
			await refused('/audio/speech', { text: 'hello there', speed: 'fast' }, 'speed');
		});

		it('measures a stored source video against source_video_max_shot_seconds (the sandbox files are single shots)', async () => {
			const upload = async (seconds: number) => {
				const created = await http.post('/uploads', { content_type: 'video/mp4' });
				const put = await fetch(created.data.upload_url, {
					method: 'PUT',
					headers: { 'Content-Type': 'video/mp4' },
					body: videoFile(seconds, false),
				});
				expect(put.status).toBe(200);
				return created.data.asset_url as string;
			};
			const problem = await refused(
				'/videos/generations',
				{ model: 'video.recast-1', duration: 5, source_video_url: await upload(12) },
				'source_video_url',
			);
			expect(String(problem.detail)).toContain('source_video_max_shot_seconds');
			await accepted('/videos/generations', {
				model: 'video.recast-1',
				duration: 5,
				source_video_url: await upload(8),
			});
		});

		it('needs source_video_url on a model with capabilities.source_video, and only there', async () => {
			await refused(
				'/videos/generations',
				{ prompt: 'p', model: 'video.extend-1', duration: 5 },
				'source_video_url',
			);
			await accepted('/videos/generations', { prompt: 'p', model: 'video.motion-2', duration: 5 });
		});
	});

	describe('loras', () => {
		it('takes completed trained models of the account on a model that reports loras, and refuses others', async () => {
			const images = Array.from({ length: 4 }, (_, i) => `https://cdn.example.com/face${i}.jpg`);
			sandbox.state.options.latencyMs = 1000; // long enough to submit while the LoRA is still training
			const training = await http.post('/loras', { name: 'Me', image_urls: images }, idem());
			sandbox.state.options.latencyMs = 30;
			expect(training.status).toBe(202);
			const loraId = training.data.resource_id as string;
			await refused('/images/generations', { prompt: 'p', loras: [{ id: loraId }] }, 'loras');
			await waitForRun(http, training.data.id);
			await accepted('/images/generations', { prompt: 'p', loras: [{ id: loraId, scale: 0.8 }] });
			await refused('/images/generations', { prompt: 'p', loras: [{ id: 'lora_nope' }] }, 'loras');
			await refused(
				'/images/generations',
				{ prompt: 'p', model: 'image.lumen-xl', loras: [{ id: loraId }] },
				'loras',
			);
			await refused('/images/generations', { prompt: 'p', loras: [] }, 'loras');
		});
	});
});
