import type { IDataObject } from 'n8n-workflow';

import { pause } from '../transport/pause';
import { isOutage, problemError } from '../transport/problem';
import { apiRequest, unexpectedResponse, type ApiClient } from '../transport/request';
import { isKnownStatus, isRun, isTerminal, type Run } from './run';

export type WaitOutcome =
	| { state: 'completed' | 'failed'; run: Run }
	| { state: 'timeout' | 'cancelled'; run: Run }
	/** polling itself failed (after the transport's retries) */
	| { state: 'error'; run: Run; error: Error };

export interface WaitOptions {
	/** absolute time (ms since epoch) after which waiting stops for every run */
	deadline: number;
	onProgress?: (done: number, total: number) => void;
	/**
	 * Called once for each run, as soon as its outcome is known (while the loop waits for the
	 * others): the node starts downloading its files then, instead of after the last run.
	 */
	onSettled?: (outcome: WaitOutcome) => void;
}

/** Below this many pending runs each run is polled on its own; from it on, one list read covers many. */
const LIST_MODE_MIN_PENDING = 3;
/** `GET /runs` page size (decisions.md: limit 1..100). */
const PAGE = 100;
const MIN_INTERVAL_MS = 250;
const MAX_INTERVAL_MS = 2_000;
const SINGLE_FIRST_POLL_MS = 1_000;
const SINGLE_MAX_INTERVAL_MS = 10_000;
const SINGLE_BACKOFF = 1.6;

interface Pending {
	run: Run;
	/** submission order: the service lists runs newest first, so this orders the list window */
	index: number;
	/** last time a list read or an own poll showed this run */
	seenAt: number;
	intervalMs: number;
	/** list reads whose window held this run but whose page did not show it (other traffic) */
	missed: number;
	/** pause before the next own poll while reads of this run fail in an outage (0: no outage) */
	outagePauseMs: number;
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
const jitter = (ms: number) => Math.round(ms * (0.9 + 0.2 * Math.random()));

/** The service's Retry-After as a pause, within what a wait loop accepts (0 or absent: undefined). */
function retryAfterMs(headers: Record<string, string>): number | undefined {
	const seconds = Number(headers['retry-after']);
	return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, SINGLE_MAX_INTERVAL_MS) : undefined;
}


const minOf = (values: Iterable<number>) => {
	let least = Infinity;
	for (const v of values) if (v < least) least = v;
	return least;
};

/**
 * Waits for many runs in one loop, close to the service's own latency and with few requests:
 * - with several runs pending, one `GET /runs` page per tick shows up to 100 of them; the page is
 *   anchored (`starting_after`) so it covers the oldest pending runs, which finish first;
 * - the tick follows the observed run duration (an eighth of the fastest run, 250 ms to 2 s; before
 *   any run finished, a sixteenth of the time waited, 250 ms to 1 s);
 * - runs inside that window that a page did not show, and lone runs, are polled on their own with
 *   back-off and jitter; `Retry-After` is honoured;
 * - a run seen terminal is never polled again; one deadline for all; stops when n8n cancels.
 */
