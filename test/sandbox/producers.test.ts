import type { AxiosInstance } from 'axios';
import axios from 'axios';

import { SANDBOX_PROJECT_ID, SANDBOX_TEAM_ID } from '../../sandbox/options';
import type { Sandbox } from '../../sandbox/server';
import { contractCheckOf } from '../helpers/contract';
import { clientFor, expectProblem, idem, openSandbox, waitForRun } from './helpers';

const MP4_FTYP = Buffer.from('ftyp', 'ascii');
const page = (url: string) => axios.get(url, { validateStatus: () => true, responseType: 'text' });

async function download(url: string): Promise<{ type: string; bytes: Buffer }> {
	const res = await axios.get(url, { responseType: 'arraybuffer' });
	return { type: String(res.headers['content-type']), bytes: Buffer.from(res.data as ArrayBuffer) };
}

describe('sandbox: producers, games and apps', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeEach(async () => {
		({ sandbox, http } = await openSandbox());
	});
	afterEach(async () => {
		// close() checks every recorded answer against openapi.json and throws on a violation
		await sandbox.close();
		expect(contractCheckOf(sandbox)?.checked).toBeGreaterThan(0);
	});

	it('faceless reels: choice lists, estimate, then a generation bound to the quote yields an MP4', async () => {
		for (const path of [
			'/faceless-reels/presets',
			'/faceless-reels/styles',
			'/faceless-reels/music-presets',
			'/faceless-reels/caption-presets',
		]) {
			const res = await http.get(path);
			expect(res.status).toBe(200);
			expect(res.data).toMatchObject({ object: 'list', has_more: false });
			expect(res.data.data.length).toBeGreaterThan(0);
		}
		const params = {
			prompt: 'five facts about octopuses',
			duration_seconds: 60,
			style_id: 'reel_style_comic',
		};
		const estimate = await http.post('/faceless-reels/estimate-cost', params);
		expect(estimate.data).toMatchObject({
			object: 'cost_estimate',
			model: 'video.reel-director',
			credits: 60,
		});
		const submitted = await http.post(
			'/faceless-reels/generations',
			{ ...params, quote_token: estimate.data.quote_token },
			idem(),
		);
		expect(submitted.status).toBe(202);
		expect(submitted.data).toMatchObject({
			status: 'queued',
			capability: 'faceless_reel_generation',
			model: 'video.reel-director',
		});
		const run = await waitForRun(http, submitted.data.id);
		const output = run.output as { output_url: string };
		const file = await download(output.output_url);
		expect(file.type).toMatch(/^video\/mp4/);
		expect(file.bytes.subarray(4, 8)).toEqual(MP4_FTYP);
		expect(sandbox.state.chargesFor(submitted.data.id)).toEqual([
			expect.objectContaining({ credits: 60 }),
		]);
		expect(
			expectProblem(
				await http.post(
					'/faceless-reels/generations',
					{ prompt: 'x', duration_seconds: 45 },
					idem(),
				),
				400,
				'invalid_parameter',
			).param,
		).toBe('duration_seconds');
		expectProblem(
			await http.post('/faceless-reels/generations', { prompt: '' }, idem()),
			400,
			'invalid_prompt',
		);
	});

	it('reel subscriptions: create → list → pause (run-now refused) → resume → run now and add an episode → episodes → delete', async () => {
		const created = await http.post('/faceless-reels/subscriptions', {
			name: 'Ocean facts',
			topic: 'the deep sea',
			frequency: 'weekly',
			duration_seconds: 30,
		});
		expect(created.status).toBe(201);
		const sub = created.data;
		expect(sub).toMatchObject({
			object: 'reel_subscription',
			status: 'active',
			frequency: 'weekly',
			episode_count: 0,
			next_episode_at: expect.any(String),
		});
		expect(
			(await http.get('/faceless-reels/subscriptions')).data.data.map((s: { id: string }) => s.id),
		).toEqual([sub.id]);

		const paused = await http.patch(`/faceless-reels/subscriptions/${sub.id}`, {
			status: 'paused',
		});
		expect(paused.data).toMatchObject({ status: 'paused', next_episode_at: null });
		expectProblem(
			await http.post(`/faceless-reels/subscriptions/${sub.id}/run-now`, {}, idem()),
			409,
			'subscription_paused',
		);
		expect(
			(
				await http.patch(`/faceless-reels/subscriptions/${sub.id}`, {
					status: 'active',
					topic: 'coral reefs',
				})
			).data,
		).toMatchObject({ status: 'active', topic: 'coral reefs' });

		const now = await http.post(`/faceless-reels/subscriptions/${sub.id}/run-now`, {}, idem());
		expect(now.status).toBe(202);
		const estimate = await http.post(`/faceless-reels/subscriptions/${sub.id}/estimate-episode`, {
			topic: 'sharks',
		});
		expect(estimate.data).toMatchObject({ object: 'cost_estimate', credits: 30 });
		const episode = await http.post(
			`/faceless-reels/subscriptions/${sub.id}/episodes`,
			{ topic: 'sharks', quote_token: estimate.data.quote_token },
			idem(),
		);
		expect(episode.status).toBe(202);
		await waitForRun(http, now.data.id);
		await waitForRun(http, episode.data.id);

		const episodes = (await http.get(`/faceless-reels/subscriptions/${sub.id}/episodes`)).data
			.data as Array<Record<string, unknown>>;
		expect(episodes.map((e) => [e.number, e.topic, e.status])).toEqual([
			[2, 'sharks', 'completed'],
			[1, 'coral reefs', 'completed'],
		]);
		expect(episodes[0]).toMatchObject({
			id: episode.data.resource_id,
			run_id: episode.data.id,
			video_url: expect.stringContaining('/storage/files/'),
		});

		expect((await http.delete(`/faceless-reels/subscriptions/${sub.id}`)).status).toBe(204);
		expect((await http.get('/faceless-reels/subscriptions')).data.data).toEqual([]);
		expectProblem(
			await http.patch(`/faceless-reels/subscriptions/${sub.id}`, { status: 'paused' }),
			404,
			'not_found',
		);
		expect(
			expectProblem(
				await http.post('/faceless-reels/subscriptions', {
					name: 'x',
					topic: 'y',
					frequency: 'hourly',
				}),
				400,
				'invalid_parameter',
			).param,
		).toBe('frequency');
	});

	it('explainers and music videos: styles, estimate, generate (team billing and project filing accepted)', async () => {
		for (const [path, perSecond] of [
			['explainers', 0.5],
			['music-videos', 0.8],
		] as const) {
			expect((await http.get(`/${path}/styles`)).data.data.length).toBeGreaterThan(0);
			const estimate = await http.post(`/${path}/estimate-cost`, {
				prompt: 'how tides work',
				duration_seconds: 40,
			});
			expect(estimate.data).toMatchObject({ credits: 40 * perSecond, model: null });
			const submitted = await http.post(
				`/${path}/generations`,
				{
					prompt: 'how tides work',
					duration_seconds: 40,
					team_id: SANDBOX_TEAM_ID,
					project_id: SANDBOX_PROJECT_ID,
				},
				idem(),
			);
			expect(submitted.status).toBe(202);
			const run = await waitForRun(http, submitted.data.id);
			expect(run.status).toBe('completed');
			expect(sandbox.state.chargesFor(submitted.data.id)).toEqual([
				expect.objectContaining({ team_id: SANDBOX_TEAM_ID, credits: 40 * perSecond }),
			]);
		}
	});

	it('picture books: estimate, generate, get the book with its pages and PDF; coloring books refuse project_id', async () => {
		expect((await http.get('/picture-books/styles')).data.data.length).toBeGreaterThan(0);
		expect(
			(
				await http.post('/picture-books/estimate-cost', {
					prompt: 'a fox learns to swim',
					page_count: 8,
				})
			).data.credits,
		).toBe(24);
		const submitted = await http.post(
			'/picture-books/generations',
			{ prompt: 'a fox learns to swim', page_count: 8, title: 'Fox Swims' },
			idem(),
		);
		const bookId = submitted.data.resource_id as string;
		expect(bookId).toMatch(/^pbook_/);
		await waitForRun(http, submitted.data.id);
		const book = (await http.get(`/picture-books/${bookId}`)).data;
		expect(book).toMatchObject({
			id: bookId,
			object: 'picture_book',
			title: 'Fox Swims',
			status: 'completed',
			page_count: 8,
		});
		expect(book.pages).toHaveLength(8);
		const pdf = await download(book.pdf_url);
		expect(pdf.type).toMatch(/^application\/pdf/);
		expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
		expect(pdf.bytes.toString('latin1')).toContain('/Count 8');
		expectProblem(await http.get('/picture-books/pbook_missing'), 404, 'not_found');

		expectProblem(
			await http.post(
				'/coloring-books/generations',
				{ prompt: 'dinosaurs', project_id: SANDBOX_PROJECT_ID },
				idem(),
			),
			400,
			'project_filing_unsupported',
		);
		const coloring = await http.post(
			'/coloring-books/generations',
			{ prompt: 'dinosaurs', page_count: 3 },
			idem(),
		);
		const run = await waitForRun(http, coloring.data.id);
		expect(
			(await download((run.output as { output_url: string }).output_url)).bytes.toString('latin1'),
		).toContain('/Count 3');
	});

	it('games: generate (play_url), iterate with game_id, deploy, unpublish and publish again', async () => {
		const first = await http.post(
			'/games/generations',
			{ prompt: 'a snake game with neon colours' },
			idem(),
		);
		expect(first.data).toMatchObject({
			capability: 'game_generation',
			model: 'game.arcade-1',
			resource_id: expect.stringMatching(/^game_/),
		});
		const gameId = first.data.resource_id as string;
		const v1 = await waitForRun(http, first.data.id);
		expect(v1.output).toMatchObject({
			game_id: gameId,
			version: 1,
			play_url: expect.stringContaining(`/play/${gameId}?version=1`),
			output_url: expect.any(String),
		});
		expect((await page((v1.output as { play_url: string }).play_url)).data).toContain(
			'neon colours',
		);

		const second = await http.post(
			'/games/generations',
			{ prompt: 'make the snake faster', game_id: gameId },
			idem(),
		);
		const v2 = await waitForRun(http, second.data.id);
		expect(v2.output).toMatchObject({ game_id: gameId, version: 2 });

		const playUrl = `${sandbox.origin}/play/${gameId}`;
		expect((await page(playUrl)).status).toBe(404);
		expectProblem(
			await http.post(`/games/${gameId}/publish`, { published: true }),
			409,
			'game_not_deployed',
		);
		const deploy = await http.post('/games/deployments', { game_id: gameId }, idem());
		expect(deploy.status).toBe(202);
		const deployed = await waitForRun(http, deploy.data.id);
		expect(deployed.output).toMatchObject({
			game_id: gameId,
			version: 2,
			play_url: playUrl,
			published: true,
		});
		const live = await page(playUrl);
		expect(live.status).toBe(200);
		expect(live.data).toContain('make the snake faster');

		const hidden = await http.post(`/games/${gameId}/publish`, { published: false });
		expect(hidden.data).toMatchObject({
			id: gameId,
			object: 'game',
			published: false,
			deployed_version: 2,
			version: 2,
			play_url: playUrl,
		});
		expect((await page(playUrl)).status).toBe(404);
		expect((await http.post(`/games/${gameId}/publish`, { published: true })).data.published).toBe(
			true,
		);
		expect((await page(playUrl)).status).toBe(200);

		expectProblem(
			await http.post('/games/generations', { prompt: 'x', game_id: 'game_nope' }, idem()),
			404,
			'not_found',
		);
		expectProblem(
			await http.post('/games/deployments', { game_id: gameId, version: 7 }, idem()),
			409,
			'game_not_ready',
		);
	});

	it('apps: deploy (live_url), iterate with app_id on the same live_url', async () => {
		const first = await http.post('/apps/deployments', { prompt: 'a habit tracker' }, idem());
		const appId = first.data.resource_id as string;
		const v1 = await waitForRun(http, first.data.id);
		const liveUrl = (v1.output as { live_url: string }).live_url;
		expect(v1.output).toMatchObject({
			app_id: appId,
			version: 1,
			live_url: `${sandbox.origin}/live/${appId}`,
		});
		expect((await page(liveUrl)).data).toContain('a habit tracker');
		const second = await http.post(
			'/apps/deployments',
			{ prompt: 'add a dark mode', app_id: appId },
			idem(),
		);
		const v2 = await waitForRun(http, second.data.id);
		expect(v2.output).toMatchObject({ app_id: appId, version: 2, live_url: liveUrl });
		expect((await page(liveUrl)).data).toContain('add a dark mode');
		expectProblem(
			await http.post('/apps/deployments', { prompt: 'x', app_id: 'app_nope' }, idem()),
			404,
			'not_found',
		);
	});

	it('checks the spec scopes: reels:read cannot generate; account:read reads picture books', async () => {
		const reader = clientFor(
			sandbox.baseUrl,
			sandbox.state.createApiKey(['reels:read', 'account:read']),
		);
		expect(
			expectProblem(
				await reader.post('/faceless-reels/generations', { prompt: 'x' }, idem()),
				403,
				'insufficient_scope',
			).required_scope,
		).toBe('reels:write');
		expect((await reader.get('/faceless-reels/subscriptions')).status).toBe(200);
		expect((await reader.get('/picture-books/styles')).status).toBe(200);
		expect(
			expectProblem(
				await reader.post('/games/generations', { prompt: 'x' }, idem()),
				403,
				'insufficient_scope',
			).required_scope,
		).toBe('images:write');
	});
});
