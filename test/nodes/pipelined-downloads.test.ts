/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// Output files are downloaded while the node still waits for other runs: a run's files start when the
// wait loop sees it finish, a bounded number at once, and the items still come out in input order.
// Checked through the order of events in the request logs (sandbox and relay), never through durations.
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { startRelayed, type FileRelay } from '../helpers/file-relay';
import { runNode } from '../helpers/n8n-harness';
import type { Fixture } from '../helpers/sandbox-fixture';

/** The node's own cap on downloads in flight (src/waits/run-outputs.ts). */
const DOWNLOAD_CONCURRENCY = 32;

describe('downloads pipelined into the wait', () => {
	let fx: Fixture;
	let relay: FileRelay;

	const start = async (options: Parameters<typeof startRelayed>[0]) =>
		({ fx, relay } = await startRelayed(options));
	afterEach(async () => {
		await relay.close();
		await fx.sandbox.close();
	});

	const images = (input: Array<{ count: number }>) =>
		runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: {
				resource: 'image',
				operation: 'generate',
				prompt: 'a fox',
				count: '={{ $json.count }}',
			},
			input: input.map((json) => ({ json })),
		});

	it("downloads a run's files as soon as it finishes, before the last run has finished", async () => {
		// one run at a time at the service: the runs finish one after the other
		await start({ latencyMs: 1500, concurrencyPerAccount: 1 });
		const { items, error } = await images([{ count: 1 }, { count: 1 }, { count: 1 }]);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.status)).toEqual(['completed', 'completed', 'completed']);
		const finished = items
			.map((i) => Date.parse(String(i.json.completed_at)))
			.sort((a, b) => a - b);
		const firstFile = relay.files[0];
		const itemOfFirstFile = items.find((i) =>
			(i.json.output_urls as string[]).some((url) => url.endsWith(firstFile.path)),
		);
		// the first file fetched is the first run's, fetched whole while the service still worked on the last run
		expect(Date.parse(String(itemOfFirstFile?.json.completed_at))).toBe(finished[0]);
		expect(firstFile.closedEarly).toBe(false);
		expect(firstFile.closedAt).toBeLessThan(finished[2]);
	});

	it("keeps input order when an earlier run's download finishes last", async () => {
		await start({ latencyMs: 300, concurrencyPerAccount: 1 });
		relay.holdFile = (index) => (index === 0 ? 1500 : 0);
		const { items, error } = await images([{ count: 1 }, { count: 2 }, { count: 3 }]);
		expect(error).toBeUndefined();
		// the first file request ended after every other one
		expect(relay.files).toHaveLength(6);
		expect(Math.max(...relay.files.slice(1).map((f) => f.closedAt))).toBeLessThan(
			relay.files[0].closedAt,
		);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items.map((i) => Object.keys(i.binary ?? {}).length)).toEqual([1, 2, 3]);
	});

	it(`has at most ${DOWNLOAD_CONCURRENCY} downloads in flight, several at once`, async () => {
		await start({ latencyMs: 50 });
		relay.holdFile = () => 300;
		const { items, error } = await images(
			Array.from({ length: DOWNLOAD_CONCURRENCY + 8 }, () => ({ count: 1 })),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(DOWNLOAD_CONCURRENCY + 8);
		expect(relay.files).toHaveLength(DOWNLOAD_CONCURRENCY + 8);
		// most downloads open at the moment one of them started
		const inFlight = relay.files.map(
			(f) => relay.files.filter((g) => g.at <= f.at && g.closedAt > f.at).length,
		);
		expect(Math.max(...inFlight)).toBeLessThanOrEqual(DOWNLOAD_CONCURRENCY);
		expect(Math.max(...inFlight)).toBeGreaterThan(1);
	});

	it("waits for runs as they are sent: the first run's file is fetched before the last item is sent", async () => {
		await start({ latencyMs: 300 });
		// each submit answered 100 ms after the run was made: the first runs finish while the rest are sent
		fx.sandbox.injectFault({
			when: 'after',
			method: 'POST',
			path: '/images/generations',
			delayMs: 100,
			count: 12,
		});
		const { items, error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: {
				resource: 'image',
				operation: 'generate',
				prompt: '={{ $json.prompt }}',
				options: { concurrency: 1 },
			},
			input: Array.from({ length: 12 }, (_, i) => ({ json: { prompt: `poster ${i}` } })),
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.status)).toEqual(Array(12).fill('completed'));
		const lastSubmit = Math.max(
			...fx.sandbox.state.requests
				.filter((r) => r.method === 'POST' && r.path === '/v1/images/generations')
				.map((r) => r.at),
		);
		expect(relay.files[0].at).toBeLessThan(lastSubmit);
	});

	it('stops waiting when sending fails and the node stops: nothing is read after it returned', async () => {
		await start({ latencyMs: 1500 });
		// the fifth submit is refused (after four runs were made): the node fails without Continue On Fail
		const posts = () =>
			fx.sandbox.state.requests.filter(
				(r) => r.method === 'POST' && r.path === '/v1/images/generations',
			).length;
		const watch = setInterval(() => {
			if (posts() < 4) return;
			clearInterval(watch);
			fx.sandbox.injectFault({
				when: 'before',
				method: 'POST',
				path: '/images/generations',
				status: 400,
				code: 'invalid_parameter',
			});
		}, 1);
		const { error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: {
				resource: 'image',
				operation: 'generate',
				prompt: '={{ $json.prompt }}',
				options: { concurrency: 1 },
			},
			input: Array.from({ length: 30 }, (_, i) => ({ json: { prompt: `poster ${i}` } })),
		});
		clearInterval(watch);
		expect(error).toBeDefined();
		expect(fx.sandbox.state.runs.size).toBeGreaterThanOrEqual(4);
		const requestsWhenReturned = fx.sandbox.state.requests.length;
		// the runs made go on for 1.5 s: a wait still running would read them within that time
		await new Promise((resolve) => setTimeout(resolve, 2500));
		expect(fx.sandbox.state.requests.slice(requestsWhenReturned)).toEqual([]);
	});
});
