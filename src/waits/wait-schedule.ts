import { isKnownStatus, isTerminal, type Run } from '../runs/run';
import { flowGap, MAX_GAP_MS, nextReadAt, RunDurations } from './wait-pace';

// What the wait loop reads when: the runs it waits for, what each read showed, and from that the
// list pages and own polls due now and when to wake next. No request, no timer: the loop
// (wait-loop.ts) makes the reads and tells the schedule what they showed, with the time they
// showed it; a test drives the schedule with any times it likes.

export type WaitOutcome =
	| { state: 'completed' | 'failed'; run: Run }
	| { state: 'timeout' | 'cancelled'; run: Run }
	/** polling itself failed (after the transport's retries) */
	| { state: 'error'; run: Run; error: Error };

/**
 * A page anchored on our own runs is counted as covering this many fewer of them than it shows: the
 * service may have made runs sent at the same time in another order than their answers came back.
 */
const ORDER_SLACK = 10;
/** Below this many pending runs each run is polled on its own; from it on, one list read covers many. */
const LIST_MODE_MIN_PENDING = 3;
/** `GET /runs` page size (decisions.md: limit 1..100). */
export const PAGE = 100;
/** At most this many runs are polled one by one at a time: never a request storm. */
const OWN_POLLS_PER_TICK = 10;
/** A run missing from this many list windows in a row is polled on its own. */
const MISSES_BEFORE_OWN_POLL = 2;
/** First pause after a failed read during an outage; doubles up to the slowest poll pace. */
export const OUTAGE_FIRST_PAUSE_MS = 500;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

export interface Pending {
	run: Run;
	/** what its expected duration is looked up by */
	kind: string;
	/** submission order: the service lists runs newest first, so this orders the list window */
	index: number;
	/** when the service made it, in this process's clock */
	bornAt: number;
	/** when a read last showed it unfinished */
	checkedAt: number;
	/** when reads in this wait began to show it queued, while they do */
	queuedSince?: number;
	/** when a read last showed it queued */
	lastQueuedAt?: number;
	/** list reads whose window held this run but whose page did not show it (other traffic) */
	missed: number;
	/** no own poll before this (Retry-After, or an outage) */
	notBefore: number;
	/** pause before the next own poll while reads of this run fail in an outage (0: no outage) */
	outagePauseMs: number;
	/** its next read as last computed, and the version of the expectations it was computed with (-1: stale) */
	nextAt: number;
	nextVersion: number;
}

/** The reads due at one moment: list pages (by the index of the run each is anchored from) and own polls. */
export interface DueReads {
	pages: number[];
	own: Pending[];
}

export interface ScheduleOptions {
	/** the service whose runs these are: expected durations are kept per service */
	baseUrl: string;
	/** every outcome, once, as soon as it is known */
	record: (outcome: WaitOutcome) => void;
	/** the outcome of a run whose status the API document does not name */
	unknownStatus: (run: Run) => Error;
}

/**
 * The runs one wait is waiting for and when to read each:
 * - each run is read when its schedule says (src/waits/wait-pace.ts): around its expected finish,
 *   learnt from the runs seen finishing in this wait and in earlier waits of this process; with no
 *   expectation or past it, after a share of its age; and, once runs are seen finishing, the
 *   oldest unfinished ones again soon (runs sent together finish together, or one after another
 *   when the account runs a few at a time);
 * - with several runs pending, one `GET /runs` page shows up to 100 of them: the runs due to be read
 *   are covered by pages anchored (`starting_after`) on the oldest of them;
 * - runs a page keeps missing, and lone runs, are polled on their own; `Retry-After` is honoured;
 * - a run seen terminal is never read again.
 */
export class WaitSchedule {
	readonly pending = new Map<string, Pending>();
	private readonly byIndex: Run[] = [];
	private readonly settled = new Set<string>();
	private readonly durations: RunDurations;
	/** the smallest gap seen between a run's created_at and its arrival here */
	private offset: number | undefined;
	private listNotBefore: number;
	private listOutagePauseMs = 0;
	private lastFinishSeenAt = -Infinity;

