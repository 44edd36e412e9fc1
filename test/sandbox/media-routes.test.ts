import type { AxiosInstance } from 'axios';

import { mp4Clip } from '../../sandbox/media-files';
import type { Sandbox } from '../../sandbox/server';
import { clientFor, expectProblem, idem, openSandbox, waitForRun } from './helpers';

describe('sandbox video, audio and media routes', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 50 }));
	});
	afterAll(() => sandbox.close());

	it('drafts: finalizing needs a completed draft of the same account; a running draft is draft_not_ready', async () => {
		sandbox.state.options.latencyMs = 1000; // the draft must still be running when the final is asked for
		const draft = await http.post(
			'/videos/generations',
			{ prompt: 'a draft', duration: 5, draft: true },
			idem(),
		);
		sandbox.state.options.latencyMs = 50;
		expect(draft.status).toBe(202);
		expectProblem(
			await http.post(`/videos/generations/${draft.data.id}/final`, {}),
			409,
			'draft_not_ready',
		);
		const done = await waitForRun(http, draft.data.id);
		expect((done.output as Record<string, string>).draft_cache_url).toMatch(/\.mp4\?/);
		const final = await http.post(`/videos/generations/${draft.data.id}/final`, {}, idem());
		expect(final.status).toBe(202);
		expect(final.data.endpoint).toBe('POST /videos/generations/{id}/final');
		expectProblem(await http.post('/videos/generations/run_missing/final', {}), 404, 'not_found');

		const stranger = clientFor(
			sandbox.baseUrl,
			sandbox.state.createApiKey(['videos:write'], 'other', 'acc_other'),
		);
		sandbox.state.accounts.set('acc_other', {
			...sandbox.state.account('acc_sandbox'),
			id: 'acc_other',
		});
		expectProblem(
			await stranger.post(`/videos/generations/${draft.data.id}/final`, {}),
			404,
			'not_found',
		);
	});

	it('the final needs videos:write (decisions.md) and replays on the same Idempotency-Key', async () => {
		const draft = await http.post(
			'/videos/generations',
			{ prompt: 'replay', duration: 5, draft: true },
			idem(),
		);
		await waitForRun(http, draft.data.id);
		const narrow = clientFor(sandbox.baseUrl, sandbox.state.createApiKey(['runs:read']));
		expectProblem(
			await narrow.post(`/videos/generations/${draft.data.id}/final`, {}),
			403,
			'insufficient_scope',
		);
		const first = await http.post(
			`/videos/generations/${draft.data.id}/final`,
			{},
			idem('final-key'),
		);
		const again = await http.post(
			`/videos/generations/${draft.data.id}/final`,
			{},
			idem('final-key'),
		);
		expect(again.data.id).toBe(first.data.id);
		expect(again.headers['idempotent-replayed']).toBe('true');
	});

	it('timelines: bad clips are invalid_parameter; another account cannot read them; renders are listed newest first', async () => {
		expectProblem(
			await http.post('/videos/timelines', { name: 'x', clips: [] }),
			400,
			'invalid_parameter',
		);
		expectProblem(
			await http.post('/videos/timelines', { name: 'x', clips: [{ duration: 3 }] }),
			400,
			'invalid_parameter',
		);
		const created = await http.post('/videos/timelines', {
			name: 'Cut',
			clips: [
				{ video_url: 'https://cdn.example.com/a.mp4', duration: 2 },
				{ image_url: 'https://cdn.example.com/b.png', start: 1, duration: 4 },
			],
		});
		expect(created.status).toBe(201);
		expect(created.data.duration_seconds).toBe(5);
		const id = created.data.id as string;
		const one = await http.post(`/videos/timelines/${id}/renders`, {}, idem());
		const two = await http.post(`/videos/timelines/${id}/renders`, { resolution: '720p' }, idem());
		expect([one.status, two.status]).toEqual([202, 202]);
		const list = await http.get(`/videos/timelines/${id}/renders`);
		expect(list.data.data.map((r: { id: string }) => r.id)).toEqual([two.data.id, one.data.id]);
		await waitForRun(http, one.data.id);
		expect(sandbox.state.chargesFor(one.data.id)[0].credits).toBe(5);
		expectProblem(
			await http.post('/videos/timelines/tl_missing/renders', {}, idem()),
			404,
			'not_found',
		);
		sandbox.state.accounts.set('acc_third', {
			...sandbox.state.account('acc_sandbox'),
			id: 'acc_third',
		});
		const stranger = clientFor(
			sandbox.baseUrl,
			sandbox.state.createApiKey(['videos:write'], 'third', 'acc_third'),
		);
		expectProblem(await stranger.get(`/videos/timelines/${id}`), 404, 'not_found');
		expectProblem(
			await stranger.patch(`/videos/timelines/${id}`, { name: 'mine now' }),
			404,
			'not_found',
		);
	});

	it('frames: 1 to 20, as signed PNG assets usable as image inputs', async () => {
		expectProblem(
			await http.post('/media/frames', { video_url: 'https://cdn.example.com/a.mp4', count: 21 }),
			400,
			'invalid_parameter',
		);
		expectProblem(await http.post('/media/frames', {}), 400, 'invalid_parameter');
		const frames = await http.post('/media/frames', {
			video_url: 'https://cdn.example.com/a.mp4',
			timestamps: [0, 1.5],
		});
		expect(frames.data.frames.map((f: { time: number }) => f.time)).toEqual([0, 1.5]);
		const asUpload = await http.post(
			'/images/upscale',
			{ image_url: frames.data.frames[0].url, scale: 2 },
			idem(),
		);
		expect(asUpload.status).toBe(202);
	});

	it('speech: dialogue needs a model with max_voices and known voices; limits are checked server-side too', async () => {
		const dialogue = [{ text: 'Hi', voice_id: 'voice_aria' }];
		expectProblem(await http.post('/audio/speech', { dialogue }, idem()), 400, 'invalid_parameter');
		expectProblem(
			await http.post(
				'/audio/speech',
				{ model: 'speech.dialogue-1', dialogue: [{ text: 'Hi', voice_id: 'voice_x' }] },
				idem(),
			),
			400,
			'invalid_parameter',
		);
		const many = Array.from({ length: 11 }, (_, i) => ({
			text: 'a',
			voice_id: `voice_${['aria', 'bram', 'chloe', 'dev', 'elif', 'felix', 'gia', 'hiro', 'ines', 'jonas', 'kemi'][i]}`,
		}));
		const tooMany = expectProblem(
			await http.post('/audio/speech', { model: 'speech.dialogue-1', dialogue: many }, idem()),
			400,
			'invalid_parameter',
		);
		expect(tooMany.param).toBe('dialogue');
		expect(
			(await http.post('/audio/speech', { model: 'speech.dialogue-1', dialogue }, idem())).status,
		).toBe(202);
		expectProblem(await http.post('/audio/speech', {}, idem()), 400, 'invalid_parameter');
	});

	it('voices, motion presets and the motion library are paged lists', async () => {
		const page = await http.get('/audio/voices', { params: { limit: 5 } });
		expect(page.data).toMatchObject({ object: 'list', has_more: true });
		const next = await http.get('/audio/voices', {
			params: { limit: 5, starting_after: page.data.data[4].id },
		});
		expect(next.data.data[0].id).not.toBe(page.data.data[4].id);
		expect((await http.get('/videos/gedi/presets')).data.data[0]).toMatchObject({
			object: 'motion_preset',
		});
		expect((await http.get('/videos/gedi/motion-library')).data.data[0]).toMatchObject({
			object: 'motion',
		});
	});

	it('3D returns a file per requested format; a format the model lacks is invalid_parameter', async () => {
		const bad = expectProblem(
			await http.post(
				'/models/3d/generations',
				{ image_urls: ['https://cdn.example.com/a.png'], output_formats: ['ply'] },
				idem(),
			),
			400,
			'invalid_parameter',
		);
		expect(bad.param).toBe('output_formats');
		const ok = await http.post(
			'/models/3d/generations',
			{ image_urls: ['https://cdn.example.com/a.png'], output_formats: ['glb', 'stl'] },
			idem(),
		);
		const run = await waitForRun(http, ok.data.id);
		const urls = (run.output as { model_urls: Record<string, string> }).model_urls;
		expect(Object.keys(urls)).toEqual(['glb', 'stl']);
		const stl = await fetch(urls.stl);
		expect(stl.headers.get('content-type')).toContain('model/stl');
	});

	it('measures uploaded files against the model limits: a 1 s source video is too short for the extend model', async () => {
		const upload = await http.post('/uploads', { content_type: 'video/mp4', filename: 'clip.mp4' });
		const put = await fetch(upload.data.upload_url, {
			method: 'PUT',
			headers: { 'Content-Type': 'video/mp4' },
			body: mp4Clip(),
		});
		expect(put.status).toBe(200);
		const refused = expectProblem(
			await http.post(
				'/videos/generations',
				{ model: 'video.extend-1', duration: 5, source_video_url: upload.data.asset_url },
				idem(),
			),
			400,
			'invalid_parameter',
		);
		expect(refused.param).toBe('source_video_url');
		expect(String(refused.detail)).toContain(
			'at least 2 s (limits.source_video_min_seconds of video.extend-1)',
		);
		const upscaled = await http.post(
			'/videos/upscale',
			{ video_url: upload.data.asset_url, scale: 2 },
			idem(),
		);
		expect(upscaled.status).toBe(202);
	});
});
