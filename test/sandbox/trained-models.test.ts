import type { AxiosInstance } from 'axios';

import type { Sandbox } from '../../sandbox/server';
import { contractCheckOf } from '../helpers/contract';
import { clientFor, expectProblem, idem, openSandbox, waitForRun } from './helpers';

const photos = (n: number) =>
	Array.from({ length: n }, (_, i) => `https://photos.example.com/ava-${i}.jpg`);

describe('sandbox: trained models (LoRAs), image styles and style skills', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	// runs last long enough that the training state can be read before they finish, even on a busy machine
	beforeEach(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 1500 }));
	});
	afterEach(async () => {
		// close() checks every recorded answer against openapi.json and throws on a violation
		await sandbox.close();
		expect(contractCheckOf(sandbox)?.checked).toBeGreaterThan(0);
	});

	it('round-trips a LoRA: estimate → create (a training run) → get → list → continue → delete', async () => {
		const params = { name: 'Ava', image_urls: photos(6), steps: 1200, trigger_word: 'avaface' };
		const estimate = await http.post('/loras/estimate-cost', params);
		expect(estimate.status).toBe(200);
		expect(estimate.data).toMatchObject({
			object: 'cost_estimate',
			credits: 60,
			currency: 'credits',
			quote_token: expect.any(String),
		});

		const mismatch = await http.post(
			'/loras',
			{ ...params, steps: 1500, quote_token: estimate.data.quote_token },
			idem(),
		);
		expect(expectProblem(mismatch, 409, 'quote_mismatch').quote).toMatchObject({ credits: 75 });
		const body = { ...params, quote_token: estimate.data.quote_token };
		const created = await http.post('/loras', body, idem());
		expect(created.status).toBe(202);
		expect(created.data).toMatchObject({
			object: 'run',
			status: 'queued',
			capability: 'lora_training',
			resource_id: expect.stringMatching(/^lora_/),
		});
		const loraId = created.data.resource_id as string;

		const training = await http.get(`/loras/${loraId}`);
		expect(training.data).toMatchObject({
			id: loraId,
			object: 'lora',
			name: 'Ava',
			status: 'training',
			image_count: 6,
			steps: 1200,
			run_id: created.data.id,
		});

		const run = await waitForRun(http, created.data.id);
		expect(run.status).toBe('completed');
		expect(run.output).toEqual({ lora_id: loraId });
		expect(sandbox.state.chargesFor(created.data.id)).toEqual([
			expect.objectContaining({ credits: 60 }),
		]);
		expect((await http.get(`/loras/${loraId}`)).data.status).toBe('completed');

		const list = await http.get('/loras', { params: { status: 'completed' } });
		expect(list.data.data.map((l: { id: string }) => l.id)).toEqual([loraId]);
		expect((await http.get('/loras', { params: { status: 'training' } })).data.data).toEqual([]);

		const more = await http.post(
			`/loras/${loraId}/continue`,
			{ steps: 400, image_urls: photos(4) },
			idem(),
		);
		expect(more.status).toBe(202);
		expect(more.data.resource_id).toBe(loraId);
		expect((await http.get(`/loras/${loraId}`)).data.status).toBe('training');
		await waitForRun(http, more.data.id);
		expect((await http.get(`/loras/${loraId}`)).data).toMatchObject({
			status: 'completed',
			steps: 1600,
			image_count: 10,
		});

		expect((await http.delete(`/loras/${loraId}`)).status).toBe(204);
		expectProblem(await http.get(`/loras/${loraId}`), 404, 'not_found');
		expect((await http.get('/loras')).data.data).toEqual([]);
	});

	it('refuses too few training images, a missing Idempotency-Key, and continuing a LoRA still in training', async () => {
		expect(
			expectProblem(
				await http.post('/loras', { name: 'x', image_urls: photos(3) }, idem()),
				400,
				'invalid_parameter',
			).param,
		).toBe('image_urls');
		expectProblem(
			await http.post('/loras', { name: 'x', image_urls: photos(4) }),
			400,
			'idempotency_key_required',
		);
		const created = await http.post('/loras', { name: 'x', image_urls: photos(4) }, idem());
		expectProblem(
			await http.post(`/loras/${created.data.resource_id}/continue`, {}, idem()),
			409,
			'lora_not_ready',
		);
		await waitForRun(http, created.data.id);
	});

	it('needs videos:write to train and models:read to list (insufficient_scope names the scope)', async () => {
		const reader = clientFor(sandbox.baseUrl, sandbox.state.createApiKey(['models:read']));
		expect(
			expectProblem(
				await reader.post('/loras', { name: 'x', image_urls: photos(4) }, idem()),
				403,
				'insufficient_scope',
			).required_scope,
		).toBe('videos:write');
		expect((await reader.get('/loras')).status).toBe(200);
		const writer = clientFor(sandbox.baseUrl, sandbox.state.createApiKey(['videos:write']));
		expect(
			expectProblem(await writer.get('/loras'), 403, 'insufficient_scope').required_scope,
		).toBe('models:read');
	});

	it('lists preset image styles, and a trained style skill joins them once its run completes', async () => {
		const before = await http.get('/image-styles', { params: { limit: 2 } });
		expect(before.data).toMatchObject({ object: 'list', has_more: true });
		expect(before.data.data).toHaveLength(2);
		const trained = await http.post(
			'/style-skills/brand-look/train',
			{ image_urls: photos(5), name: 'Brand Look' },
			idem(),
		);
		expect(trained.status).toBe(202);
		expect(trained.data).toMatchObject({
			capability: 'style_training',
			resource_id: 'style_brand-look',
		});
		let styles = (await http.get('/image-styles', { params: { limit: 100 } })).data.data as Array<
			Record<string, unknown>
		>;
		expect(styles.find((s) => s.id === 'style_brand-look')).toMatchObject({
			status: 'training',
			source: 'trained',
			name: 'Brand Look',
		});
		await waitForRun(http, trained.data.id);
		styles = (await http.get('/image-styles', { params: { limit: 100 } })).data.data;
		expect(styles.find((s) => s.id === 'style_brand-look')).toMatchObject({
			status: 'ready',
			skill_id: 'brand-look',
		});
		expect(styles.filter((s) => s.source === 'preset').length).toBeGreaterThanOrEqual(5);
		expectProblem(
			await http.post('/style-skills/bad%20name/train', { image_urls: photos(5) }, idem()),
			400,
			'invalid_parameter',
		);
	});
});
