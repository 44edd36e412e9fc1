import type { IDataObject } from 'n8n-workflow';

import { sleep } from '../transport/sleep';
import { isOutage, problemError } from '../transport/problem';
import { apiRequest, unexpectedResponse, type ApiClient } from '../transport/request';
import { isKnownStatus, isRun, isTerminal, type Run } from '../runs/run';
import { flowGap, MAX_GAP_MS, nextReadAt, RunDurations } from './wait-pace';

export type WaitOutcome =
	| { state: 'completed' | 'failed'; run: Run }
	| { state: 'timeout' | 'cancelled'; run: Run }
	/** polling itself failed (after the transport's retries) */
	| { state: 'error'; run: Run; error: Error };

/** The time a wait goes by: the system's, or a simulated one (tests). */
export interface WaitClock {
	now(): number;
	/** resolves true once `ms` passed, false when the execution was cancelled first */
	sleep(ms: number, signal?: AbortSignal): Promise<boolean>;
}

const systemClock: WaitClock = { now: () => Date.now(), sleep };

export interface WaitOptions {
	/** absolute time (ms since epoch) after which waiting stops for every run (a feed's: set when it closes) */
	deadline?: number;
	/**
	 * Called once for each run, as soon as its outcome is known (while the loop waits for the
	 * others): the node starts downloading its files then, instead of after the last run.
	 */
	onSettled?: (outcome: WaitOutcome) => void;
	clock?: WaitClock;
}

/**
 * Runs handed to a wait that began while the rest are still being sent: the loop takes them in at
 * its next tick. `close` says nothing more will come; `abandon` ends the wait without an outcome
 * (the node failed while sending).
 */
export class RunFeed {
	private arrived: Run[] = [];
	private state: 'open' | 'closed' | 'abandoned' = 'open';
	/** none while runs are still being sent (each send has its own timeouts) */
	deadline = Infinity;

	add(run: Run): void {
		if (this.state === 'open') this.arrived.push(run);
	}

	/** Nothing more will come; waiting stops at `deadline` (ms since epoch). */
	close(deadline: number): void {
		if (this.state !== 'open') return;
		this.state = 'closed';
		this.deadline = deadline;
	}

	abandon(): void {
		this.state = 'abandoned';
	}

	get open(): boolean {
		return this.state === 'open';
	}

	get abandoned(): boolean {
		return this.state === 'abandoned';
	}

	/** whether runs may still come: it is open, or runs arrived that were not taken yet */
	get more(): boolean {
		return this.state === 'open' || (this.state === 'closed' && this.arrived.length > 0);
	}

	take(): Run[] {
		const taken = this.arrived;
		this.arrived = [];
		return taken;
	}
}

/** While runs may still arrive, the loop pauses at most this long before taking them in. */
const FEED_PAUSE_MS = 250;
/**
 * A page anchored on our own runs is counted as covering this many fewer of them than it shows: the
 * service may have made runs sent at the same time in another order than their answers came back.
 */
const ORDER_SLACK = 10;

/** Below this many pending runs each run is polled on its own; from it on, one list read covers many. */
const LIST_MODE_MIN_PENDING = 3;
/** `GET /runs` page size (decisions.md: limit 1..100). */
const PAGE = 100;

interface Pending {
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

/** A poll in a wait loop is retried once by the transport; the loop itself paces the rest. */
export const POLL_RETRY_LIMITS = { maxTransientRetries: 1, maxRateLimitRetries: 1 };
/** First pause after a failed read during an outage; doubles up to the slowest poll pace. */
export const OUTAGE_FIRST_PAUSE_MS = 500;

/** At most this many runs are polled one by one at a time: never a request storm. */
const OWN_POLLS_PER_TICK = 10;
/** A run missing from this many list windows in a row is polled on its own. */
const MISSES_BEFORE_OWN_POLL = 2;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** The service's Retry-After as a pause, within what a wait loop accepts (0 or absent: undefined). */
function retryAfterMs(headers: Record<string, string>): number | undefined {
	const seconds = Number(headers['retry-after']);
	return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, MAX_GAP_MS) : undefined;
}

/**
 * Waits for many runs in one loop, close to the service's own latency and with few requests:
 * - each run is read when its schedule says (src/waits/wait-pace.ts): around its expected finish,
 *   learnt from the runs seen finishing in this wait and in earlier waits of this process; with no
 *   expectation or past it, after an eighth of its age; and, once runs are seen finishing, the
 *   oldest unfinished ones again soon (runs sent together finish together, or one after another
 *   when the account runs a few at a time);
 * - with several runs pending, one `GET /runs` page shows up to 100 of them: the runs due to be read
 *   are covered by pages anchored (`starting_after`) on the oldest of them;
 * - runs a page keeps missing, and lone runs, are polled on their own; `Retry-After` is honoured;
 * - a run seen terminal is never polled again; one deadline for all; stops when n8n cancels.
 */
