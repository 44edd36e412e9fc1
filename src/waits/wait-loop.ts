import type { IDataObject } from 'n8n-workflow';

import { sleep } from '../transport/sleep';
import { isOutage, problemError } from '../transport/problem';
import { apiRequest, unexpectedResponse, type ApiClient } from '../transport/request';
import { isRun, type Run } from '../runs/run';
import { MAX_GAP_MS } from './wait-pace';
import { PAGE, WaitSchedule, type Pending, type WaitOutcome } from './wait-schedule';

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
/** A poll in a wait loop is retried once by the transport; the loop itself paces the rest. */
export const POLL_RETRY_LIMITS = { maxTransientRetries: 1, maxRateLimitRetries: 1 };
/** The service's Retry-After as a pause, within what a wait loop accepts (0 or absent: undefined). */
function retryAfterMs(headers: Record<string, string>): number | undefined {
	const seconds = Number(headers['retry-after']);
	return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, MAX_GAP_MS) : undefined;
}

/**
 * Waits for many runs in one loop, close to the service's own latency and with few requests: the
 * schedule (wait-schedule.ts) says what to read when; this loop reads it (`GET /runs` pages and
 * `GET /runs/{id}`), tells the schedule what it showed, and sleeps until the next read is due. One
 * deadline for all; stops when n8n cancels the execution.
 */
export async function waitForRuns(
	client: ApiClient,
	runs: Run[] | RunFeed,
	options: WaitOptions,
): Promise<Map<string, WaitOutcome>> {
	const clock = options.clock ?? systemClock;
	const feed = runs instanceof RunFeed ? runs : undefined;
	const outcomes = new Map<string, WaitOutcome>();
	const schedule = new WaitSchedule(
		{
			baseUrl: client.baseUrl,
			record: (outcome) => {
				outcomes.set(outcome.run.id, outcome);
				options.onSettled?.(outcome);
			},
			unknownStatus: (run) =>
				problemError(
					client.ctx.getNode(),
					{
						code: 'unexpected_run_status',
						title: `Run ${run.id} has the status "${String(run.status)}", which the API document does not name`,
						detail:
							'Known statuses: queued, processing, completed, failed. The node stopped waiting for it; read it later with MediaGen Run → Get.',
						run_id: run.id,
					},
					undefined,
				),
		},
		clock.now(),
	);
	const deadline = () => feed?.deadline ?? options.deadline ?? Infinity;
	schedule.adopt(feed ? feed.take() : (runs as Run[]), clock.now());

	/** One page of `GET /runs` showing the runs from `oldest` on (in the order sent). */
	const readPage = async (oldest: number): Promise<void> => {
		const anchor = schedule.pageAnchor(oldest);
		const { body, headers } = await apiRequest<{ data?: unknown[] }>(client, {
			method: 'GET',
			path: '/runs',
			qs: { limit: PAGE, ...(anchor ? { starting_after: anchor.id } : {}) } as IDataObject,
			retryLimits: POLL_RETRY_LIMITS,
		});
		const shown = (Array.isArray(body.data) ? body.data : []).filter(isRun);
		// the newest page while runs are still being sent also shows runs this loop has not taken in yet
		schedule.pageRead(
			oldest,
			shown,
			clock.now(),
			anchor !== undefined || !feed?.open,
			retryAfterMs(headers),
		);
	};

	const sweep = async (pages: number[]): Promise<void> => {
		try {
			for (const oldest of pages) await readPage(oldest);
			schedule.listAnswered();
		} catch (error) {
			if (isOutage(error)) schedule.listOutage(clock.now());
			else schedule.listRefused();
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
			schedule.polled(p, body, clock.now(), retryAfterMs(headers));
		} catch (error) {
			// an outage outlasted the transport's retries: the run goes on at the service, keep waiting
			if (isOutage(error)) schedule.pollOutage(p, clock.now());
			else schedule.record({ state: 'error', run: p.run, error: error as Error });
		}
	};

	for (;;) {
		if (feed) {
			if (feed.abandoned) break;
			schedule.adopt(feed.take(), clock.now());
		}
		if (schedule.pending.size === 0 && !feed?.more) break;
		const { pages, own } = schedule.dueNow(clock.now());
		if (pages.length) await sweep(pages);
		// own polls: lone runs, and runs the list pages keep missing (other traffic on the account)
		await Promise.all(own.filter((p) => schedule.pending.has(p.run.id)).map(pollOne));
		if (schedule.pending.size === 0 && !feed?.more) break;

		let wakeAt = schedule.wakeAt(clock.now(), deadline());
		if (feed?.more) wakeAt = Math.min(wakeAt, clock.now() + (feed.open ? FEED_PAUSE_MS : 0));
		if (!(await clock.sleep(Math.max(0, wakeAt - clock.now()), client.signal))) {
			schedule.endAll('cancelled');
			break;
		}
		if (clock.now() >= deadline()) {
			schedule.endAll('timeout');
			break;
		}
	}
	return outcomes;
}
