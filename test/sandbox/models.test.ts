import type { AxiosInstance } from 'axios';

import type { Sandbox } from '../../sandbox/server';
import { expectProblem, idem, openSandbox, submitImage } from './helpers';

interface Model {
	id: string;
	object: string;
	capability: string;
	status: string;
	is_default: boolean;
	limits: Record<string, unknown>;
}

const PREFIXES = [
	'image',
	'video',
	'speech',
	'music',
	'sfx',
	'transcription',
	'image_edit',
	'video_upscale',
	'image_upscale',
	'lipsync',
	'3d',
	'game',
	'app',
];

describe('sandbox models', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;
	let models: Model[];

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox());
		const res = await http.get('/models', { params: { limit: 100 } });
		expect(res.status).toBe(200);
		expect(res.data.has_more).toBe(false);
		models = res.data.data;
	});
	afterAll(() => sandbox.close());

	it('lists model resources with aliases of the form <family>.<name>', () => {
		for (const model of models) {
			expect(model).toEqual(
				expect.objectContaining({
					object: 'model',
					name: expect.any(String),
					description: expect.any(String),
					limits: expect.any(Object),
				}),
			);
			expect(model.id).toMatch(/^[a-z0-9_]+\.[a-z0-9-]+$/);
			expect(['available', 'preview']).toContain(model.status);
			expect(model).not.toHaveProperty('pricing');
		}
	});

	it('has an alias for every id prefix of the API document', () => {
		const prefixes = new Set(models.map((m) => m.id.split('.')[0]));
		for (const prefix of PREFIXES) expect([prefix, prefixes.has(prefix)]).toEqual([prefix, true]);
	});

	it('has exactly one default model per capability', () => {
		const capabilities = [...new Set(models.map((m) => m.capability))];
		for (const capability of capabilities) {
			const defaults = models
				.filter((m) => m.capability === capability && m.is_default)
				.map((m) => m.id);
			expect([capability, defaults.length]).toEqual([capability, 1]);
		}
	});

	it('has a preview alias, and lists no superseded alias (the Model resource has no superseded_by)', () => {
		expect(models.some((m) => m.status === 'preview')).toBe(true);
		expect(models.map((m) => m.id)).not.toContain('image.aurora-classic');
		for (const model of models) expect(model).not.toHaveProperty('superseded_by');
	});

	it('offers the aspect ratios auto and adaptive on some models, and a multi-input image model', () => {
		const ratios = models.flatMap((m) => (m.limits.aspect_ratios as string[] | undefined) ?? []);
		expect(ratios).toEqual(expect.arrayContaining(['auto', 'adaptive']));
		expect(
			models.some(
				(m) => m.capability === 'image_generation' && Number(m.limits.max_input_images) > 1,
			),
		).toBe(true);
	});

	it('filters by capability', async () => {
		const res = await http.get('/models', {
			params: { capability: 'video_generation', limit: 100 },
		});
		expect(res.data.data.length).toBeGreaterThan(0);
		expect(res.data.data.every((m: Model) => m.capability === 'video_generation')).toBe(true);
	});

	it('answers 400 invalid_parameter naming aspect_ratio when the model does not list it', async () => {
		const problem = expectProblem(
			await submitImage(http, { model: 'image.aurora-1', aspect_ratio: '21:9' }),
			400,
			'invalid_parameter',
		);
		expect(problem.param).toBe('aspect_ratio');
		expect(sandbox.state.runs.size).toBe(0);
		expect(
			(await submitImage(http, { model: 'image.aurora-2', aspect_ratio: '21:9' })).status,
		).toBe(202);
	});

	it('answers 400 invalid_parameter naming count above the model max_count', async () => {
		const problem = expectProblem(
			await submitImage(http, { model: 'image.sketch-preview', count: 2 }),
			400,
			'invalid_parameter',
		);
		expect(problem.param).toBe('count');
	});

	it('answers 400 model_not_found for an unknown alias or an alias of another capability', async () => {
		expectProblem(
			await submitImage(http, { model: 'image.does-not-exist' }),
			400,
			'model_not_found',
		);
		expectProblem(await submitImage(http, { model: 'video.motion-2' }), 400, 'model_not_found');
	});

	it('runs a superseded alias that GET /models does not list when a request pins it, and answers model_not_found for an unknown one', async () => {
		const pinned = await submitImage(http, { model: 'image.aurora-classic' });
		expect(pinned.status).toBe(202);
		expect(pinned.data.model).toBe('image.aurora-classic');
		const video = await http.post(
			'/videos/generations',
			{ model: 'video.motion-classic', prompt: 'p', duration: 5 },
			idem(),
		);
		expect(video.status).toBe(202);
		const unknown = expectProblem(
			await submitImage(http, { model: 'image.aurora-0' }),
			400,
			'model_not_found',
		);
		expect(unknown.param).toBe('model');
	});

	it('checks a pinned superseded alias against its own limits', async () => {
		const problem = expectProblem(
			await submitImage(http, { model: 'image.aurora-classic', aspect_ratio: '16:9' }),
			400,
			'invalid_parameter',
		);
		expect(problem.param).toBe('aspect_ratio');
	});

	it('takes aspect_ratio only from the model: auto where it is listed, refused where it is not', async () => {
		expect(
			(await submitImage(http, { model: 'image.lumen-xl', aspect_ratio: 'auto' })).status,
		).toBe(202);
		expectProblem(
			await submitImage(http, { model: 'image.aurora-2', aspect_ratio: 'auto' }),
			400,
			'invalid_parameter',
		);
		expect(
			(
				await http.post(
					'/videos/generations',
					{ model: 'video.cine-pro', prompt: 'p', duration: 4, aspect_ratio: 'adaptive' },
					idem(),
				)
			).status,
		).toBe(202);
		expectProblem(
			await http.post(
				'/videos/generations',
				{ model: 'video.motion-2', prompt: 'p', duration: 5, aspect_ratio: 'adaptive' },
				idem(),
			),
			400,
			'invalid_parameter',
		);
	});

	it.each([
		['missing', {}],
		['empty', { prompt: '' }],
		['blank', { prompt: '   ' }],
	])('answers 400 invalid_prompt when the prompt is %s', async (_name, body) => {
		const res = await http.post('/images/generations', body, {
			headers: { 'Idempotency-Key': `prompt-${_name}` },
		});
		const problem = expectProblem(res, 400, 'invalid_prompt');
		expect(problem.param).toBe('prompt');
	});
});