export async function waitForRuns(
	client: ApiClient,
	runs: Run[] | RunFeed,
	options: WaitOptions,
): Promise<Map<string, WaitOutcome>> {
	const clock = options.clock ?? systemClock;
	const feed = runs instanceof RunFeed ? runs : undefined;
	const outcomes = new Map<string, WaitOutcome>();
	const durations = new RunDurations(client.baseUrl);
	/** Every outcome goes through here: known once, announced at once. */
	const record = (outcome: WaitOutcome) => {
		if (outcomes.has(outcome.run.id)) return;
		outcomes.set(outcome.run.id, outcome);
		if (outcome.state === 'completed' || outcome.state === 'failed')
			durations.finished(outcome.run);
		options.onSettled?.(outcome);
	};
	const deadline = () => feed?.deadline ?? options.deadline ?? Infinity;
	const started = clock.now();
	const pending = new Map<string, Pending>();
	const byIndex: Run[] = [];
	// A run's birth in this clock: its created_at moved by the smallest gap seen between a run's
	// created_at and its arrival here (the run sent last, just before it arrived): the service's
	// clock and this one are never compared directly.
	const createdAt = (run: Run) => Date.parse(String(run.created_at ?? ''));
	let offset: number | undefined;
	const adopt = (arrived: Run[]) => {
		const now = clock.now();
		for (const run of arrived)
			if (!isTerminal(run) && Number.isFinite(createdAt(run)))
				offset = Math.min(offset ?? Infinity, now - createdAt(run));
		for (const run of arrived) {
			if (isTerminal(run)) record({ state: run.status as 'completed' | 'failed', run });
			else if (!pending.has(run.id) && !outcomes.has(run.id)) {
				const created = createdAt(run);
				const bornAt = Number.isFinite(created) && offset !== undefined ? created + offset : now;
				pending.set(run.id, {
					run,
					kind: durations.kindOf(run),
					index: byIndex.length,
					bornAt,
					checkedAt: bornAt,
					missed: 0,
					notBefore: 0,
					outagePauseMs: 0,
					nextAt: 0,
					nextVersion: -1,
				});
				byIndex.push(run);
			}
		}
	};
	adopt(feed ? feed.take() : (runs as Run[]));
	let listNotBefore = started;
	let listOutagePauseMs = 0;
	let lastFinishSeenAt = -Infinity;

	/** Its schedule changes only when it is read or an expectation changes: computed again only then (10,000 runs, many ticks). */
	const nextRead = (p: Pending) => {
		if (p.nextVersion !== durations.version) {
			p.nextAt = nextReadAt(p, durations.expected(p.kind));
			p.nextVersion = durations.version;
		}
		return p.nextAt;
	};
	/** While runs are seen finishing (within twice the shortest duration), the gap between reads of the oldest unfinished one. */
	const flowing = (): number | undefined => {
		const shortest = durations.shortestSeen();
		return shortest !== undefined && clock.now() - lastFinishSeenAt <= 2 * shortest
			? flowGap(shortest)
			: undefined;
	};
	const listed = (p: Pending) => p.missed < MISSES_BEFORE_OWN_POLL;
	const ownPollAt = (p: Pending) => Math.max(nextRead(p), p.notBefore);

	const settle = (p: Pending, run: Run) => {
		pending.delete(p.run.id);
		if (!isKnownStatus(run)) {
			const error = problemError(
				client.ctx.getNode(),
				{
					code: 'unexpected_run_status',
					title: `Run ${run.id} has the status "${String(run.status)}", which the API document does not name`,
					detail:
						'Known statuses: queued, processing, completed, failed. The node stopped waiting for it; read it later with MediaGen Run → Get.',
					run_id: run.id,
				},
				undefined,
			);
			record({ state: 'error', run, error });
			return;
		}
		record({ state: run.status as 'completed' | 'failed', run });
	};

	/** What a read showed of a run: finished, or its status now. */
	const seen = (p: Pending, run: Run, now: number) => {
		p.missed = 0;
		p.checkedAt = now;
		p.nextVersion = -1;
		if (isTerminal(run) || !isKnownStatus(run)) {
			settle(p, run);
			lastFinishSeenAt = now;
			return;
		}
		p.run = run;
		if (run.status !== 'queued') p.queuedSince = undefined;
		else {
			p.queuedSince ??= now;
			p.lastQueuedAt = now;
		}
	};

	/** One page of `GET /runs` showing the runs from `oldest` on (in the order sent). */
	const readPage = async (oldest: number): Promise<void> => {
		const anchor = byIndex[oldest + PAGE - ORDER_SLACK];
		const shown = new Set<string>();
		const { body, headers } = await apiRequest<{ data?: unknown[] }>(client, {
			method: 'GET',
			path: '/runs',
			qs: { limit: PAGE, ...(anchor ? { starting_after: anchor.id } : {}) } as IDataObject,
			retryLimits: POLL_RETRY_LIMITS,
		});
		const now = clock.now();
		for (const item of Array.isArray(body.data) ? body.data : []) {
			if (!isRun(item)) continue;
			const p = pending.get(item.id);
			if (!p) continue;
			shown.add(item.id);
			seen(p, item, now);
		}
		// the newest page while runs are still being sent also shows runs this loop has not taken in yet
		const counts = anchor !== undefined || !feed?.open;
		for (let i = oldest; i < oldest + PAGE - ORDER_SLACK && i < byIndex.length; i++) {
			const p = pending.get(byIndex[i].id);
			if (!p || shown.has(p.run.id)) continue;
			if (counts) p.missed++;
			p.checkedAt = now;
			p.nextVersion = -1;
		}
		const pause = retryAfterMs(headers);
		if (pause) listNotBefore = now + pause;
	};

	/**
	 * One pass over the pending runs (in submission order): the list pages due now (each anchored on
	 * the oldest run due that an earlier page does not cover; while runs are finishing, the oldest
	 * unfinished run is due every flow gap) and the own polls due.
	 */
	const dueNow = (now: number, listMode: boolean): { pages: number[]; own: Pending[] } => {
		const pages: number[] = [];
		const own: Pending[] = [];
		const gap = listMode ? flowing() : undefined;
		let oldest = true;
		for (const p of pending.values()) {
			if (listMode && listed(p)) {
				const due = (oldest && gap !== undefined && now >= p.checkedAt + gap) || nextRead(p) <= now;
				if (due && (!pages.length || p.index >= pages[pages.length - 1] + PAGE - ORDER_SLACK))
					pages.push(p.index);
				oldest = false;
			} else if (own.length < OWN_POLLS_PER_TICK && now >= ownPollAt(p)) own.push(p);
		}
		return { pages, own };
	};

	const sweep = async (pages: number[]): Promise<void> => {
		try {
			for (const oldest of pages) await readPage(oldest);
			listOutagePauseMs = 0;
		} catch (error) {
			if (isOutage(error)) {
				// an outage: read the list again later, more slowly each time
				listOutagePauseMs = clamp(listOutagePauseMs * 2, OUTAGE_FIRST_PAUSE_MS, MAX_GAP_MS);
				listNotBefore = clock.now() + listOutagePauseMs;
			} else {
				// the list itself is refused: each run's own poll tells what is wrong with it
				for (const p of pending.values()) p.missed = MISSES_BEFORE_OWN_POLL;
			}
		}
	};

	const pollOne = async (p: Pending): Promise<void> => {
		try {
			const { body, headers } = await apiRequest<Run>(client, {
				method: 'GET',
				path: `/runs/${encodeURIComponent(p.run.id)}`,
				retryLimits: POLL_RETRY_LIMITS,
			});
			// an answer that is not a run (a proxy's page, a broken service) will not turn into one: fail now
			if (!isRun(body))
				throw unexpectedResponse(client, `GET /runs/${p.run.id} did not return a run`, body);
			const run = body;
			p.outagePauseMs = 0;
			seen(p, run, clock.now());
			p.notBefore = p.checkedAt + (retryAfterMs(headers) ?? 0);
		} catch (error) {
			if (isOutage(error)) {
				// An outage outlasted the transport's retries: the run goes on at the service, so keep
				// waiting (until the deadline), more slowly each time, rather than fail an item that will be charged.
				p.outagePauseMs = clamp(p.outagePauseMs * 2, OUTAGE_FIRST_PAUSE_MS, MAX_GAP_MS);
				p.notBefore = clock.now() + p.outagePauseMs;
				return;
			}
			pending.delete(p.run.id);
			record({ state: 'error', run: p.run, error: error as Error });
		}
	};

	for (;;) {
		if (feed) {
			if (feed.abandoned) break;
			adopt(feed.take());
		}
		if (pending.size === 0 && !feed?.more) break;
		const listMode = pending.size >= LIST_MODE_MIN_PENDING;
		const { pages, own } = dueNow(clock.now(), listMode);
		if (pages.length && clock.now() >= listNotBefore) await sweep(pages);
		// own polls: lone runs, and runs the list pages keep missing (other traffic on the account)
		await Promise.all(own.filter((p) => pending.has(p.run.id)).map(pollOne));
		if (pending.size === 0 && !feed?.more) break;

		let wakeAt = deadline();
		const stillListing = pending.size >= LIST_MODE_MIN_PENDING;
		const gap = stillListing ? flowing() : undefined;
		let oldest = true;
		for (const p of pending.values()) {
			const listedNow = stillListing && listed(p);
			let at = listedNow ? Math.max(nextRead(p), listNotBefore) : ownPollAt(p);
			if (listedNow && oldest && gap !== undefined)
				at = Math.min(at, Math.max(p.checkedAt + gap, listNotBefore));
			if (listedNow) oldest = false;
			wakeAt = Math.min(wakeAt, at);
		}
		if (feed?.more) wakeAt = Math.min(wakeAt, clock.now() + (feed.open ? FEED_PAUSE_MS : 0));
		if (!(await clock.sleep(Math.max(0, wakeAt - clock.now()), client.signal))) {
			for (const p of pending.values()) record({ state: 'cancelled', run: p.run });
			break;
		}
		if (clock.now() >= deadline()) {
			for (const p of pending.values()) record({ state: 'timeout', run: p.run });
			break;
		}
	}
	return outcomes;
}
