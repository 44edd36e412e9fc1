import { MediaGenProducer } from '../../nodes/MediaGenProducer/MediaGenProducer.node';
import { SANDBOX_API_KEY } from '../../sandbox/options';
import { binaryBytes, runNode } from '../helpers/n8n-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';
import { clientFor } from '../sandbox/helpers';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- service JSON, read by path in assertions
type Json = Record<string, any>;

describe('MediaGen Producer in n8n-core (against the sandbox)', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture();
	});
	afterEach(async () => fx.sandbox.close());

	const run = async (parameters: Record<string, unknown>, input?: Array<{ json: Json }>) => {
		const result = await runNode({
			nodeType: new MediaGenProducer(),
			credentials: fx.credentials,
			parameters: parameters as never,
			input,
		});
		expect(result.error).toBeUndefined();
		return result.items as unknown as Array<{ json: Json; binary?: Json; pairedItem?: unknown }>;
	};

	it('generates a game (output play_url, HTML as binary), iterates it with Game ID, deploys, unpublishes and publishes it', async () => {
		const [first] = await run({ resource: 'game', operation: 'generate', prompt: 'a pong clone' });
		const gameId = first.json.resource_id as string;
		expect(first.json).toMatchObject({
			status: 'completed',
			capability: 'game_generation',
			output: { game_id: gameId, version: 1, play_url: expect.stringContaining(`/play/${gameId}`) },
		});
		expect(first.binary!.data.mimeType).toBe('text/html');
		expect((await binaryBytes(first.binary!.data)).toString()).toContain('a pong clone');
		expect(posts(fx.sandbox, '/games/generations')[0].idempotencyKey).toMatch(/^n8n-/);

		const [second] = await run({
			resource: 'game',
			operation: 'generate',
			prompt: 'add a second paddle',
			gameId,
		});
		expect(second.json.output).toMatchObject({ game_id: gameId, version: 2 });

		const [deployed] = await run({
			resource: 'game',
			operation: 'deploy',
			gameId,
			options: { returnUrlsOnly: true },
		});
		const playUrl = deployed.json.output.play_url as string;
		expect(playUrl).toBe(`${fx.sandbox.origin}/play/${gameId}`);
		expect(deployed.binary).toBeUndefined();
		expect((await fetch(playUrl)).status).toBe(200);

		const [hidden] = await run({
			resource: 'game',
			operation: 'publish',
			gameId,
			published: false,
		});
		expect(hidden.json).toMatchObject({
			id: gameId,
			object: 'game',
			published: false,
			play_url: playUrl,
		});
		expect((await fetch(playUrl)).status).toBe(404);
		expect(posts(fx.sandbox, `/games/${gameId}/publish`)[0].idempotencyKey).toBeUndefined();
		await run({ resource: 'game', operation: 'publish', gameId, published: true });
		expect((await fetch(playUrl)).status).toBe(200);
	});

	it('deploys an app (output live_url) and iterates it with App ID on the same live_url', async () => {
		const [first] = await run({ resource: 'app', operation: 'deploy', prompt: 'a pomodoro timer' });
		const appId = first.json.output.app_id as string;
		const liveUrl = first.json.output.live_url as string;
		expect(liveUrl).toBe(`${fx.sandbox.origin}/live/${appId}`);
		const [second] = await run({
			resource: 'app',
			operation: 'deploy',
			prompt: 'add sounds',
			appId,
		});
		expect(second.json.output).toMatchObject({ app_id: appId, version: 2, live_url: liveUrl });
		expect(await (await fetch(liveUrl)).text()).toContain('add sounds');
	});

	it('pauses, resumes and re-routes a scheduled task, lists and deletes it', async () => {
		const [task] = await run({
			resource: 'task',
			operation: 'create',
			name: 'Digest',
			prompt: 'Summarise the week',
			schedule: '0 9 * * 1',
			destination: 'https://hooks.example.com/a',
		});
		expect(task.json).toMatchObject({ object: 'scheduled_task', status: 'active' });
		expect(posts(fx.sandbox, '/tasks')[0].idempotencyKey).toBeUndefined();
		const id = task.json.id as string;
		expect(
			(await run({ resource: 'task', operation: 'update', id, status: 'paused' }))[0].json.status,
		).toBe('paused');
		expect(
			(await run({ resource: 'task', operation: 'update', id, status: 'active' }))[0].json.status,
		).toBe('active');
		const [rerouted] = await run({
			resource: 'task',
			operation: 'update',
			id,
			additionalFields: { destination: 'https://hooks.example.com/b' },
		});
		expect(rerouted.json).toMatchObject({
			status: 'active',
			destination: 'https://hooks.example.com/b',
		});
		expect(
			(await run({ resource: 'task', operation: 'list', returnAll: true })).map((i) => i.json.id),
		).toEqual([id]);
		expect((await run({ resource: 'task', operation: 'delete', id }))[0].json).toEqual({
			success: true,
		});
		expect(await run({ resource: 'task', operation: 'list', returnAll: true })).toEqual([]);
	});

	it('creates one subscription per input item, and lists them page by page (Limit; Return All follows has_more)', async () => {
		const input = Array.from({ length: 3 }, (_, i) => ({ json: { n: i } }));
		const created = await run(
			{
				resource: 'reelSubscription',
				operation: 'create',
				name: '={{ "Series " + $json.n }}',
				topic: 'space',
				frequency: 'daily',
			},
			input,
		);
		expect(created.map((i) => [i.json.name, i.pairedItem])).toEqual(
			input.map((_, item) => [`Series ${item}`, { item }]),
		);
		const http = clientFor(fx.sandbox.baseUrl, SANDBOX_API_KEY);
		for (let i = 3; i < 120; i++)
			await http.post('/faceless-reels/subscriptions', {
				name: `Series ${i}`,
				topic: 'space',
				frequency: 'daily',
			});
		expect(
			await run({ resource: 'reelSubscription', operation: 'list', returnAll: false, limit: 5 }),
		).toHaveLength(5);
		const all = await run({ resource: 'reelSubscription', operation: 'list', returnAll: true });
		expect(all).toHaveLength(120);
		expect(new Set(all.map((i) => i.json.id)).size).toBe(120);
		const pages = fx.sandbox.state.requests.filter(
			(r) => r.method === 'GET' && r.path === '/v1/faceless-reels/subscriptions',
		);
		expect(pages).toHaveLength(3);
	});

	it('produces a faceless reel episode and the MP4 comes back as binary', async () => {
		const [sub] = await run({
			resource: 'reelSubscription',
			operation: 'create',
			name: 'Facts',
			topic: 'octopuses',
			frequency: 'weekly',
		});
		const [episode] = await run({
			resource: 'reelEpisode',
			operation: 'create',
			id: sub.json.id,
			topic: 'octopus hearts',
		});
		expect(episode.json).toMatchObject({
			status: 'completed',
			capability: 'faceless_reel_generation',
		});
		expect(episode.binary!.data.mimeType).toBe('video/mp4');
		const [listed] = await run({
			resource: 'reelEpisode',
			operation: 'list',
			id: sub.json.id,
			returnAll: true,
		});
		expect(listed.json).toMatchObject({
			id: episode.json.resource_id,
			topic: 'octopus hearts',
			status: 'completed',
		});
	});

	it('refuses a reel duration the reel model does not offer before sending anything', async () => {
		const result = await runNode({
			nodeType: new MediaGenProducer(),
			credentials: fx.credentials,
			parameters: {
				resource: 'facelessReel',
				operation: 'generate',
				prompt: 'x',
				durationSeconds: 45,
			},
		});
		expect(result.error?.message).toMatch(/^Duration \(Seconds\): 45 .*30, 60, 90/);
		expect(posts(fx.sandbox, '/faceless-reels/generations')).toHaveLength(0);
	});
});
