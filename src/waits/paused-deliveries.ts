import type { IDataObject } from 'n8n-workflow';

import type { Run } from '../runs/run';
import { sleep } from '../transport/sleep';

/** When a run or batch finished, for ordering: the service's completed_at, else its last update. */
export const finishedAt = (subject: IDataObject) =>
	Date.parse(String(subject.completed_at ?? subject.updated_at ?? '')) || 0;

/** Whether `a` finished after `b` (ties: the greater id), so that exactly one of a burst is the last. */
export const finishedAfter = (a: IDataObject, b: IDataObject) =>
	finishedAt(a) > finishedAt(b) || (finishedAt(a) === finishedAt(b) && String(a.id) > String(b.id));

/**
 * The finished runs that verified deliveries to one paused execution carried, in this process (a
 * delivery carries its run as the service signed it: as good as a read). The delivery of the run
 * that finished last so far may hold on a moment for the others instead of reading them: the
 * deliveries of one execution's runs arrive as a burst. Another process keeps its own.
 */
export class DeliveredRuns {
	private readonly runs = new Map<string, Run>();
	private latest?: Run;
	private readonly wakers = new Set<(woken: boolean) => void>();

	constructor(private readonly awaitedIds: Set<string>) {}

	/** A delivered finished run (ignored unless held); wakes the delivery holding on. */
	add(run: Run): void {
		if (!this.awaitedIds.has(run.id)) return;
		this.runs.set(run.id, run);
		if (!this.latest || finishedAfter(run, this.latest)) this.latest = run;
		for (const wake of this.wakers) wake(true);
		this.wakers.clear();
	}

	/** every held run delivered */
	get complete(): boolean {
		return this.runs.size === this.awaitedIds.size;
	}

	get missing(): number {
		return this.awaitedIds.size - this.runs.size;
	}

	/** Whether this run finished last of those delivered (it may be the one to resume). */
	isLatest(run: Run): boolean {
		return this.latest?.id === run.id;
	}

	known(): Map<string, Run> {
		return new Map(this.runs);
	}

	/** Resolves true when another run is delivered, false when none was within `ms`. */
	async next(ms: number): Promise<boolean> {
		let wake!: (woken: boolean) => void;
		const woken = new Promise<boolean>((resolve) => (wake = resolve));
		this.wakers.add(wake);
		const result = await Promise.race([woken, sleep(ms).then(() => false)]);
		this.wakers.delete(wake);
		return result;
	}
}
