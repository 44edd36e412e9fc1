import { apiRequest, type ApiClient } from '../transport/request';
import { pause } from '../transport/pause';
import { isRun, isTerminal, type Run } from './run';

export type WaitOutcome =
	| { state: 'completed' | 'failed'; run: Run }
	| { state: 'timeout' | 'cancelled'; run: Run }
	/** polling itself failed (after the transport's retries) */
	| { state: 'error'; run: Run; error: Error };

export interface WaitOptions {
	/** absolute time (ms since epoch) after which waiting stops for every run */
	deadline: number;
	/** first poll after submit (ms) */
	firstPollMs?: number;
	/** growth of the interval per poll of one run */
	backoff?: number;
	maxIntervalMs?: number;
	onProgress?: (done: number, total: number) => void;
}

interface Pending {
	run: Run;
	nextPollAt: number;
	intervalMs: number;
}

/**
 * Waits for many runs in one loop: each run has its own back-off with jitter, a run seen terminal
 * is never polled again, the loop ends at one overall deadline or when n8n cancels the execution.
 */
export async function waitForRuns(client: ApiClient, runs: Run[], options: WaitOptions): Promise<Map<string, WaitOutcome>> {
	const firstPoll = options.firstPollMs ?? 1000;
	const backoff = options.backoff ?? 1.6;
	const maxInterval = options.maxIntervalMs ?? 10_000;
	const outcomes = new Map<string, WaitOutcome>();
	const pending = new Map<string, Pending>();
	const now = Date.now();
	for (const run of runs) {
		if (isTerminal(run)) outcomes.set(run.id, { state: run.status as 'completed' | 'failed', run });
		else if (!pending.has(run.id)) pending.set(run.id, { run, nextPollAt: now + firstPoll, intervalMs: firstPoll });
	}
	const total = pending.size + outcomes.size;

	while (pending.size > 0) {
		const nextAt = Math.min(...[...pending.values()].map((p) => p.nextPollAt));
		const wakeAt = Math.min(nextAt, options.deadline);
		const waited = await pause(Math.max(0, wakeAt - Date.now()), client.signal);
		if (!waited) {
			for (const p of pending.values()) outcomes.set(p.run.id, { state: 'cancelled', run: p.run });
			break;
		}
		if (Date.now() >= options.deadline) {
			for (const p of pending.values()) outcomes.set(p.run.id, { state: 'timeout', run: p.run });
			break;
		}
		const due = [...pending.values()].filter((p) => p.nextPollAt <= Date.now());
		await Promise.all(
			due.map(async (p) => {
				let body: unknown;
				let headers: Record<string, string>;
				try {
					({ body, headers } = await apiRequest<Run>(client, { method: 'GET', path: `/runs/${encodeURIComponent(p.run.id)}` }));
				} catch (error) {
					pending.delete(p.run.id);
					outcomes.set(p.run.id, { state: 'error', run: p.run, error: error as Error });
					return;
				}
				const run = isRun(body) ? body : p.run;
				if (isTerminal(run)) {
					pending.delete(p.run.id);
					outcomes.set(run.id, { state: run.status as 'completed' | 'failed', run });
					return;
				}
				const retryAfter = Number(headers['retry-after']);
				p.run = run;
				p.intervalMs = Math.min(maxInterval, p.intervalMs * backoff);
				const interval = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : p.intervalMs;
				p.nextPollAt = Date.now() + Math.round(interval * (0.9 + 0.2 * Math.random()));
			}),
		);
		options.onProgress?.(outcomes.size, total);
	}
	return outcomes;
}
