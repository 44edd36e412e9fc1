import type { IDataObject } from 'n8n-workflow';

import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { loadOptions } from '../helpers/n8n-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';

describe('model-aware dropdowns (n8n-core LoadOptionsContext against the sandbox)', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture();
	});
	afterEach(async () => fx.sandbox.close());

	const load = (method: string, parameters: IDataObject) =>
		loadOptions({ nodeType: new MediaGenImage(), credentials: fx.credentials, method, parameters });

	it('lists the aliases of the operation capability: service default, then the default model, preview marked', async () => {
		const options = await load('getModels', { resource: 'image', operation: 'generate' });
		const values = options.map((o) => o.value);
		expect(values[0]).toBe('');
		expect(options[0].name).toContain('image.aurora-2');
		expect(values[1]).toBe('image.aurora-2');
		expect(options[1].name).toContain('default');
		expect(values).toEqual(expect.arrayContaining(['image.lumen-xl', 'image.sketch-preview', 'image.aurora-1']));
		expect(values.every((v) => v === '' || String(v).startsWith('image.'))).toBe(true);
		expect(options.find((o) => o.value === 'image.sketch-preview')?.name).toContain('preview');
	});

	it('filters by the capability of the operation (upscale lists upscalers only)', async () => {
		const options = await load('getModels', { resource: 'image', operation: 'upscale' });
		expect(options.slice(1).map((o) => o.value)).toEqual(['image_upscale.crisp', 'image_upscale.fast']);
	});

	it("offers the chosen model's aspect ratios, and the default model's when none is chosen", async () => {
		const chosen = await load('choicesFor_aspect_ratios', { resource: 'image', operation: 'generate', model: 'image.aurora-1' });
		expect(chosen.map((o) => o.value)).toEqual(['', '1:1', '16:9', '9:16']);
		const fallback = await load('choicesFor_aspect_ratios', { resource: 'image', operation: 'generate', model: '' });
		expect(fallback.map((o) => o.value)).toEqual(['', '1:1', '16:9', '9:16', '4:3', '3:4', '21:9']);
	});

	it('offers nothing beyond "Model Default" when the model reports no such limit', async () => {
		const qualities = await load('choicesFor_qualities', { resource: 'image', operation: 'generate', model: 'image.lumen-xl' });
		expect(qualities.map((o) => o.value)).toEqual(['']);
	});

	it('caches the model list per credential: two dropdowns, one GET /models', async () => {
		await load('getModels', { resource: 'image', operation: 'generate' });
		await load('choicesFor_aspect_ratios', { resource: 'image', operation: 'generate', model: 'image.aurora-1' });
		expect(fx.sandbox.state.requests.filter((r) => r.path === '/v1/models')).toHaveLength(1);
	});
});