export async function waitForRuns(client: ApiClient, runs: Run[], options: WaitOptions): Promise<Map<string, WaitOutcome>> {
	const outcomes = new Map<string, WaitOutcome>();
	/** Every outcome goes through here: known once, announced at once. */
	const record = (outcome: WaitOutcome) => {
		if (outcomes.has(outcome.run.id)) return;
		outcomes.set(outcome.run.id, outcome);
		options.onSettled?.(outcome);
	};
	const pending = new Map<string, Pending>();
	const byIndex: Run[] = [];
	const started = Date.now();
	for (const run of runs) {
		if (isTerminal(run)) record({ state: run.status as 'completed' | 'failed', run });
		else if (!pending.has(run.id)) {
			pending.set(run.id, { run, index: byIndex.length, seenAt: started, intervalMs: SINGLE_FIRST_POLL_MS, missed: 0, outagePauseMs: 0 });
			byIndex.push(run);
		}
	}
	const total = pending.size + outcomes.size;
	let fastestRunMs: number | undefined;
	let nextSweepAt = started + MIN_INTERVAL_MS;
	let sweepOutagePauseMs = 0;

	const settle = (p: Pending, run: Run) => {
		pending.delete(p.run.id);
		if (!isKnownStatus(run)) {
			const error = problemError(client.ctx.getNode(), {
				code: 'unexpected_run_status',
				title: `Run ${run.id} has the status "${String(run.status)}", which the API document does not name`,
				detail: 'Known statuses: queued, processing, completed, failed. The node stopped waiting for it; read it later with MediaGen Run → Get.',
				run_id: run.id,
			}, undefined);
			record({ state: 'error', run, error });
			return;
		}
		record({ state: run.status as 'completed' | 'failed', run });
		const took = Date.parse(String(run.completed_at ?? '')) - Date.parse(String(run.created_at ?? ''));
		if (Number.isFinite(took) && took > 0) fastestRunMs = Math.min(fastestRunMs ?? took, took);
	};
	// Once a run has finished, its duration paces the reads; before that, the time waited so far.
	const sweepInterval = () =>
		fastestRunMs === undefined
			? clamp((Date.now() - started) / 16, MIN_INTERVAL_MS, 1_000)
			: clamp(fastestRunMs / 8, MIN_INTERVAL_MS, MAX_INTERVAL_MS);

	/** One page of `GET /runs` covering the oldest pending runs. */
	const sweep = async (): Promise<void> => {
		const oldest = minOf([...pending.values()].map((p) => p.index));
		const anchor = byIndex[oldest + PAGE];
		const shown = new Set<string>();
		const { body, headers } = await apiRequest<{ data?: unknown[] }>(client, {
			method: 'GET',
			path: '/runs',
			qs: { limit: PAGE, ...(anchor ? { starting_after: anchor.id } : {}) } as IDataObject,
			retryLimits: POLL_RETRY_LIMITS,
		});
		sweepOutagePauseMs = 0;
		const now = Date.now();
		for (const item of Array.isArray(body.data) ? body.data : []) {
			if (!isRun(item)) continue;
			const p = pending.get(item.id);
			if (!p) continue;
			shown.add(item.id);
			p.seenAt = now;
			p.missed = 0;
			if (isTerminal(item) || !isKnownStatus(item)) settle(p, item);
			else p.run = item;
		}
		for (const p of pending.values()) if (p.index < oldest + PAGE && !shown.has(p.run.id)) p.missed++;
		nextSweepAt = now + (retryAfterMs(headers) ?? jitter(sweepInterval()));
	};

	const pollOne = async (p: Pending): Promise<void> => {
		try {
			const { body, headers } = await apiRequest<Run>(client, { method: 'GET', path: `/runs/${encodeURIComponent(p.run.id)}`, retryLimits: POLL_RETRY_LIMITS });
			// an answer that is not a run (a proxy's page, a broken service) will not turn into one: fail now
			if (!isRun(body)) throw unexpectedResponse(client, `GET /runs/${p.run.id} did not return a run`, body);
			const run = body;
			if (isTerminal(run) || !isKnownStatus(run)) return settle(p, run);
			p.outagePauseMs = 0;
			p.run = run;
			p.seenAt = Date.now();
			p.intervalMs = retryAfterMs(headers) ?? Math.min(SINGLE_MAX_INTERVAL_MS, p.intervalMs * SINGLE_BACKOFF);
		} catch (error) {
			if (isOutage(error)) {
				// An outage outlasted the transport's retries: the run goes on at the service, so keep
				// waiting (until the deadline) at the slowest pace rather than fail an item that will be charged.
				p.seenAt = Date.now();
				p.intervalMs = clamp(p.outagePauseMs, OUTAGE_FIRST_PAUSE_MS, SINGLE_MAX_INTERVAL_MS);
				p.outagePauseMs = clamp(p.outagePauseMs * 2, OUTAGE_FIRST_PAUSE_MS, SINGLE_MAX_INTERVAL_MS);
				return;
			}
			pending.delete(p.run.id);
			record({ state: 'error', run: p.run, error: error as Error });
		}
	};

	while (pending.size > 0) {
		const listMode = pending.size >= LIST_MODE_MIN_PENDING;
		if (listMode && Date.now() >= nextSweepAt) {
			try {
				await sweep();
			} catch (error) {
				if (isOutage(error)) {
					// an outage: read the list again later, more slowly each time
					sweepOutagePauseMs = clamp(sweepOutagePauseMs * 2, OUTAGE_FIRST_PAUSE_MS, SINGLE_MAX_INTERVAL_MS);
					nextSweepAt = Date.now() + sweepOutagePauseMs;
				} else {
					// the list itself is refused: each run's own poll tells what is wrong with it
					for (const p of pending.values()) p.missed = MISSES_BEFORE_OWN_POLL;
					nextSweepAt = Date.now() + MAX_INTERVAL_MS;
				}
			}
		}
		// Own polls: lone runs, and runs the list windows keep missing (other traffic on the account).
		const now = Date.now();
		const due = [...pending.values()]
			.filter((p) => (!listMode || p.missed >= MISSES_BEFORE_OWN_POLL) && now >= p.seenAt + p.intervalMs)
			.slice(0, OWN_POLLS_PER_TICK);
		await Promise.all(due.map(pollOne));
		options.onProgress?.(outcomes.size, total);
		if (pending.size === 0) break;

		const nextOwn = minOf([...pending.values()].map((p) => p.seenAt + p.intervalMs));
		const wakeAt = Math.min(pending.size >= LIST_MODE_MIN_PENDING ? nextSweepAt : nextOwn, options.deadline);
		if (!(await pause(Math.max(0, wakeAt - Date.now()), client.signal))) {
			for (const p of pending.values()) record({ state: 'cancelled', run: p.run });
			break;
		}
		if (Date.now() >= options.deadline) {
			for (const p of pending.values()) record({ state: 'timeout', run: p.run });
			break;
		}
	}
	return outcomes;
}
