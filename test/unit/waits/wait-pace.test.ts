import { waitForRuns } from '../../../src/waits/wait-loop';
import {
	forgetRunDurations,
	LATE_SHARE,
	MAX_EARLY_GAP_MS,
	MIN_GAP_MS,
} from '../../../src/waits/wait-pace';
import { SimRunService, type SubmitPlan } from '../../helpers/simulated-runs';

// The wait loop's pace against a run service in simulated time (test/helpers/simulated-runs.ts):
// request counts and how long after each finish the loop saw it, in simulated milliseconds. Nothing
// here depends on the machine's speed or load.

interface Simulated {
	listReads: number;
	runReads: number;
	/** from the last finish to the loop seeing it (ms) */
	lastLagMs: number;
	/** the longest any run waited to be seen finished (ms) */
	worstLagMs: number;
	/** the largest share of its own duration any run waited to be seen finished */
	worstLagShare: number;
	/** the reads, in ms from the first submit */
	readTimes: number[];
	completed: number;
}

/** One wait over runs submitted as `plan`, after waits over `before` in this process (what it learnt from them). */
async function simulate(plan: SubmitPlan, before: SubmitPlan[] = []): Promise<Simulated> {
	for (const earlier of before) {
		const service = new SimRunService();
		await waitForRuns(service.client(), service.submit(earlier), {
			deadline: service.clock.now() + 3_600_000,
			clock: service.clock,
		});
	}
	const service = new SimRunService();
	const t0 = service.clock.now();
	const runs = service.submit(plan);
	const seenAt = new Map<string, number>();
	const outcomes = await waitForRuns(service.client(), runs, {
		deadline: service.clock.now() + 3_600_000,
		clock: service.clock,
		onSettled: (o) => seenAt.set(o.run.id, service.clock.now()),
	});
	const finishes = [...service.finishTimes()];
	const lags = finishes.map(([id, at]) => seenAt.get(id)! - at);
	const last = finishes.reduce((a, b) => (b[1] > a[1] ? b : a));
	return {
		listReads: service.reads.filter((r) => r.kind === 'list').length,
		runReads: service.reads.filter((r) => r.kind === 'run').length,
		lastLagMs: seenAt.get(last[0])! - last[1],
		worstLagMs: Math.max(...lags),
		worstLagShare: Math.max(
			...finishes.map(
				([id, at], i) =>
					lags[i] / (at - Date.parse(String(runs.find((r) => r.id === id)!.created_at))),
			),
		),
		readTimes: service.reads.map((r) => r.at - t0),
		completed: [...outcomes.values()].filter((o) => o.state === 'completed').length,
	};
}

const twelveSeconds: SubmitPlan = { count: 20, durationMs: 12_000, spreadMs: 30 };