	constructor(
		private readonly options: ScheduleOptions,
		startedAt: number,
	) {
		this.durations = new RunDurations(options.baseUrl);
		this.listNotBefore = startedAt;
	}

	/** Every outcome goes through here: known once, announced at once. */
	record(outcome: WaitOutcome): void {
		if (this.settled.has(outcome.run.id)) return;
		this.settled.add(outcome.run.id);
		this.pending.delete(outcome.run.id);
		if (outcome.state === 'completed' || outcome.state === 'failed')
			this.durations.finished(outcome.run);
		this.options.record(outcome);
	}

	/**
	 * Runs handed to the wait. A run's birth in this clock is its created_at moved by the smallest
	 * gap seen between a run's created_at and its arrival here (the run sent last, just before it
	 * arrived): the service's clock and this one are never compared directly.
	 */
	adopt(arrived: Run[], now: number): void {
		const createdAt = (run: Run) => Date.parse(String(run.created_at ?? ''));
		for (const run of arrived) {
			if (!isTerminal(run) && Number.isFinite(createdAt(run)))
				this.offset = Math.min(this.offset ?? Infinity, now - createdAt(run));
		}
		for (const run of arrived) {
			if (isTerminal(run)) this.record({ state: run.status as 'completed' | 'failed', run });
			else if (!this.pending.has(run.id) && !this.settled.has(run.id)) {
				const created = createdAt(run);
				const bornAt =
					Number.isFinite(created) && this.offset !== undefined ? created + this.offset : now;
				this.pending.set(run.id, {
					run,
					kind: this.durations.kindOf(run),
					index: this.byIndex.length,
					bornAt,
					checkedAt: bornAt,
					missed: 0,
					notBefore: 0,
					outagePauseMs: 0,
					nextAt: 0,
					nextVersion: -1,
				});
				this.byIndex.push(run);
			}
		}
	}

	/** Whether one list read covers the pending runs (else each is polled on its own). */
	get listMode(): boolean {
		return this.pending.size >= LIST_MODE_MIN_PENDING;
	}

	/** Its schedule changes only when it is read or an expectation changes: computed again only then (10,000 runs, many ticks). */
	private nextRead(p: Pending): number {
		if (p.nextVersion !== this.durations.version) {
			p.nextAt = nextReadAt(p, this.durations.expected(p.kind));
			p.nextVersion = this.durations.version;
		}
		return p.nextAt;
	}

	/** While runs are seen finishing (within twice the shortest duration), the gap between reads of the oldest unfinished one. */
	private flowing(now: number): number | undefined {
		const shortest = this.durations.shortestSeen();
		return shortest !== undefined && now - this.lastFinishSeenAt <= 2 * shortest
			? flowGap(shortest)
			: undefined;
	}

	private listed(p: Pending): boolean {
		return p.missed < MISSES_BEFORE_OWN_POLL;
	}

	private ownPollAt(p: Pending): number {
		return Math.max(this.nextRead(p), p.notBefore);
	}

	/**
	 * The reads due now, in submission order: the list pages (each anchored on the oldest run due
	 * that an earlier page does not cover; while runs are finishing, the oldest unfinished run is
	 * due every flow gap) and the own polls. No page is due before a Retry-After or an outage pause.
	 */
	dueNow(now: number): DueReads {
		const listMode = this.listMode;
		const pages: number[] = [];
		const own: Pending[] = [];
		const gap = listMode ? this.flowing(now) : undefined;
		let oldest = true;
		for (const p of this.pending.values()) {
			if (listMode && this.listed(p)) {
				const due =
					(oldest && gap !== undefined && now >= p.checkedAt + gap) || this.nextRead(p) <= now;
				if (due && (!pages.length || p.index >= pages[pages.length - 1] + PAGE - ORDER_SLACK))
					pages.push(p.index);
				oldest = false;
			} else if (own.length < OWN_POLLS_PER_TICK && now >= this.ownPollAt(p)) own.push(p);
		}
		return { pages: now >= this.listNotBefore ? pages : [], own };
	}

