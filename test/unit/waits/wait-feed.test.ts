import { RunFeed, waitForRuns } from '../../../src/waits/wait-loop';
import { forgetRunDurations } from '../../../src/waits/wait-pace';
import { SimRunService } from '../../helpers/simulated-runs';

// A wait that begins with the first run sent, while the rest are still being sent (src/waits/run-waits.ts),
// against a run service in simulated time (test/helpers/simulated-runs.ts).

describe('waiting for runs as they are sent (RunFeed)', () => {
	beforeEach(() => forgetRunDurations());

	it('sees the first runs finish while later ones are still being sent, then waits for those', async () => {
		const service = new SimRunService();
		const feed = new RunFeed();
		const first = service.submit({ count: 5, durationMs: 2_000 });
		for (const run of first) feed.add(run);
		const seen = new Map<string, number>();
		const waiting = waitForRuns(service.client(), feed, {
			clock: service.clock,
			onSettled: (o) => seen.set(o.run.id, service.clock.now()),
		});
		// five more are sent 3 s later (a slow send of many items), then the feed closes
		let later: string[] = [];
		service.clock.at(service.clock.now() + 3_000, () => {
			later = service.submit({ count: 5, durationMs: 2_000 }).map((run) => (feed.add(run), run.id));
			feed.close(service.clock.now() + 600_000);
		});
		const outcomes = await waiting;
		expect([...outcomes.values()].map((o) => o.state)).toEqual(Array(10).fill('completed'));
		const finish = service.finishTimes();
		// the first five were seen finished before the last five were sent
		expect(Math.max(...first.map((r) => seen.get(r.id)!))).toBeLessThan(
			Math.min(...later.map((id) => finish.get(id)! - 2_000)),
		);
	});

	it('takes in a run handed to it just before the feed closes, while a read is under way', async () => {
		const service = new SimRunService();
		const feed = new RunFeed();
		for (const run of service.submit({ count: 3, durationMs: 1_000 })) feed.add(run);
		const allDone = Math.max(...service.finishTimes().values());
		const waiting = waitForRuns(service.client(), feed, { clock: service.clock });
		let last: string | undefined;
		// during the read that shows the three finished: the loop has nothing pending after it
		service.onRequest = () => {
			if (last || service.clock.now() < allDone) return;
			const [run] = service.submit({ count: 1, durationMs: 1_000 });
			last = run.id;
			feed.add(run);
			feed.close(service.clock.now() + 600_000);
		};
		const outcomes = await waiting;
		expect(outcomes.size).toBe(4);
		expect(outcomes.get(last!)?.state).toBe('completed');
	});

	it('ends without outcomes when abandoned (sending failed), and times out from when it closed, not from when it began', async () => {
		const service = new SimRunService();
		const abandoned = new RunFeed();
		for (const run of service.submit({ count: 3, durationMs: 60_000 })) abandoned.add(run);
		const waiting = waitForRuns(service.client(), abandoned, { clock: service.clock });
		service.onRequest = () => abandoned.abandon();
		expect((await waiting).size).toBe(0);

		const slow = new SimRunService();
		const feed = new RunFeed();
		for (const run of slow.submit({ count: 3, durationMs: 60_000 })) feed.add(run);
		const began = slow.clock.now();
		const timedOut = waitForRuns(slow.client(), feed, { clock: slow.clock });
		const closedAt = began + 20_000;
		slow.clock.at(closedAt, () => feed.close(closedAt + 10_000));
		const outcomes = await timedOut;
		expect([...outcomes.values()].map((o) => o.state)).toEqual(['timeout', 'timeout', 'timeout']);
		expect(slow.clock.now()).toBeGreaterThanOrEqual(closedAt + 10_000);
	});
});
