import type { IDataObject } from 'n8n-workflow';

import { MediaGenVideo } from '../../nodes/MediaGenVideo/MediaGenVideo.node';
import { SANDBOX_ACCOUNT_ID, SANDBOX_TEAM_ID, SANDBOX_VIEWER_TEAM_ID } from '../../sandbox/options';
import { makePng } from '../../sandbox/png';
import { kindOf } from '../helpers/media';
import { runNode } from '../helpers/n8n-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';

const video = new MediaGenVideo();

describe('MediaGen Video in n8n-core (against the sandbox)', () => {
	let fx: Fixture;
	const run = (parameters: IDataObject, extra: Partial<Parameters<typeof runNode>[0]> = {}) =>
		runNode({ nodeType: video, credentials: fx.credentials, parameters, ...extra });

	beforeAll(async () => {
		fx = await startFixture();
	});
	afterAll(async () => fx.sandbox.close());

	it('generates a text-to-video with audio and returns it as MP4 binary, priced per second with the audio multiplier', async () => {
		const { items, error } = await run({
			resource: 'video',
			operation: 'generate',
			prompt: 'a lighthouse at dusk',
			aspectRatio: '9:16',
			duration: 10,
			additionalFields: { generateAudio: true },
		});
		expect(error).toBeUndefined();
		const [item] = items;
		expect(item.json).toMatchObject({
			status: 'completed',
			capability: 'video_generation',
			model: 'video.motion-2',
		});
		expect(item.binary!.data.mimeType).toBe('video/mp4');
		expect(item.binary!.data.fileName).toMatch(/\.mp4$/);
		expect(await kindOf(item.binary!.data)).toBe('mp4');
		expect(fx.sandbox.state.chargesFor(String(item.json.id))).toEqual([
			expect.objectContaining({ credits: 10 * 6 * 1.5 }),
		]);
		expect(posts(fx.sandbox, '/videos/generations').at(-1)?.idempotencyKey).toMatch(/^n8n-/);
	});

	it('animates an input image: the binary is uploaded and its asset URL is the image_url', async () => {
		const photo = makePng(16, 16, 7);
		const uploadsBefore = fx.sandbox.state.uploads.size;
		const { items, error } = await run(
			{
				resource: 'video',
				operation: 'generate',
				prompt: 'slow push in',
				duration: 5,
				additionalFields: { imageUrlBinaryProperty: 'photo' },
			},
			{
				input: [
					{
						json: {},
						binary: {
							photo: { data: photo.toString('base64'), mimeType: 'image/png', fileName: 'p.png' },
						},
					},
				],
			},
		);
		expect(error).toBeUndefined();
		expect(items[0].json.input_summary).toMatchObject({ has_image: true, duration: 5 });
		expect(fx.sandbox.state.uploads.size).toBe(uploadsBefore + 1);
		expect(await kindOf(items[0].binary!.data)).toBe('mp4');
	});

	it('renders a draft (draft_cache_url, a quarter of the price) and finalizes it at the full price', async () => {
		const draft = await run({
			resource: 'video',
			operation: 'generate',
			prompt: 'a fox runs',
			duration: 5,
			additionalFields: { draft: true },
		});
		expect(draft.error).toBeUndefined();
		const output = draft.items[0].json.output as Record<string, string>;
		expect(output.draft_cache_url).toContain('/storage/files/');
		expect(await kindOf(draft.items[0].binary!.data)).toBe('mp4');
		const draftId = String(draft.items[0].json.id);
		expect(fx.sandbox.state.chargesFor(draftId)[0].credits).toBe(5 * 6 * 0.25);

		const final = await run({ resource: 'video', operation: 'finalizeDraft', id: draftId });
		expect(final.error).toBeUndefined();
		expect(final.items[0].json).toMatchObject({
			status: 'completed',
			model: 'video.motion-2',
			input_summary: expect.objectContaining({ draft_run_id: draftId }),
		});
		expect(final.items[0].binary!.data.mimeType).toBe('video/mp4');
		expect(fx.sandbox.state.chargesFor(String(final.items[0].json.id))[0].credits).toBe(30);
		expect(posts(fx.sandbox, `/videos/generations/${draftId}/final`)[0].idempotencyKey).toMatch(
			/^n8n-/,
		);
	});

	it('refuses to finalize a draft older than 7 days with draft_expired (no run)', async () => {
		const draft = await run({
			resource: 'video',
			operation: 'generate',
			prompt: 'old',
			duration: 5,
			additionalFields: { draft: true },
		});
		const record = fx.sandbox.state.runs.get(String(draft.items[0].json.id))!;
		record.run.completed_at = new Date(Date.now() - 8 * 86400_000).toISOString();
		const runs = fx.sandbox.state.runs.size;
		const { error } = await run({
			resource: 'video',
			operation: 'finalizeDraft',
			id: record.run.id,
		});
		expect(error?.message).toMatch(/^draft_expired/);
		expect(fx.sandbox.state.runs.size).toBe(runs);
	});

	it('refuses to finalize a run that is not a draft, with the service code', async () => {
		const plain = await run({
			resource: 'video',
			operation: 'generate',
			prompt: 'x',
			duration: 5,
			waitForCompletion: false,
		});
		const { error } = await run({
			resource: 'video',
			operation: 'finalizeDraft',
			id: String(plain.items[0].json.id),
		});
		expect(error?.message).toMatch(/^invalid_parameter/);
	});

	it('upscales a video with a factor inside the model range (min/max scale factor)', async () => {
		const { items, error } = await run({
			resource: 'video',
			operation: 'upscale',
			model: 'video_upscale.flex',
			videoUrl: 'https://cdn.example.com/in.mp4',
			scale: 2.5,
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			status: 'completed',
			capability: 'video_upscaling',
			model: 'video_upscale.flex',
		});
		expect(await kindOf(items[0].binary!.data)).toBe('mp4');
	});

	it('composes scenes into one MP4, priced on the sum of their durations', async () => {
		const scenes = JSON.stringify([
			{ prompt: 'sunrise', duration: 5 },
			{ prompt: 'noon', duration: 10 },
		]);
		const { items, error } = await run({ resource: 'video', operation: 'compose', scenes });
		expect(error).toBeUndefined();
		expect(items[0].binary!.data.mimeType).toBe('video/mp4');
		expect(fx.sandbox.state.chargesFor(String(items[0].json.id))[0].credits).toBe(15 * 6);
	});

	it('analyzes a video into JSON (no file)', async () => {
		const { items, error } = await run({
			resource: 'video',
			operation: 'analyze',
			videoUrl: 'https://cdn.example.com/in.mp4',
			additionalFields: { prompt: 'Is there a person?' },
		});
		expect(error).toBeUndefined();
		expect(items[0].binary).toBeUndefined();
		expect(
			(items[0].json.output as Record<string, Record<string, unknown>>).analysis,
		).toMatchObject({
			summary: expect.any(String),
			answer: expect.stringContaining('Is there a person?'),
		});
	});

	it('creates a voice from uploaded samples and returns its voice_id', async () => {
		const { items, error } = await run({
			resource: 'video',
			operation: 'createVoice',
			name: 'Narrator',
			audioUrls: ['https://cdn.example.com/a.wav', 'https://cdn.example.com/b.wav'],
		});
		expect(error).toBeUndefined();
		expect((items[0].json.output as Record<string, Record<string, unknown>>).voice).toMatchObject({
			id: expect.stringMatching(/^vvoice_/),
			name: 'Narrator',
			samples: 2,
		});
	});

	it('extracts frames as PNG asset URLs', async () => {
		const { items, error } = await run({
			resource: 'video',
			operation: 'extractFrames',
			videoUrl: 'https://cdn.example.com/in.mp4',
			count: 3,
		});
		expect(error).toBeUndefined();
		const frames = items[0].json.frames as Array<{ url: string; time: number }>;
		expect(frames).toHaveLength(3);
		expect(frames[0].url).toContain('/storage/assets/');
		const png = await fetch(frames[0].url);
		expect(png.headers.get('content-type')).toContain('image/png');
	});

	it('creates, reads, updates and renders a timeline, then lists its renders', async () => {
		const clips = JSON.stringify([
			{ video_url: 'https://cdn.example.com/a.mp4', duration: 4 },
			{ image_url: 'https://cdn.example.com/b.png', duration: 3 },
		]);
		const created = await run({ resource: 'timeline', operation: 'create', name: 'Teaser', clips });
		expect(created.error).toBeUndefined();
		const id = String(created.items[0].json.id);
		expect(created.items[0].json).toMatchObject({
			object: 'timeline',
			name: 'Teaser',
			duration_seconds: 7,
		});

		const read = await run({ resource: 'timeline', operation: 'get', timelineId: id });
		expect(read.items[0].json).toMatchObject({ id, name: 'Teaser' });

		const updated = await run({
			resource: 'timeline',
			operation: 'update',
			timelineId: id,
			additionalFields: {
				name: 'Teaser v2',
				clips: JSON.stringify([{ video_url: 'https://cdn.example.com/a.mp4', duration: 6 }]),
			},
		});
		expect(updated.items[0].json).toMatchObject({ name: 'Teaser v2', duration_seconds: 6 });

		const rendered = await run({ resource: 'timeline', operation: 'render', timelineId: id });
		expect(rendered.error).toBeUndefined();
		expect(await kindOf(rendered.items[0].binary!.data)).toBe('mp4');
		expect(fx.sandbox.state.chargesFor(String(rendered.items[0].json.id))[0].credits).toBe(6);

		const renders = await run({
			resource: 'timeline',
			operation: 'listRenders',
			timelineId: id,
			returnAll: true,
		});
		expect(renders.items.map((i) => i.json.id)).toEqual([rendered.items[0].json.id]);

		const missing = await run({ resource: 'timeline', operation: 'get', timelineId: 'tl_nope' });
		expect(missing.error?.message).toMatch(/^not_found/);
	});

	it('lists motion presets and the motion library', async () => {
		const presets = await run({ resource: 'motion', operation: 'listPresets', returnAll: true });
		expect(presets.items.length).toBeGreaterThan(3);
		expect(presets.items[0].json.object).toBe('motion_preset');
		const library = await run({
			resource: 'motion',
			operation: 'listMotionLibrary',
			returnAll: false,
			limit: 2,
		});
		expect(library.items).toHaveLength(2);
		expect(library.items[0].json.object).toBe('motion');
	});

	it('the service itself refuses what the model capabilities rule out (source video required, image not taken)', async () => {
		const send = async (body: object) => {
			const response = await fetch(`${fx.sandbox.baseUrl}/videos/generations`, {
				method: 'POST',
				headers: {
					Authorization: 'Bearer mg_sandbox_full_access_key',
					'Content-Type': 'application/json',
					'Idempotency-Key': `cap-${JSON.stringify(body)}`,
				},
				body: JSON.stringify(body),
			});
			return {
				status: response.status,
				problem: (await response.json()) as { code: string; param: string },
			};
		};
		expect(await send({ model: 'video.extend-1', duration: 5 })).toMatchObject({
			status: 400,
			problem: { code: 'invalid_parameter', param: 'source_video_url' },
		});
		expect(
			await send({
				model: 'video.motion-1',
				prompt: 'p',
				image_url: 'https://cdn.example.com/a.png',
			}),
		).toMatchObject({ status: 400, problem: { code: 'invalid_parameter', param: 'image_url' } });
	});

	it('fails the run with insufficient_credits when the balance is too low (no charge)', async () => {
		const poor = await startFixture({ startingCredits: 10 });
		try {
			const { items } = await runNode({
				nodeType: video,
				credentials: poor.credentials,
				parameters: { resource: 'video', operation: 'generate', prompt: 'expensive', duration: 10 },
				settings: { onError: 'continueRegularOutput' },
			});
			expect(items[0].json.code).toBe('insufficient_credits');
			expect(poor.sandbox.state.ledger).toHaveLength(0);
		} finally {
			await poor.sandbox.close();
		}
	});
});

