// What one node execution waits for: the same shapes for the in-execution wait (held-waits.ts), the
// pause (pause.ts, pause-state.ts) and the resume (resume.ts).
import type { BatchPairing, PreparedCall } from '../runs/call';
import type { Batch, Run } from '../runs/run';

/** A run the node submitted (or read) for one input item's call. */
export interface HeldRun {
	call: PreparedCall;
	run: Run;
}

export interface HeldBatch {
	calls: PreparedCall[];
	batch: Batch;
	pairing: BatchPairing;
}

/** The runs and batches one node execution waits for. */
export interface Held {
	runs: HeldRun[];
	batches: HeldBatch[];
}

/** What the node does with an item's error: throw it, or an error item (Continue On Fail). */
export type FailItem = (itemIndex: number, error: unknown) => void;

/** The calls whose outputs depend on what is held, in input order. */
export function heldCalls(held: Held): PreparedCall[] {
	return [...held.runs.map((r) => r.call), ...held.batches.flatMap((b) => b.calls)].sort((a, b) => a.itemIndex - b.itemIndex);
}

