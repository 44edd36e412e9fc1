import type { IDataObject, INodeType } from 'n8n-workflow';

import { MediaGenAudio } from '../../nodes/MediaGenAudio/MediaGenAudio.node';
import { MediaGenModel3D } from '../../nodes/MediaGenModel3D/MediaGenModel3D.node';
import { MediaGenVideo } from '../../nodes/MediaGenVideo/MediaGenVideo.node';
import { listSearch, loadOptions } from '../helpers/n8n-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';

describe('dropdowns of the generation nodes (n8n-core LoadOptionsContext against the sandbox)', () => {
	let fx: Fixture;
	beforeAll(async () => {
		fx = await startFixture();
	});
	afterAll(async () => fx.sandbox.close());

	const load = (nodeType: INodeType, method: string, parameters: IDataObject) =>
		loadOptions({ nodeType, credentials: fx.credentials, method, parameters });

	const search = (nodeType: INodeType, method: string, parameters: IDataObject, filter?: string) =>
		listSearch({ nodeType, credentials: fx.credentials, method, parameters, filter });
	const rl = (value: string) => ({ __rl: true, mode: 'list', value });

	it('Voice lists GET /audio/voices by name, with language, gender and style on the same line, searchable', async () => {
		const { results } = await search(new MediaGenAudio(), 'listFrom_audio_voices', {
			resource: 'audio',
			operation: 'speech',
		});
		expect(results.length).toBeGreaterThanOrEqual(10);
		expect(results[0]).toEqual({ name: 'Aria (en, female, warm narrator)', value: 'voice_aria' });
		const found = await search(
			new MediaGenAudio(),
			'listFrom_audio_voices',
			{ resource: 'audio', operation: 'speech' },
			'NARRATOR',
		);
		expect(found.results.length).toBeGreaterThanOrEqual(1);
		expect(found.results.every((r) => r.name.toLowerCase().includes('narrator'))).toBe(true);
	});

	it('the Estimate Cost operation offers the models of its operation', async () => {
		const { results } = await search(new MediaGenVideo(), 'searchModels', {
			resource: 'video',
			operation: 'generateEstimateCost',
		});
		expect(results[0].value).toBe('video.motion-2');
		expect(results.every((o) => String(o.value).startsWith('video.'))).toBe(true);
	});

	it("offers the chosen video model's durations and camera paths, with readable names", async () => {
		const durations = await load(new MediaGenVideo(), 'choicesFor_duration', {
			resource: 'video',
			operation: 'generate',
			model: rl('video.cine-pro'),
		});
		expect(durations).toEqual([
			{ name: 'Model Default', value: '' },
			{ name: '4 seconds', value: 4 },
			{ name: '6 seconds', value: 6 },
			{ name: '8 seconds', value: 8 },
		]);
		const paths = await load(new MediaGenVideo(), 'choicesFor_cameraPath', {
			resource: 'video',
			operation: 'generate',
			model: rl('video.multi-angle'),
		});
		expect(paths.map((o) => o.value)).toEqual([
			'',
			'orbit_left',
			'orbit_right',
			'dolly_in',
			'crane_up',
		]);
		expect(paths[1].name).toBe('Orbit Left');
	});

	it('marks a duration the newly chosen video model does not offer', async () => {
		const durations = await load(new MediaGenVideo(), 'choicesFor_duration', {
			resource: 'video',
			operation: 'generate',
			model: rl('video.cine-pro'),
			duration: 10,
		});
		expect(durations[0]).toEqual({
			name: '10 seconds — not offered by Cine Pro: choose another',
			value: 10,
		});
	});

	it("offers the chosen 3D model's output formats and topologies; a stale format is marked in the multi-select", async () => {
		const formats = await load(new MediaGenModel3D(), 'choicesFor_outputFormats', {
			resource: 'model3d',
			operation: 'generate',
			model: rl('3d.mesh-lite'),
		});
		expect(formats.map((o) => o.value)).toEqual(['glb', 'obj', 'stl']);
		expect(formats[0].name).toBe('GLB (web, AR)');
		const stale = await load(new MediaGenModel3D(), 'choicesFor_outputFormats', {
			resource: 'model3d',
			operation: 'generate',
			model: rl('3d.mesh-lite'),
			outputFormats: ['glb', 'usdz'],
		});
		expect(stale.map((o) => o.value)).toEqual(['usdz', 'glb', 'obj', 'stl']);
		expect(stale[0].name).toMatch(/^USDZ \(Apple AR\) — not offered by /);
		const topology = await load(new MediaGenModel3D(), 'choicesFor_topology', {
			resource: 'model3d',
			operation: 'generate',
			model: rl(''),
		});
		expect(topology.map((o) => o.value)).toEqual(['', 'quad', 'triangle']);
	});
});
