// What one node execution waits for: the same shapes for the in-execution wait (run-waits.ts), the
// pause (pause.ts, pause-state.ts) and the resume (resume.ts).
import type { BatchPairing, PreparedCall } from '../runs/call';
import type { Batch, Run } from '../runs/run';

/** A run the node submitted (or read) for one input item's call. */
export interface WaitedRun {
	call: PreparedCall;
	run: Run;
}

export interface WaitedBatch {
	calls: PreparedCall[];
	batch: Batch;
	pairing: BatchPairing;
}

/** The runs and batches one node execution waits for. */
export interface WaitSet {
	runs: WaitedRun[];
	batches: WaitedBatch[];
}

/** The calls whose outputs depend on what is held, in input order. */
export function waitedCalls(waitSet: WaitSet): PreparedCall[] {
	return [...waitSet.runs.map((r) => r.call), ...waitSet.batches.flatMap((b) => b.calls)].sort(
		(a, b) => a.itemIndex - b.itemIndex,
	);
}
