import type { IDataObject, INodeType } from 'n8n-workflow';

import { MediaGenAudio } from '../../nodes/MediaGenAudio/MediaGenAudio.node';
import { MediaGenModel3D } from '../../nodes/MediaGenModel3D/MediaGenModel3D.node';
import { MediaGenVideo } from '../../nodes/MediaGenVideo/MediaGenVideo.node';
import { loadOptions } from '../helpers/n8n-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';

describe('dropdowns of the generation nodes (n8n-core LoadOptionsContext against the sandbox)', () => {
	let fx: Fixture;
	beforeAll(async () => {
		fx = await startFixture();
	});
	afterAll(async () => fx.sandbox.close());

	const load = (nodeType: INodeType, method: string, parameters: IDataObject) => loadOptions({ nodeType, credentials: fx.credentials, method, parameters });

	it('Voice lists GET /audio/voices by name, with language and style', async () => {
		const options = await load(new MediaGenAudio(), 'listFrom_audio_voices', { resource: 'audio', operation: 'speech' });
		expect(options.length).toBeGreaterThanOrEqual(10);
		expect(options[0]).toEqual({ name: 'Aria', value: 'voice_aria', description: 'en · female · warm narrator' });
	});

	it('the Estimate Cost operation offers the models of its operation', async () => {
		const options = await load(new MediaGenVideo(), 'getModels', { resource: 'video', operation: 'generateEstimateCost' });
		expect(options[1].value).toBe('video.motion-2');
		expect(options.slice(1).every((o) => String(o.value).startsWith('video.'))).toBe(true);
	});

	it("offers the chosen video model's durations and camera paths", async () => {
		const durations = await load(new MediaGenVideo(), 'choicesFor_duration_seconds', { resource: 'video', operation: 'generate', model: 'video.cine-pro' });
		expect(durations.map((o) => o.value)).toEqual(['', 4, 6, 8]);
		const paths = await load(new MediaGenVideo(), 'choicesFor_camera_paths', { resource: 'video', operation: 'generate', model: 'video.multi-angle' });
		expect(paths.map((o) => o.value)).toEqual(['', 'orbit_left', 'orbit_right', 'dolly_in', 'crane_up']);
	});

	it("offers the chosen 3D model's output formats and topologies", async () => {
		const formats = await load(new MediaGenModel3D(), 'choicesFor_output_formats', { resource: 'model3d', operation: 'generate', model: '3d.mesh-lite' });
		expect(formats.map((o) => o.value)).toEqual(['glb', 'obj', 'stl']);
		const topology = await load(new MediaGenModel3D(), 'choicesFor_topology', { resource: 'model3d', operation: 'generate', model: '' });
		expect(topology.map((o) => o.value)).toEqual(['', 'quad', 'triangle']);
	});
});
