import type { IExecuteFunctions, IHttpRequestOptions, INode } from 'n8n-workflow';

import type { Run } from '../../src/runs/run';
import type { WaitClock } from '../../src/waits/wait-loop';
import type { ApiClient } from '../../src/transport/request';
import { DEFAULT_RETRY_LIMITS } from '../../src/transport/retry-policy';
import { SecretValues } from '../../src/transport/redact';

/**
 * A run service in simulated time, for the wait loop's pacing: no timer, no socket. The clock moves
 * only when the loop sleeps (and by `requestMs` per request), so a test asserts request counts and
 * how long after each finish the loop saw it, in simulated milliseconds, whatever the machine's load.
 */

export const SIM_EPOCH = Date.parse('2031-03-01T09:00:00.000Z');

export class SimClock implements WaitClock {
	private t = SIM_EPOCH;
	private standing = 0;
	private sleeps = 0;
	private readonly timers: Array<{ at: number; run: () => void }> = [];

	now(): number {
		return this.t;
	}

	/** Runs `run` once simulated time reaches `at` (what else happens meanwhile, e.g. more sends). */
	at(at: number, run: () => void): void {
		this.timers.push({ at, run });
		this.timers.sort((a, b) => a.at - b.at);
	}

	advance(ms: number): void {
		this.t += ms;
		while (this.timers.length && this.timers[0].at <= this.t) this.timers.shift()!.run();
	}

	async sleep(ms: number): Promise<boolean> {
		// a loop that keeps pausing while nothing can change would spin forever (on microtasks only,
		// so not even jest's timeout would end it)
		this.standing = ms > 0 ? 0 : this.standing + 1;
		if (this.standing > 10_000 || ++this.sleeps > 1_000_000)
			throw new Error('the wait loop spins without an end');
		this.advance(ms);
		await Promise.resolve();
		return true;
	}
}

interface SimRun {
	id: string;
	bornAt: number;
	/** when the service starts working on it (later than its birth when the account's cap is reached) */
	startAt: number;
	finishAt: number;
	model: string;
}

export interface SentRead {
	at: number;
	/** `GET /runs` (a list page) or `GET /runs/{id}` */
	kind: 'list' | 'run';
	startingAfter?: string;
}

export interface SubmitPlan {
	count: number;
	/** how long the run takes once the service works on it (ms), by submission order */
	durationMs: number | ((i: number) => number);
	/** the submits are spread evenly over this time (ms) */
	spreadMs?: number;
	/** the account works on at most this many runs at once; the rest queue (first in, first out) */
	cap?: number;
	model?: string;
	/** from the last submit's answer to the start of the wait (ms) */
	waitStartsAfterMs?: number;
}

const node: INode = {
	id: 'sim',
	name: 'MediaGen Image',
	type: 'CUSTOM.mediaGenImage',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

export class SimRunService {
	readonly clock = new SimClock();
	/** oldest first, as made */
	private readonly runs: SimRun[] = [];
	readonly reads: SentRead[] = [];
	private made = 0;
	private readonly first = 1;
	/** each request takes this long (simulated) */
	requestMs = 5;
	/** called as each request arrives, before it is answered (what else happens meanwhile) */
	onRequest?: (kind: 'list' | 'run') => void;

	/** Makes runs as n8n would submit them; returns them as the submits answered (queued). */
	submit(plan: SubmitPlan): Run[] {
		const start = this.clock.now();
		const spread = plan.spreadMs ?? 0;
		const made: Run[] = [];
		for (let i = 0; i < plan.count; i++) {
			const bornAt = start + (plan.count > 1 ? Math.round((spread * i) / (plan.count - 1)) : 0);
			const took = typeof plan.durationMs === 'function' ? plan.durationMs(i) : plan.durationMs;
			const freeAt =
				plan.cap && i >= plan.cap ? this.runs[this.runs.length - plan.cap].finishAt : bornAt;
			const startAt = Math.max(bornAt, freeAt);
			const run: SimRun = {
				id: `run_${++this.made}`,
				bornAt,
				startAt,
				finishAt: startAt + took,
				model: plan.model ?? 'image.aurora-1',
			};
			this.runs.push(run);
			// the submit answers with the run queued, as the service does
			made.push({ ...this.view(run, bornAt), status: 'queued' });
		}
		this.clock.advance(spread + (plan.waitStartsAfterMs ?? 20));
		return made;
	}

	/** Where a run is in the order made (its ids count up from 1). */
	private position(id: string): number {
		const position = Number(id.replace('run_', '')) - this.first;
		if (!this.runs[position] || this.runs[position].id !== id) throw new Error(`no run ${id}`);
		return position;
	}

	finishTimes(): Map<string, number> {
		return new Map(this.runs.map((r) => [r.id, r.finishAt]));
	}

	private view(run: SimRun, at: number): Run {
		const done = at >= run.finishAt;
		return {
			id: run.id,
			object: 'run',
			status: done ? 'completed' : at >= run.startAt ? 'processing' : 'queued',
			endpoint: 'POST /images/generations',
			model: run.model,
			output: done ? { images: [{ url: `https://files.test/${run.id}.png` }] } : null,
			created_at: new Date(run.bornAt).toISOString(),
			completed_at: done ? new Date(run.finishAt).toISOString() : null,
		};
	}

	private answer(options: IHttpRequestOptions): unknown {
		const path = new URL(options.url).pathname.replace(/^\/v1/, '');
		this.clock.advance(this.requestMs);
		const now = this.clock.now();
		this.onRequest?.(path === '/runs' ? 'list' : 'run');
		if (path === '/runs') {
			const qs = (options.qs ?? {}) as { limit?: number; starting_after?: string };
			this.reads.push({ at: now, kind: 'list', startingAfter: qs.starting_after });
			// newest first: the page after run k (0-based, oldest first) holds runs k-1, k-2, …
			const end = qs.starting_after ? this.position(qs.starting_after) : this.runs.length;
			const limit = Number(qs.limit ?? 20);
			const data = this.runs.slice(Math.max(0, end - limit), end).reverse();
			return {
				object: 'list',
				data: data.map((r) => this.view(r, now)),
				has_more: end - limit > 0,
			};
		}
		const id = decodeURIComponent(path.replace('/runs/', ''));
		this.reads.push({ at: now, kind: 'run' });
		return this.view(this.runs[this.position(id)], now);
	}

	client(): ApiClient {
		const ctx = {
			getNode: () => node,
			helpers: {
				httpRequest: async (options: IHttpRequestOptions) => ({
					statusCode: 200,
					headers: {},
					body: this.answer(options),
				}),
			},
		} as unknown as IExecuteFunctions;
		return {
			ctx,
			credentialType: 'mediaGenApi',
			baseUrl: 'https://api.sim.test/v1',
			retryLimits: DEFAULT_RETRY_LIMITS,
			requestTimeoutMs: 30_000,
			authorization: 'Bearer sim',
			secrets: new SecretValues(),
		};
	}
}
