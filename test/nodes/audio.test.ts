import type { IDataObject } from 'n8n-workflow';

import { MediaGenAudio } from '../../nodes/MediaGenAudio/MediaGenAudio.node';
import { makeWav, mp4Clip } from '../../sandbox/media-files';
import { kindOf } from '../helpers/media';
import { binaryBytes, runNode } from '../helpers/n8n-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';

const audio = new MediaGenAudio();

describe('MediaGen Audio in n8n-core (against the sandbox)', () => {
	let fx: Fixture;
	const run = (parameters: IDataObject, extra: Partial<Parameters<typeof runNode>[0]> = {}) =>
		runNode({ nodeType: audio, credentials: fx.credentials, parameters, ...extra });

	beforeAll(async () => {
		fx = await startFixture();
	});
	afterAll(async () => fx.sandbox.close());

	it('speaks a text in one voice and returns MP3 binary, priced per character', async () => {
		const text = 'Welcome to the studio.';
		const { items, error } = await run({
			resource: 'audio',
			operation: 'speech',
			text,
			voiceId: 'voice_aria',
			additionalFields: { speed: 1.2, languageCode: 'en' },
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			status: 'completed',
			capability: 'speech_generation',
			model: 'speech.voice-2',
		});
		expect(items[0].binary!.data.mimeType).toBe('audio/mpeg');
		expect(items[0].binary!.data.fileName).toMatch(/\.mp3$/);
		expect(await kindOf(items[0].binary!.data)).toBe('mp3');
		expect(fx.sandbox.state.chargesFor(String(items[0].json.id))[0].credits).toBeCloseTo(
			text.length * 0.02,
		);
	});

	it('speaks a dialogue of several voices on a dialogue model', async () => {
		const dialogue = JSON.stringify([
			{ text: 'Did you hear that?', voice_id: 'voice_aria' },
			{ text: 'Only the wind.', voice_id: 'voice_bram' },
		]);
		const { items, error } = await run({
			resource: 'audio',
			operation: 'speech',
			model: 'speech.dialogue-1',
			additionalFields: { dialogue },
		});
		expect(error).toBeUndefined();
		expect(items[0].json.model).toBe('speech.dialogue-1');
		expect(await kindOf(items[0].binary!.data)).toBe('mp3');
	});

	it('sends a speaking rate outside 0.5–2: no model reports a speed limit, so the node invents none', async () => {
		const { items, error } = await run({
			resource: 'audio',
			operation: 'speech',
			text: 'quick',
			voiceId: 'voice_aria',
			additionalFields: { speed: 3 },
		});
		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('completed');
	});

	it('requires Text or Dialogue before sending anything', async () => {
		const before = posts(fx.sandbox, '/audio/speech').length;
		const { error } = await run({ resource: 'audio', operation: 'speech', text: '' });
		expect(error?.message).toBe('Text or Dialogue: one of them is required');
		expect(error?.description).toContain('API field text, dialogue');
		expect(posts(fx.sandbox, '/audio/speech')).toHaveLength(before);
	});

	it('composes music of the asked length as MP3', async () => {
		const { items, error } = await run({
			resource: 'audio',
			operation: 'music',
			prompt: 'lo-fi piano',
			additionalFields: { durationSeconds: 30, forceInstrumental: true },
		});
		expect(error).toBeUndefined();
		expect(items[0].json.capability).toBe('music_generation');
		expect(items[0].binary!.data.mimeType).toBe('audio/mpeg');
		expect(fx.sandbox.state.chargesFor(String(items[0].json.id))[0].credits).toBe(15);
	});

	it.each([
		['music', 'audio/mpeg'],
		['soundEffect', 'audio/wav'],
	])(
		'leaves the length to the model when none is set (%s: no duration_seconds is sent)',
		async (operation, mimeType) => {
			const path = operation === 'music' ? '/audio/music' : '/audio/sfx';
			const before = posts(fx.sandbox, path).length;
			const { items, error } = await run({
				resource: 'audio',
				operation,
				prompt: 'rain on a tin roof',
			});
			expect(error).toBeUndefined();
			expect(items[0].binary!.data.mimeType).toBe(mimeType);
			const sent = posts(fx.sandbox, path).slice(before);
			expect(sent).toHaveLength(1);
			expect(sent[0].body).toEqual(expect.objectContaining({ prompt: 'rain on a tin roof' }));
			expect(sent[0].body).not.toHaveProperty('duration_seconds');
		},
	);

	it.each([
		[
			'speech',
			'/audio/speech',
			{ text: 'steady now', voiceId: 'voice_aria', additionalFields: { stability: 1.5 } },
		],
		[
			'convertVoice',
			'/audio/voice-conversions',
			{
				audioUrl: 'https://cdn.example.com/take.wav',
				voiceId: 'voice_felix',
				additionalFields: { stability: 1.5 },
			},
		],
	])(
		'sends a stability of 1.5 (%s): the document gives no range and no model reports one, so the node invents none',
		async (operation, path, parameters) => {
			const before = posts(fx.sandbox, path).length;
			const { items, error } = await run({ resource: 'audio', operation, ...parameters });
			expect(error).toBeUndefined();
			expect(items[0].json.status).toBe('completed');
			const sent = posts(fx.sandbox, path).slice(before);
			expect(sent.map((r) => (r.body as { stability?: unknown }).stability)).toEqual([1.5]);
		},
	);

	it('makes a sound effect as WAV', async () => {
		const { items, error } = await run({
			resource: 'audio',
			operation: 'soundEffect',
			prompt: 'door creak',
			additionalFields: { durationSeconds: 3 },
		});
		expect(error).toBeUndefined();
		expect(items[0].binary!.data.mimeType).toBe('audio/wav');
		expect(items[0].binary!.data.fileName).toMatch(/\.wav$/);
		const bytes = await binaryBytes(items[0].binary!.data);
		expect(bytes.subarray(8, 12).toString('latin1')).toBe('WAVE');
		expect(bytes.readUInt32LE(40)).toBe(bytes.length - 44);
	});

	it('converts an input recording (binary) to another voice', async () => {
		const recording = makeWav(0.5, 3);
		const { items, error } = await run(
			{
				resource: 'audio',
				operation: 'convertVoice',
				audioUrlSource: 'binary',
				audioUrlBinaryProperty: 'rec',
				voiceId: 'voice_felix',
			},
			{
				input: [
					{
						json: {},
						binary: {
							rec: {
								data: recording.toString('base64'),
								mimeType: 'audio/wav',
								fileName: 'rec.wav',
							},
						},
					},
				],
			},
		);
		expect(error).toBeUndefined();
		expect(await kindOf(items[0].binary!.data)).toBe('wav');
		const upload = [...fx.sandbox.state.uploads.values()].find(
			(u) => u.content_type === 'audio/wav',
		);
		expect(upload?.bytes).toEqual(recording);
	});

	it('refuses an unknown voice at the service with invalid_parameter', async () => {
		const { error } = await run({
			resource: 'audio',
			operation: 'speech',
			text: 'hi',
			voiceId: 'voice_nobody',
		});
		expect(error?.message).toMatch(/^invalid_parameter/);
	});

	it('transcribes an input video (binary) into text and segments', async () => {
		const { items, error } = await run(
			{
				resource: 'audio',
				operation: 'transcribe',
				audioUrlSource: 'url',
				audioUrl: '',
				additionalFields: { videoUrlBinaryProperty: 'clip', keyterms: ['studio'] },
			},
			{
				input: [
					{
						json: {},
						binary: {
							clip: {
								data: mp4Clip().toString('base64'),
								mimeType: 'video/mp4',
								fileName: 'clip.mp4',
							},
						},
					},
				],
			},
		);
		expect(error).toBeUndefined();
		const output = items[0].json.output as {
			text: string;
			segments: Array<{ start: number; end: number; text: string }>;
		};
		expect(output.text.length).toBeGreaterThan(10);
		expect(output.segments).toHaveLength(3);
		expect(output.segments[0]).toMatchObject({
			start: 0,
			end: expect.any(Number),
			text: expect.any(String),
		});
		expect(output.text).toBe(output.segments.map((s) => s.text).join(' '));
		expect(items[0].binary!.data.mimeType).toBe('text/plain');
		expect((await binaryBytes(items[0].binary!.data)).toString('utf8').trim()).toBe(output.text);
	});

	it('lists the voices', async () => {
		const { items, error } = await run({ resource: 'voice', operation: 'list', returnAll: true });
		expect(error).toBeUndefined();
		expect(items.length).toBeGreaterThanOrEqual(10);
		expect(items[0].json).toMatchObject({ id: 'voice_aria', object: 'voice', name: 'Aria' });
	});

	it('offers the voices of GET /audio/voices as a searchable Voice list (From List / By ID)', () => {
		const voice = audio.description.properties.find((p) => p.name === 'voiceId');
		expect(voice?.type).toBe('resourceLocator');
		expect(voice?.displayName).toBe('Voice');
		expect(
			voice?.modes?.map((m) => [m.name, m.displayName, m.typeOptions?.searchListMethod]),
		).toEqual([
			['list', 'From List', 'listFrom_audio_voices'],
			['id', 'By ID', undefined],
		]);
		expect(typeof audio.methods.listSearch.listFrom_audio_voices).toBe('function');
	});

	it('sends the voice ID whether the Voice was picked from the list or typed by ID (the service checks it)', async () => {
		for (const mode of ['list', 'id']) {
			const picked = await run({
				resource: 'audio',
				operation: 'speech',
				text: 'Hello',
				voiceId: { __rl: true, mode, value: 'voice_aria' },
			});
			expect(picked.error).toBeUndefined();
			const unknown = await run({
				resource: 'audio',
				operation: 'speech',
				text: 'Hello',
				voiceId: { __rl: true, mode, value: 'voice_nobody' },
			});
			expect(unknown.error?.message).toMatch(/^invalid_parameter/);
			expect(unknown.error?.message).toContain('voice_nobody');
		}
	});
});