	/** When the next read is due, at the latest `deadline`. */
	wakeAt(now: number, deadline: number): number {
		let wakeAt = deadline;
		const listMode = this.listMode;
		const gap = listMode ? this.flowing(now) : undefined;
		let oldest = true;
		for (const p of this.pending.values()) {
			const listedNow = listMode && this.listed(p);
			let at = listedNow ? Math.max(this.nextRead(p), this.listNotBefore) : this.ownPollAt(p);
			if (listedNow && oldest && gap !== undefined)
				at = Math.min(at, Math.max(p.checkedAt + gap, this.listNotBefore));
			if (listedNow) oldest = false;
			wakeAt = Math.min(wakeAt, at);
		}
		return wakeAt;
	}

	/** The run a page showing the runs from `oldest` on is anchored after (`starting_after`); none for the newest page. */
	pageAnchor(oldest: number): Run | undefined {
		return this.byIndex[oldest + PAGE - ORDER_SLACK];
	}

	/**
	 * What a list page showed: each pending run on it as it is now; the pending runs of its window
	 * it did not show count a miss when `countMisses` (the newest page while runs are still being
	 * sent also shows runs the loop has not taken in yet, so it does not count).
	 */
	pageRead(
		oldest: number,
		shownRuns: Run[],
		now: number,
		countMisses: boolean,
		retryAfterMs?: number,
	): void {
		const shown = new Set<string>();
		for (const run of shownRuns) {
			const p = this.pending.get(run.id);
			if (!p) continue;
			shown.add(run.id);
			this.seen(p, run, now);
		}
		for (let i = oldest; i < oldest + PAGE - ORDER_SLACK && i < this.byIndex.length; i++) {
			const p = this.pending.get(this.byIndex[i].id);
			if (!p || shown.has(p.run.id)) continue;
			if (countMisses) p.missed++;
			p.checkedAt = now;
			p.nextVersion = -1;
		}
		if (retryAfterMs) this.listNotBefore = now + retryAfterMs;
	}

	/** Every page of a sweep was read. */
	listAnswered(): void {
		this.listOutagePauseMs = 0;
	}

	/** A list read failed in an outage: read the list again later, more slowly each time. */
	listOutage(now: number): void {
		this.listOutagePauseMs = clamp(this.listOutagePauseMs * 2, OUTAGE_FIRST_PAUSE_MS, MAX_GAP_MS);
		this.listNotBefore = now + this.listOutagePauseMs;
	}

	/** The list itself is refused: each run's own poll tells what is wrong with it. */
	listRefused(): void {
		for (const p of this.pending.values()) p.missed = MISSES_BEFORE_OWN_POLL;
	}

	/** What a run's own poll showed; no own poll of it before `retryAfterMs` has passed. */
	polled(p: Pending, run: Run, now: number, retryAfterMs = 0): void {
		p.outagePauseMs = 0;
		this.seen(p, run, now);
		p.notBefore = p.checkedAt + retryAfterMs;
	}

	/**
	 * A run's own poll failed in an outage that outlasted the transport's retries: the run goes on at
	 * the service, so it is read again (until the deadline), more slowly each time.
	 */
	pollOutage(p: Pending, now: number): void {
		p.outagePauseMs = clamp(p.outagePauseMs * 2, OUTAGE_FIRST_PAUSE_MS, MAX_GAP_MS);
		p.notBefore = now + p.outagePauseMs;
	}

	/** Ends the wait for every run still pending: the deadline passed, or the execution was cancelled. */
	endAll(state: 'timeout' | 'cancelled'): void {
		for (const p of [...this.pending.values()]) this.record({ state, run: p.run });
	}

	/** What a read showed of a run: finished, or its status now. */
	private seen(p: Pending, run: Run, now: number): void {
		p.missed = 0;
		p.checkedAt = now;
		p.nextVersion = -1;
		if (isTerminal(run) || !isKnownStatus(run)) {
			this.lastFinishSeenAt = now;
			if (!isKnownStatus(run))
				this.record({ state: 'error', run, error: this.options.unknownStatus(run) });
			else this.record({ state: run.status as 'completed' | 'failed', run });
			return;
		}
		p.run = run;
		if (run.status !== 'queued') p.queuedSince = undefined;
		else {
			p.queuedSince ??= now;
			p.lastQueuedAt = now;
		}
	}
}
