/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import type { IDataObject, INodeType } from 'n8n-workflow';

import { MediaGenAudio } from '../../nodes/MediaGenAudio/MediaGenAudio.node';
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenModel3D } from '../../nodes/MediaGenModel3D/MediaGenModel3D.node';
import { MediaGenVideo } from '../../nodes/MediaGenVideo/MediaGenVideo.node';
import { findModel } from '../../sandbox/models';
import { listSearch, loadOptions } from '../helpers/n8n-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';

const rl = (value: string, mode = 'list') => ({ __rl: true, mode, value });

describe('the Model list and the choices that follow the model (n8n-core LoadOptionsContext against the sandbox)', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture();
	});
	afterEach(async () => fx.sandbox.close());

	const load = (method: string, parameters: IDataObject) =>
		loadOptions({ nodeType: new MediaGenImage(), credentials: fx.credentials, method, parameters });
	const search = (parameters: IDataObject, filter?: string) =>
		listSearch({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			method: 'searchModels',
			parameters,
			filter,
		});

	it('lists the models of the operation, default first, preview after, each on one line with its price per unit and status', async () => {
		const { results } = await search({ resource: 'image', operation: 'generate' });
		const values = results.map((o) => o.value);
		expect(values[0]).toBe('image.aurora-2');
		expect(values).toEqual(
			expect.arrayContaining(['image.lumen-xl', 'image.sketch-preview', 'image.aurora-1']),
		);
		expect(values.every((v) => String(v).startsWith('image.'))).toBe(true);
		expect(values.indexOf('image.sketch-preview')).toBe(values.length - 1);
		const line = (id: string) => results.find((o) => o.value === id)?.name;
		// prices come from GET /models/pricing, not from the model list
		expect(findModel('image.aurora-2')!.pricing).toMatchObject({ unit: 'per_image', credits: 4 });
		expect(line('image.aurora-2')).toBe(
			'Aurora 2 (image.aurora-2) · Count 1–4 · 4 credits per image · default · from text or an image, reference images',
		);
		expect(line('image.sketch-preview')).toBe(
			'Sketch (image.sketch-preview) · Count 1 · 1.5 credits per image · preview, may change · from text only',
		);
		expect(line('image.aurora-1')).toBe(
			'Aurora 1 (image.aurora-1) · Count 1–4 · 3 credits per image',
		);
		// the service's description comes last, and is left out where it only repeats the name ("Aurora 2 (image generation)")
		expect(line('image.aurora-2')).not.toContain('image generation');
		expect(findModel('image.lumen-xl')!.description).toMatch(/^Composes /);
		expect(line('image.lumen-xl')).toBe(
			`Lumen XL (image.lumen-xl) · Count 1–${findModel('image.lumen-xl')!.limits.max_count} · 8 credits per image · ${findModel('image.lumen-xl')!.description}`,
		);
	});

	it("gives each model's bounds on the operation's numbers first on its line (a number field cannot show them)", async () => {
		const lines = async (nodeType: INodeType, parameters: IDataObject) =>
			Object.fromEntries(
				(
					await listSearch({
						nodeType,
						credentials: fx.credentials,
						method: 'searchModels',
						parameters,
					})
				).results.map((o) => [o.value, o.name]),
			);
		const music = await lines(new MediaGenAudio(), { resource: 'audio', operation: 'music' });
		expect(music['music.compose-1']).toBe(
			'Compose (music.compose-1) · Duration (Seconds) 1–180 · 0.5 credits per second · default',
		);
		const upscale = await lines(new MediaGenVideo(), { resource: 'video', operation: 'upscale' });
		expect(upscale['video_upscale.sharp-2']).toMatch(
			/^Sharp 2 \(video_upscale\.sharp-2\) · Scale Factor 2 or 4 · /,
		);
		expect(upscale['video_upscale.flex']).toMatch(
			/^Flex \(video_upscale\.flex\) · Scale Factor 1\.5–3 · /,
		);
		const mesh = await lines(new MediaGenModel3D(), { resource: 'model3d', operation: 'generate' });
		expect(mesh['3d.mesh-lite']).toMatch(
			/^Mesh Lite \(3d\.mesh-lite\) · Target Polycount 100–50000 · /,
		);
		// speech has no number a model bounds: its lines carry none
		const speech = await lines(new MediaGenAudio(), { resource: 'audio', operation: 'speech' });
		expect(Object.values(speech).filter((l) => /–|≤|≥| or /.test(String(l)))).toEqual([]);
	});

	it('prices per second on video models', async () => {
		const { results } = await listSearch({
			nodeType: new MediaGenVideo(),
			credentials: fx.credentials,
			method: 'searchModels',
			parameters: { resource: 'video', operation: 'generate' },
		});
		expect(results[0].name).toMatch(/^Motion 2 \(video\.motion-2\) · 6 credits per second · /);
	});

	it('marks the video models that have the Generate Audio switch (limits.supports_audio true), and only those', async () => {
		const { results } = await listSearch({
			nodeType: new MediaGenVideo(),
			credentials: fx.credentials,
			method: 'searchModels',
			parameters: { resource: 'video', operation: 'generate' },
		});
		const marked = results.filter((o) => o.name.includes('with sound')).map((o) => o.value);
		expect(marked.sort()).toEqual(['video.cine-pro', 'video.motion-2']);
		// false and absent alike: no switch (video.motion-1 reports false, video.stylize-preview reports nothing)
		expect(results.map((o) => o.value)).toEqual(
			expect.arrayContaining(['video.motion-1', 'video.stylize-preview']),
		);
	});

	it('searches by name or alias, case-insensitively', async () => {
		const byName = await search({ resource: 'image', operation: 'generate' }, 'LUMEN');
		expect(byName.results.map((o) => o.value)).toEqual(['image.lumen-xl']);
		const byAlias = await search({ resource: 'image', operation: 'generate' }, 'sketch-prev');
		expect(byAlias.results.map((o) => o.value)).toEqual(['image.sketch-preview']);
	});

	it('filters by the capability of the operation (upscale lists upscalers only)', async () => {
		const { results } = await search({ resource: 'image', operation: 'upscale' });
		expect(results.map((o) => o.value)).toEqual(['image_upscale.crisp', 'image_upscale.fast']);
	});

	it('still lists the models when the price list cannot be read', async () => {
		fx.sandbox.injectFault({ method: 'GET', path: '/models/pricing', when: 'before', status: 403 });
		const { results } = await search({ resource: 'image', operation: 'generate' });
		expect(results[0].name).toBe(
			'Aurora 2 (image.aurora-2) · Count 1–4 · default · from text or an image, reference images',
		);
	});

	it("offers the chosen model's aspect ratios with readable names, the default model's when none is chosen; the value stays the ratio", async () => {
		const chosen = await load('choicesFor_aspectRatio', {
			resource: 'image',
			operation: 'generate',
			model: rl('image.aurora-1'),
		});
		expect(chosen).toEqual([
			{ name: 'Model Default', value: '' },
			{ name: '1:1 (square)', value: '1:1' },
			{ name: '16:9 (landscape, widescreen)', value: '16:9' },
			{ name: '9:16 (portrait, stories and reels)', value: '9:16' },
		]);
		const fallback = await load('choicesFor_aspectRatio', {
			resource: 'image',
			operation: 'generate',
			model: rl(''),
		});
		expect(fallback.map((o) => o.value)).toEqual(['', '1:1', '16:9', '9:16', '4:3', '3:4', '21:9']);
		expect(fallback.find((o) => o.value === '4:3')?.name).toBe('4:3 (landscape)');
	});

	it('reads a model saved as a plain string (workflows from before the searchable list) the same way', async () => {
		const saved = await load('choicesFor_aspectRatio', {
			resource: 'image',
			operation: 'generate',
			model: 'image.aurora-1',
		});
		expect(saved.map((o) => o.value)).toEqual(['', '1:1', '16:9', '9:16']);
	});

	it('marks a ratio the newly chosen model does not offer, in the field itself, instead of keeping it silently', async () => {
		// 3:2 was picked for Lumen XL; the model is now Aurora 2, which has no 3:2
		const options = await load('choicesFor_aspectRatio', {
			resource: 'image',
			operation: 'generate',
			model: rl('image.aurora-2'),
			aspectRatio: '3:2',
		});
		expect(options[0]).toEqual({
			name: '3:2 (landscape) — not offered by Aurora 2: choose another',
			value: '3:2',
		});
		expect(options.slice(1).map((o) => o.value)).toEqual([
			'',
			'1:1',
			'16:9',
			'9:16',
			'4:3',
			'3:4',
			'21:9',
		]);
		// a ratio the model offers is not marked; an expression is left to run time
		const offered = await load('choicesFor_aspectRatio', {
			resource: 'image',
			operation: 'generate',
			model: rl('image.lumen-xl'),
			aspectRatio: '3:2',
		});
		expect(offered.filter((o) => String(o.name).includes('not offered'))).toEqual([]);
		const expression = await load('choicesFor_aspectRatio', {
			resource: 'image',
			operation: 'generate',
			model: rl('image.aurora-2'),
			aspectRatio: '={{ $json.ratio }}',
		});
		expect(expression.filter((o) => String(o.name).includes('not offered'))).toEqual([]);
	});

	it('marks a stale choice inside Additional Fields too (resolution after a model change)', async () => {
		const options = await load('choicesFor_resolution', {
			resource: 'image',
			operation: 'generate',
			model: rl('image.aurora-2'),
			additionalFields: { resolution: '4K' },
		});
		expect(options[0]).toEqual({
			name: '4K (about 4096 px) — not offered by Aurora 2: choose another',
			value: '4K',
		});
	});

	it('offers only "Model Default" when the model lists no such values, and marks a value kept from another model (a run would refuse it)', async () => {
		const qualities = await load('choicesFor_quality', {
			resource: 'image',
			operation: 'generate',
			model: rl('image.lumen-xl'),
		});
		expect(qualities.map((o) => o.value)).toEqual(['']);
		const kept = await load('choicesFor_quality', {
			resource: 'image',
			operation: 'generate',
			model: rl('image.lumen-xl'),
			additionalFields: { quality: 'high' },
		});
		expect(kept).toEqual([
			{ name: 'High — not offered by Lumen XL: choose another', value: 'high' },
			{ name: 'Model Default', value: '' },
		]);
	});

	it('answers without an error when n8n asks before the node has its credential (a new node), keeping the value unjudged', async () => {
		const before = fx.sandbox.state.requests.length;
		const options = await load('choicesFor_aspectRatio', {
			authentication: 'mediaGenOAuth2Api',
			resource: 'image',
			operation: 'generate',
			model: rl('image.aurora-2'),
			aspectRatio: '3:2',
		});
		expect(options).toEqual([
			{ name: '3:2 (landscape)', value: '3:2' },
			{ name: 'Model Default', value: '' },
		]);
		expect(fx.sandbox.state.requests.length).toBe(before);
	});

	it('caches the model list per credential: the Model list and two dropdowns, one GET /models', async () => {
		await search({ resource: 'image', operation: 'generate' });
		await load('choicesFor_aspectRatio', {
			resource: 'image',
			operation: 'generate',
			model: rl('image.aurora-1'),
		});
		await load('choicesFor_resolution', {
			resource: 'image',
			operation: 'generate',
			model: rl('image.aurora-1'),
		});
		expect(fx.sandbox.state.requests.filter((r) => r.path === '/v1/models')).toHaveLength(1);
	});
});
