import type { Run } from '../runs/run';

/**
 * When the wait loop reads an unfinished run again: learnt from the runs it saw finish (in this wait,
 * and in earlier waits of this process for the same service, operation and model), so that a finish
 * is seen soon after it happens, and a slow run is not read rapidly while it cannot be done.
 */

/** Two reads of one run are never closer than this. */
export const MIN_GAP_MS = 100;
/** Before any run of its kind was seen finishing, reads of a run are at least this far apart. */
export const COLD_MIN_GAP_MS = 250;
/** Two reads of a run that may have finished are never further apart than this. */
export const MAX_GAP_MS = 10_000;
/** Reads of a run long before it is expected to finish, or while it waits in the queue, are at most this far apart. */
export const MAX_EARLY_GAP_MS = 60_000;
/**
 * A run with no expected duration, or past it, is read again after this share of its age: its
 * finish is seen within an eighth of its duration (or the gap bounds above).
 */
export const LATE_SHARE = 1 / 8;
/** A run reads show queued is read again after this share of the time it has been queued (the oldest runs, read first, show when it starts). */
export const QUEUED_SHARE = 1 / 2;
/** While runs are seen finishing, the oldest unfinished are read again after this share of the run duration. */
export const FLOW_SHARE = 1 / 8;
/** The read for an expected finish comes this share of the duration after it (25 ms to 1 s): the run is done by then. */
const SETTLE_SHARE = 1 / 64;
/**
 * Before its expected finish, a run is read halfway to it while that is further away than a third of
 * its duration and than this: a run much faster than the last ones is still seen, and a short run is
 * read once, just after its expected finish.
 */
const FAR_SHARE = 1 / 3;
const FAR_MS = 2_500;
/** Kinds of runs whose duration this process remembers. */
const REMEMBERED_KINDS = 200;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * How long runs of a kind took when this process last saw them finish: per process, never shared
 * between processes or persisted (a worker that never waited for a kind starts cold, as a first wait
 * does). Bounded: the kind seen longest ago is dropped first.
 */
const rememberedDurations = new Map<string, number>();

/** The kind of a run, for its expected duration: service, operation and model. */
export function runKind(baseUrl: string, run: Run): string {
	return `${baseUrl} ${String(run.endpoint ?? run.capability ?? '')} ${String(run.model ?? '')}`;
}

/** How long a finished run took at the service (its own timestamps: no clock of ours involved). */
export function runDuration(run: Run): number | undefined {
	const took =
		Date.parse(String(run.completed_at ?? '')) - Date.parse(String(run.created_at ?? ''));
	return Number.isFinite(took) && took > 0 ? took : undefined;
}

/** Forgets every remembered duration (tests). */
export function forgetRunDurations(): void {
	rememberedDurations.clear();
}

/**
 * Expected durations for one wait. A kind's expectation is the shortest duration seen in this wait
 * (with a cap on concurrent runs, later runs also queued, so the shortest is the work itself), else
 * what this process remembers for the kind, else the shortest of any kind in this wait.
 */
export class RunDurations {
	private readonly here = new Map<string, number>();
	private fastest?: number;
	/** counts up whenever an expectation changed (schedules computed before are stale) */
	version = 0;

	constructor(private readonly baseUrl: string) {}

	kindOf(run: Run): string {
		return runKind(this.baseUrl, run);
	}

	/** Learns from a run seen finished. */
	finished(run: Run): void {
		const took = runDuration(run);
		if (took === undefined) return;
		const kind = this.kindOf(run);
		const shortest = Math.min(this.here.get(kind) ?? Infinity, took);
		if (shortest !== this.here.get(kind) || took < (this.fastest ?? Infinity)) this.version++;
		this.here.set(kind, shortest);
		this.fastest = Math.min(this.fastest ?? Infinity, took);
		rememberedDurations.delete(kind);
		rememberedDurations.set(kind, shortest);
		if (rememberedDurations.size > REMEMBERED_KINDS)
			rememberedDurations.delete(rememberedDurations.keys().next().value!);
	}

	/** The expected duration of a kind of run (`kindOf`), undefined before anything was learnt. */
	expected(kind: string): number | undefined {
		return this.here.get(kind) ?? rememberedDurations.get(kind) ?? this.fastest;
	}

	/** The shortest duration seen finishing in this wait (undefined until a run finished). */
	shortestSeen(): number | undefined {
		return this.fastest;
	}
}

/** What the schedule of one run depends on, in this process's clock (ms). */
export interface RunClock {
	/** when the service made the run */
	bornAt: number;
	/** when a read last showed it unfinished (its birth before any read) */
	checkedAt: number;
	/** when reads began to show it queued (not started), if the last one did */
	queuedSince?: number;
	/** when a read last showed it queued: it started after that (its work counts from then, not from its birth) */
	lastQueuedAt?: number;
}

/**
 * When to read a run next:
 * - queued (not started): not before it could have done its work since, then less and less often
 *   (its finish is seen by the reads of the oldest runs, which go first);
 * - expected to finish later: halfway to the expected finish while that is far, then just after it;
 * - no expectation, or past it: after an eighth of its age, so a finish is seen within an eighth of
 *   the run's duration.
 * A run's age and expected finish count from when it left the queue, as far as reads show it.
 */
export function nextReadAt(run: RunClock, expectedMs: number | undefined): number {
	if (run.queuedSince !== undefined) {
		const queued = run.checkedAt - run.queuedSince;
		return (
			run.checkedAt +
			clamp(Math.max(queued * QUEUED_SHARE, expectedMs ?? 0), COLD_MIN_GAP_MS, MAX_EARLY_GAP_MS)
		);
	}
	// A run that waited in the queue (an account's cap) started after the last read that showed it
	// there: its duration counts from then. Counted from its birth, a run queued for long would be
	// read at the slowest pace once it ran, and its finish seen late.
	const startedBy = Math.max(run.bornAt, run.lastQueuedAt ?? -Infinity);
	const age = run.checkedAt - startedBy;
	if (expectedMs === undefined)
		return run.checkedAt + clamp(age * LATE_SHARE, COLD_MIN_GAP_MS, MAX_GAP_MS);
	const due = startedBy + expectedMs + clamp(expectedMs * SETTLE_SHARE, 25, 1_000);
	if (run.checkedAt >= due) return run.checkedAt + clamp(age * LATE_SHARE, MIN_GAP_MS, MAX_GAP_MS);
	const left = due - run.checkedAt;
	if (left > Math.max(expectedMs * FAR_SHARE, FAR_MS))
		return run.checkedAt + Math.min(left / 2, MAX_EARLY_GAP_MS);
	return run.checkedAt + clamp(left, MIN_GAP_MS, MAX_EARLY_GAP_MS);
}

/** While runs are seen finishing: the gap until the next read of the oldest unfinished ones. */
export function flowGap(shortestSeenMs: number): number {
	return clamp(shortestSeenMs * FLOW_SHARE, MIN_GAP_MS, MAX_GAP_MS);
}