describe('MediaGen Video billed to a workspace pool', () => {
	it('charges the team pool, and fails runs with the real money reason: pool, monthly cap, member cap', async () => {
		const fx = await startFixture();
		try {
			const team = fx.sandbox.state.teams.get(SANDBOX_TEAM_ID)!;
			const submit = (teamId = SANDBOX_TEAM_ID) =>
				runNode({
					nodeType: video,
					credentials: fx.credentials,
					parameters: {
						resource: 'video',
						operation: 'generate',
						prompt: 'team shot',
						duration: 5,
						options: { teamId },
					},
					settings: { onError: 'continueRegularOutput' },
				});
			const paid = await submit();
			expect(paid.items[0].json.status).toBe('completed');
			expect(fx.sandbox.state.ledger).toEqual([
				expect.objectContaining({ team_id: SANDBOX_TEAM_ID, credits: 30 }),
			]);
			expect(team.pool).toBe(5000 - 30);

			team.memberCaps = { [SANDBOX_ACCOUNT_ID]: 50 };
			expect((await submit()).items[0].json.code).toBe('team_member_cap');
			team.memberCaps = undefined;
			team.monthlyCap = 40;
			expect((await submit()).items[0].json.code).toBe('team_monthly_cap');
			team.monthlyCap = undefined;
			team.pool = 10;
			expect((await submit()).items[0].json.code).toBe('team_pool_insufficient');
			expect((await submit(SANDBOX_VIEWER_TEAM_ID)).items[0].json.code).toBe(
				'team_role_cannot_spend',
			);
			expect(fx.sandbox.state.ledger).toHaveLength(1);
		} finally {
			await fx.sandbox.close();
		}
	});
});