describe('the wait loop learns its pace (simulated time: request counts and detection lags)', () => {
	beforeEach(() => forgetRunDurations());

	it('reads 20 runs of 12 s three times when this process saw the model take 12 s: none in the first 6 s, each finish seen within 2 % of the duration', async () => {
		const result = await simulate(twelveSeconds, [twelveSeconds]);
		expect(result.completed).toBe(20);
		expect(result.listReads).toBe(3);
		expect(result.runReads).toBe(0);
		expect(Math.min(...result.readTimes)).toBeGreaterThanOrEqual(6_000);
		expect(result.worstLagMs).toBeLessThanOrEqual(0.02 * 12_000);
	});

	it('remembers durations per model: another model in the same process starts cold', async () => {
		const result = await simulate(twelveSeconds, [{ ...twelveSeconds, model: 'image.other' }]);
		expect(result.readTimes[0]).toBeLessThan(1_000);
		expect(result.listReads).toBeGreaterThan(10);
	});

	it("the first wait of a model: every finish seen within an eighth of the runs' duration, 24 reads for 12 s runs", async () => {
		const result = await simulate(twelveSeconds);
		expect(result.completed).toBe(20);
		expect(result.worstLagMs).toBeLessThanOrEqual(12_000 * LATE_SHARE);
		expect(result.listReads).toBeLessThanOrEqual(24);
	});

	it('a model slower than last time (12 s after 2 s): reads thin out past the expected finish, each finish seen within an eighth of the duration', async () => {
		const result = await simulate(twelveSeconds, [{ ...twelveSeconds, durationMs: 2_000 }]);
		expect(result.worstLagMs).toBeLessThanOrEqual(12_000 * LATE_SHARE);
		expect(result.listReads).toBeLessThanOrEqual(17);
	});

	it('a model faster than last time (7 s after 12 s): seen within half the duration, by the reads halfway to the expected finish', async () => {
		const result = await simulate({ ...twelveSeconds, durationMs: 7_000 }, [twelveSeconds]);
		expect(result.worstLagMs).toBeLessThanOrEqual(7_000 / 2);
		expect(result.listReads).toBeLessThanOrEqual(3);
	});

	it('1,000 runs of 2 s sent over 0.7 s: reads follow the finishes, every finish seen within 110 ms, about 20 page reads', async () => {
		const plan: SubmitPlan = { count: 1000, durationMs: 2_000, spreadMs: 700 };
		const result = await simulate(plan, [plan]);
		expect(result.completed).toBe(1000);
		expect(result.worstLagMs).toBeLessThanOrEqual(MIN_GAP_MS + 10);
		expect(result.listReads).toBeLessThanOrEqual(25);
	});

	it('runs of 10 to 14 s: once the first finishes, the others are read again soon: each seen within an eighth of its duration', async () => {
		const plan: SubmitPlan = {
			count: 50,
			durationMs: (i) => 10_000 + ((i * 7919) % 4_000),
			spreadMs: 100,
		};
		const result = await simulate(plan, [plan]);
		expect(result.completed).toBe(50);
		expect(result.worstLagShare).toBeLessThanOrEqual(LATE_SHARE);
		expect(result.listReads).toBeLessThanOrEqual(12);
	});

	it('an account that runs 10 at a time (2,000 runs of 1 s, 200 s): the oldest runs are read while they finish, the last finish seen within an eighth of a run, about one read per run', async () => {
		const plan: SubmitPlan = { count: 2000, durationMs: 1_000, spreadMs: 1_500, cap: 10 };
		const result = await simulate(plan, [{ count: 100, durationMs: 1_000, spreadMs: 100 }]);
		expect(result.completed).toBe(2000);
		expect(result.lastLagMs).toBeLessThanOrEqual(1_000 * LATE_SHARE);
		expect(result.listReads / 2000).toBeLessThanOrEqual(1.15);
	}, 60_000);

	it('an account that runs 10 at a time, runs of 0.9 to 1.1 s queued for minutes: the last runs, polled on their own, are seen within an eighth of a run', async () => {
		// each slot of the account drifts, so the last runs finish apart: the loop leaves the list for
		// own polls, and a run that waited 300 s in the queue is still a run of about 1 s (was read every 10 s)
		const plan: SubmitPlan = { count: 3000, durationMs: (i) => 900 + ((i * 7919) % 201), cap: 10 };
		const result = await simulate(plan, [{ count: 1000, durationMs: 1_000, spreadMs: 1_000 }]);
		expect(result.completed).toBe(3000);
		expect(result.lastLagMs).toBeLessThanOrEqual(1_000 * LATE_SHARE);
		expect(result.listReads / 3000).toBeLessThanOrEqual(1.15);
	}, 60_000);

	it('a lone run is polled on its own: three polls when its model is known to take 12 s', async () => {
		const lone: SubmitPlan = { count: 1, durationMs: 12_000 };
		const result = await simulate(lone, [lone]);
		expect(result.runReads).toBe(3);
		expect(result.listReads).toBe(0);
		expect(result.lastLagMs).toBeLessThanOrEqual(0.02 * 12_000);
	});

	it('runs of 10 minutes are read at most once a minute until close to their expected finish', async () => {
		const long: SubmitPlan = { count: 5, durationMs: 600_000, spreadMs: 10 };
		const result = await simulate(long, [long]);
		const gaps = result.readTimes.slice(1).map((t, i) => t - result.readTimes[i]);
		expect(result.readTimes[0]).toBeGreaterThanOrEqual(MAX_EARLY_GAP_MS);
		expect(gaps.filter((gap) => gap < MAX_EARLY_GAP_MS - 1_000).length).toBeLessThanOrEqual(2);
		expect(result.lastLagMs).toBeLessThanOrEqual(0.02 * 600_000);
	});
});
