import type { AxiosInstance } from 'axios';

import type { Sandbox } from '../../sandbox/server';
import { expectProblem, idem, openSandbox, waitForRun } from './helpers';

describe('sandbox workflows, presets, user workflows, ad analysis and marketing', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 30 }));
	});
	afterAll(() => sandbox.close());

	it('lists the five workflows with input and output schemas from the API document', async () => {
		const list = (await http.get('/workflows')).data.data;
		expect(list.map((w: { id: string }) => w.id)).toEqual([
			'storyboard',
			'hook_pack',
			'ugc_ad',
			'creative_pack',
			'product_ad_variants',
		]);
		const variants = (await http.get('/workflows/product_ad_variants')).data;
		expect(variants.object).toBe('workflow');
		expect(variants.input_schema.properties.variant_count).toEqual(
			expect.objectContaining({ minimum: 1, maximum: 5 }),
		);
		expect(variants.input_schema.properties.tone.enum).toEqual([
			'casual',
			'professional',
			'humorous',
			'educational',
			'persuasive',
			'emotional',
		]);
		expect(Object.keys(variants.output_schema.properties)).toEqual(['variant_count', 'variants']);
		expect((await http.get('/workflows/hook_pack')).data.input_schema.required).toEqual(['prompt']);
		expectProblem(await http.get('/workflows/nope'), 404, 'not_found');
	});

	it('runs each workflow as a run whose output has the declared fields (creative_pack: in the JSON file at output_url)', async () => {
		const expected: Record<string, string[]> = {
			storyboard: ['project_id', 'status', 'current_stage', 'next_action'],
			hook_pack: ['hooks', 'body', 'call_to_action', 'full_script'],
			ugc_ad: ['hooks', 'body', 'call_to_action', 'full_script'],
			creative_pack: ['product', 'analysis', 'hooks', 'body', 'call_to_action', 'full_script'],
			product_ad_variants: ['variant_count', 'variants'],
		};
		for (const [key, fields] of Object.entries(expected)) {
			const input =
				key === 'product_ad_variants'
					? { prompt: `about ${key}`, variant_count: 4 }
					: { prompt: `about ${key}` };
			const res = await http.post(`/workflows/${key}/runs`, input, idem());
			expect(res.status).toBe(202);
			expect(res.data).toEqual(
				expect.objectContaining({
					object: 'run',
					status: 'queued',
					capability: 'workflow',
					endpoint: 'POST /workflows/{workflowKey}/runs',
				}),
			);
			const run = await waitForRun(http, res.data.id);
			expect(run.status).toBe('completed');
			const output = run.output as Record<string, unknown>;
			if (key === 'creative_pack') {
				expect(Object.keys(output)).toEqual(['output_url']);
				const file = await fetch(String(output.output_url));
				expect(file.headers.get('content-type')).toMatch(/^application\/json/);
				expect(Object.keys((await file.json()) as object).sort()).toEqual([...fields].sort());
				continue;
			}
			expect(Object.keys(output).sort()).toEqual([...fields].sort());
			if (key === 'product_ad_variants')
				expect((output as { variants: unknown[] }).variants).toHaveLength(4);
			if (key === 'storyboard')
				expect(
					(await http.get(`/projects/${(output as { project_id: string }).project_id}`)).status,
				).toBe(200);
		}
	});

	it('checks workflow inputs: required prompt, tone values, variant_count 1 to 5, Idempotency-Key', async () => {
		expectProblem(
			await http.post('/workflows/hook_pack/runs', { tone: 'casual' }, idem()),
			400,
			'invalid_prompt',
		);
		expect(
			expectProblem(
				await http.post('/workflows/hook_pack/runs', { prompt: 'x', tone: 'angry' }, idem()),
				400,
				'invalid_parameter',
			).param,
		).toBe('tone');
		expect(
			expectProblem(
				await http.post('/workflows/product_ad_variants/runs', { variant_count: 6 }, idem()),
				400,
				'invalid_parameter',
			).param,
		).toBe('variant_count');
		expectProblem(
			await http.post('/workflows/hook_pack/runs', { prompt: 'x' }),
			400,
			'idempotency_key_required',
		);
		expectProblem(
			await http.post('/workflows/nope/runs', { prompt: 'x' }, idem()),
			404,
			'not_found',
		);
	});

	it.each([
		['storyboard', { title: 'no prompt' }, 'invalid_prompt', 'prompt'],
		['ugc_ad', { audience: 'runners' }, 'invalid_prompt', 'prompt'],
		['storyboard', { prompt: 'x', aspect_ratio: '4:3' }, 'invalid_parameter', 'aspect_ratio'],
		['ugc_ad', { prompt: 'x', length: 'epic' }, 'invalid_parameter', 'length'],
		['creative_pack', { product_url: 'shop/item' }, 'invalid_parameter', 'product_url'],
		[
			'creative_pack',
			{ image_urls: 'https://cdn.example.com/a.png' },
			'invalid_parameter',
			'image_urls',
		],
		['creative_pack', { image_urls: ['not a uri'] }, 'invalid_parameter', 'image_urls'],
		['product_ad_variants', { variant_count: 0 }, 'invalid_parameter', 'variant_count'],
		['product_ad_variants', { variant_count: '3' }, 'invalid_parameter', 'variant_count'],
		['hook_pack', { prompt: 'x', keywords: 'one, two' }, 'invalid_parameter', 'keywords'],
		['hook_pack', { prompt: 'x', style: 'bold' }, 'invalid_parameter', 'style'],
	])(
		'%s refuses %j with %s (param %s), as the Workflow table of the document says',
		async (key, input, code, param) => {
			const runs = sandbox.state.runs.size;
			expect(
				expectProblem(await http.post(`/workflows/${key}/runs`, input, idem()), 400, code).param,
			).toBe(param);
			expect(sandbox.state.runs.size).toBe(runs);
		},
	);

	it('refuses team_id on every workflow-like run and project_id where the output is not known to be media', async () => {
		const refusedTeam = await http.post(
			'/workflows/hook_pack/runs',
			{ prompt: 'x', team_id: 'team_sandbox' },
			idem(),
		);
		expect(expectProblem(refusedTeam, 400, 'team_billing_unsupported').param).toBe('team_id');
		expectProblem(
			await http.post(
				'/workflows/storyboard/runs',
				{ prompt: 'x', project_id: 'proj_sandbox' },
				idem(),
			),
			400,
			'project_filing_unsupported',
		);
		expectProblem(
			await http.post('/ads/analyze', { ad_copy: 'x', team_id: 'team_sandbox' }),
			400,
			'team_billing_unsupported',
		);
		expectProblem(
			await http.post('/presets/preset_neon_portrait/runs', {
				prompt: 'x',
				team_id: 'team_sandbox',
			}),
			400,
			'team_billing_unsupported',
		);
		// the outputs of presets and user workflows are whatever the preset or workflow makes: not known to be media
		expect(
			expectProblem(
				await http.post('/presets/preset_neon_portrait/runs', {
					prompt: 'x',
					project_id: 'proj_sandbox',
				}),
				400,
				'project_filing_unsupported',
			).param,
		).toBe('project_id');
		expectProblem(
			await http.post('/user-workflows/uwf_thumbnail/runs', {
				prompt: 'x',
				project_id: 'proj_sandbox',
			}),
			400,
			'project_filing_unsupported',
		);
		expect((await http.post('/user-workflows/uwf_thumbnail/runs', { prompt: 'x' })).status).toBe(
			202,
		);
	});

	it('presets: list, get, estimate and a run bound to the quote', async () => {
		const presets = (await http.get('/presets')).data.data;
		expect(presets.length).toBeGreaterThan(0);
		const product = (await http.get('/presets', { params: { category: 'product' } })).data.data;
		expect(product.every((p: { category: string }) => p.category === 'product')).toBe(true);
		const preset = (await http.get('/presets/preset_neon_portrait')).data;
		expect(preset).toEqual(expect.objectContaining({ object: 'preset', credits: 3 }));
		const estimate = (
			await http.post('/presets/preset_neon_portrait/estimate', { prompt: 'a singer' })
		).data;
		expect(estimate).toEqual(
			expect.objectContaining({
				object: 'cost_estimate',
				credits: 3,
				quote_token: expect.any(String),
			}),
		);
		const run = await http.post('/presets/preset_neon_portrait/runs', {
			prompt: 'a singer',
			quote_token: estimate.quote_token,
		});
		expect(run.status).toBe(202);
		const done = await waitForRun(http, run.data.id);
		expect((done.output as { output_url: string }).output_url).toMatch(/\/storage\/files\//);
		expectProblem(
			await http.post('/presets/preset_neon_portrait/runs', {
				prompt: 'a dancer',
				quote_token: estimate.quote_token,
			}),
			409,
			'quote_mismatch',
		);
		expectProblem(await http.post('/presets/preset_neon_portrait/runs', {}), 400, 'invalid_prompt');
		expectProblem(await http.get('/presets/nope'), 404, 'not_found');
	});

	it('user workflows: list, estimate, run and read the run through its workflow', async () => {
		const workflows = (await http.get('/user-workflows')).data.data;
		const id = workflows[0].id;
		expect((await http.post(`/user-workflows/${id}/estimate`, { prompt: 'x' })).data.credits).toBe(
			workflows[0].credits_per_run,
		);
		const run = await http.post(`/user-workflows/${id}/runs`, { prompt: 'x' });
		expect(run.status).toBe(202);
		await waitForRun(http, run.data.id);
		const read = await http.get(`/user-workflows/${id}/runs/${run.data.id}`);
		expect(read.data).toEqual(expect.objectContaining({ id: run.data.id, status: 'completed' }));
		expectProblem(
			await http.get(`/user-workflows/${workflows[1].id}/runs/${run.data.id}`),
			404,
			'not_found',
		);
		expectProblem(await http.post(`/user-workflows/${id}/runs`, {}), 400, 'invalid_prompt');
	});

	it('analyzes an ad as a run with scores and recommendations', async () => {
		const res = await http.post('/ads/analyze', { ad_copy: 'Buy now', platform: 'tiktok' });
		expect(res.status).toBe(202);
		const run = await waitForRun(http, res.data.id);
		expect(run.output).toEqual(
			expect.objectContaining({
				platform: 'tiktok',
				score: expect.any(Number),
				analysis: expect.any(Object),
				recommendations: expect.any(Array),
			}),
		);
		expectProblem(await http.post('/ads/analyze', {}), 400, 'invalid_parameter');
	});

	it('marketing: create and list products; read the catalogs', async () => {
		const product = await http.post('/marketing/products', {
			name: 'Trail Socks',
			product_url: 'https://example.com/socks',
		});
		expect(product.status).toBe(201);
		expect((await http.get('/marketing/products')).data.data[0].id).toBe(product.data.id);
		expectProblem(await http.post('/marketing/products', {}), 400, 'invalid_parameter');
		for (const path of [
			'/marketing/templates',
			'/marketing/ad-formats',
			'/marketing/formats',
			'/marketing/hooks',
			'/marketing/avatars',
		]) {
			const res = await http.get(path);
			expect(res.data).toEqual({ object: 'list', data: expect.any(Array), has_more: false });
			expect(res.data.data.length).toBeGreaterThan(0);
		}
		expect((await http.get('/marketing/templates/tpl_unboxing')).data.name).toBe('Unboxing');
		expectProblem(await http.get('/marketing/templates/nope'), 404, 'not_found');
		expect((await http.get('/marketing/settings')).data.object).toBe('marketing_settings');
	});
});
