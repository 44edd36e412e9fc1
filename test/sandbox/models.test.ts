import type { AxiosInstance } from 'axios';

import type { Sandbox } from '../../sandbox/server';
import { expectProblem, openSandbox, submitImage } from './helpers';

interface Model {
	id: string;
	object: string;
	capability: string;
	status: string;
	is_default: boolean;
	limits: Record<string, unknown>;
	superseded_by?: string;
}

const PREFIXES = ['image', 'video', 'speech', 'music', 'sfx', 'transcription', 'image_edit', 'video_upscale', 'image_upscale', 'lipsync', '3d', 'game', 'app'];

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
			expect(model).toEqual(expect.objectContaining({ object: 'model', name: expect.any(String), description: expect.any(String), limits: expect.any(Object) }));
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
			const defaults = models.filter((m) => m.capability === capability && m.is_default).map((m) => m.id);
			expect([capability, defaults.length]).toEqual([capability, 1]);
		}
	});

	it('has at least one preview alias and one superseded alias whose successor exists', () => {
		expect(models.some((m) => m.status === 'preview')).toBe(true);
		const superseded = models.filter((m) => m.superseded_by);
		expect(superseded.length).toBeGreaterThan(0);
		for (const m of superseded) expect(models.map((x) => x.id)).toContain(m.superseded_by);
	});

	it('filters by capability', async () => {
		const res = await http.get('/models', { params: { capability: 'video_generation', limit: 100 } });
		expect(res.data.data.length).toBeGreaterThan(0);
		expect(res.data.data.every((m: Model) => m.capability === 'video_generation')).toBe(true);
	});

	it('answers 400 invalid_parameter naming aspect_ratio when the model does not list it', async () => {
		const problem = expectProblem(await submitImage(http, { model: 'image.aurora-1', aspect_ratio: '21:9' }), 400, 'invalid_parameter');
		expect(problem.param).toBe('aspect_ratio');
		expect(sandbox.state.runs.size).toBe(0);
		expect((await submitImage(http, { model: 'image.aurora-2', aspect_ratio: '21:9' })).status).toBe(202);
	});

	it('answers 400 invalid_parameter naming count above the model max_count', async () => {
		const problem = expectProblem(await submitImage(http, { model: 'image.sketch-preview', count: 2 }), 400, 'invalid_parameter');
		expect(problem.param).toBe('count');
	});

	it('answers 400 model_not_found for an unknown alias or an alias of another capability', async () => {
		expectProblem(await submitImage(http, { model: 'image.does-not-exist' }), 400, 'model_not_found');
		expectProblem(await submitImage(http, { model: 'video.motion-2' }), 400, 'model_not_found');
	});

	it('accepts a superseded alias when pinned', async () => {
		const res = await submitImage(http, { model: 'image.aurora-1' });
		expect(res.status).toBe(202);
		expect(res.data.model).toBe('image.aurora-1');
	});

	it.each([
		['missing', {}],
		['empty', { prompt: '' }],
		['blank', { prompt: '   ' }],
	])('answers 400 invalid_prompt when the prompt is %s', async (_name, body) => {
		const res = await http.post('/images/generations', body, { headers: { 'Idempotency-Key': `prompt-${_name}` } });
		const problem = expectProblem(res, 400, 'invalid_prompt');
		expect(problem.param).toBe('prompt');
	});
});
