// The wait loop's schedule without a request or a timer: the test says what each read showed and
// when, and reads back which reads are due and when the loop would wake.
import type { Run } from '../../../src/runs/run';
import { forgetRunDurations } from '../../../src/waits/wait-pace';
import {
	OUTAGE_FIRST_PAUSE_MS,
	PAGE,
	WaitSchedule,
	type WaitOutcome,
} from '../../../src/waits/wait-schedule';

const T0 = Date.parse('2031-03-01T09:00:00.000Z');
const run = (i: number, status: Run['status'] = 'processing', bornAt = T0): Run => ({
	id: `run_${i}`,
	object: 'run',
	status,
	model: 'image.aurora-2',
	created_at: new Date(bornAt).toISOString(),
});

function scheduleOf(runs: Run[]) {
	const outcomes: WaitOutcome[] = [];
	const schedule = new WaitSchedule(
		{
			baseUrl: 'http://service.test',
			record: (o) => outcomes.push(o),
			unknownStatus: (r) => new Error(`unknown ${String(r.status)}`),
		},
		T0,
	);
	schedule.adopt(runs, T0);
	return { schedule, outcomes };
}

beforeEach(() => forgetRunDurations());

describe('the wait schedule (what to read when, no I/O)', () => {
	it('polls a lone run on its own, not at once, and sooner than the slowest pace', () => {
		const { schedule } = scheduleOf([run(0)]);
		expect(schedule.listMode).toBe(false);
		expect(schedule.dueNow(T0)).toEqual({ pages: [], own: [] });
		const wake = schedule.wakeAt(T0, Infinity);
		expect(wake).toBeGreaterThan(T0);
		expect(wake - T0).toBeLessThanOrEqual(10_000);
		expect(schedule.dueNow(wake).own.map((p) => p.run.id)).toEqual(['run_0']);
	});

	it('covers three or more runs with list pages, one page per window of a hundred', () => {
		const runs = Array.from({ length: 250 }, (_, i) => run(i));
		const { schedule } = scheduleOf(runs);
		expect(schedule.listMode).toBe(true);
		const wake = schedule.wakeAt(T0, Infinity);
		const { pages, own } = schedule.dueNow(wake);
		expect(own).toEqual([]);
		expect(pages.length).toBe(3);
		expect(pages[0]).toBe(0);
		// each page is anchored after the run that starts the next window, so the windows overlap
		expect(schedule.pageAnchor(pages[0])?.id).toBe(`run_${pages[0] + PAGE - 10}`);
		expect(schedule.pageAnchor(pages[2])).toBeUndefined();
	});

	it('records a finish a page shows, once, and never reads that run again', () => {
		const { schedule, outcomes } = scheduleOf([run(0), run(1), run(2)]);
		const at = schedule.wakeAt(T0, Infinity);
		schedule.pageRead(0, [run(0, 'completed'), run(1), run(2)], at, true);
		schedule.pageRead(0, [run(0, 'completed')], at, true);
		expect(outcomes.map((o) => [o.state, o.run.id])).toEqual([['completed', 'run_0']]);
		expect([...schedule.pending.keys()]).toEqual(['run_1', 'run_2']);
	});

	it('polls on its own a run the list keeps missing (other traffic on the account)', () => {
		const runs = Array.from({ length: 5 }, (_, i) => run(i));
		const { schedule } = scheduleOf(runs);
		let at = schedule.wakeAt(T0, Infinity);
		const others = runs.filter((r) => r.id !== 'run_3');
		schedule.pageRead(0, others, at, true);
		at = schedule.wakeAt(at, Infinity);
		schedule.pageRead(0, others, at, true);
		at = schedule.wakeAt(at, Infinity);
		expect(schedule.dueNow(at + 60_000).own.map((p) => p.run.id)).toEqual(['run_3']);
	});

	it('reads no page before a Retry-After, and backs off in an outage', () => {
		const runs = Array.from({ length: 5 }, (_, i) => run(i));
		const { schedule } = scheduleOf(runs);
		const at = schedule.wakeAt(T0, Infinity);
		schedule.pageRead(0, runs, at, true, 5_000);
		expect(schedule.dueNow(at + 4_999).pages).toEqual([]);
		expect(schedule.wakeAt(at, Infinity)).toBeGreaterThanOrEqual(at + 5_000);
		schedule.listOutage(at);
		expect(schedule.wakeAt(at, Infinity)).toBeGreaterThanOrEqual(at + OUTAGE_FIRST_PAUSE_MS);
		schedule.listOutage(at);
		expect(schedule.dueNow(at + OUTAGE_FIRST_PAUSE_MS).pages).toEqual([]);
	});

	it('a run whose status the document does not name ends with an error, not a wait', () => {
		const { schedule, outcomes } = scheduleOf([run(0)]);
		const [p] = schedule.pending.values();
		schedule.polled(p, { ...run(0), status: 'paused' as Run['status'] }, T0 + 1_000);
		expect(outcomes).toEqual([
			expect.objectContaining({ state: 'error', error: new Error('unknown paused') }),
		]);
	});

	it('a run already finished when handed over is recorded at once; the rest time out together', () => {
		const { schedule, outcomes } = scheduleOf([run(0, 'failed'), run(1), run(2)]);
		schedule.endAll('timeout');
		expect(outcomes.map((o) => [o.state, o.run.id])).toEqual([
			['failed', 'run_0'],
			['timeout', 'run_1'],
			['timeout', 'run_2'],
		]);
		expect(schedule.pending.size).toBe(0);
	});
});
