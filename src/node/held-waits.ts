import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { batchOutputs, waitForBatch } from '../runs/batches';
import type { BatchPairing, PreparedCall, WaitHolder } from '../runs/call';
import type { Batch, Run } from '../runs/run';
import { waitForRuns } from '../runs/wait';
import type { ApiClient } from '../transport/request';
import { pauseExecution } from './pause';
import { heldCalls, type FailItem, type Held, type HeldBatch } from './held';
import { RunOutputCollector } from './run-outputs';

/** Puts the outputs of a finished batch into `results`. */
export async function collectBatchOutputs(ctx: Parameters<typeof batchOutputs>[0], client: ApiClient, held: HeldBatch, results: INodeExecutionData[][]): Promise<void> {
	const outputs = await batchOutputs(ctx, client, held.calls, held.batch, held.pairing);
	for (const call of held.calls) results[call.itemIndex] = outputs.get(call.itemIndex) ?? [];
}

/** The earlier of a wait's own deadline and the deadline a tool call must answer by. */
const deadlineOf = (timeoutMs: number, toolDeadline: number | undefined) => Math.min(Date.now() + timeoutMs, toolDeadline ?? Infinity);

/** Waits here (polling) for everything held, until `toolDeadline` at the latest, then puts the outputs into `results`. */
async function waitHere(ctx: IExecuteFunctions, client: ApiClient, held: Held, results: INodeExecutionData[][], fail: FailItem, toolDeadline: number | undefined): Promise<void> {
	if (held.runs.length) {
		let timeout = 0;
		for (const { call } of held.runs) timeout = Math.max(timeout, call.run!.waitTimeoutMs);
		// each run's outputs start downloading as soon as the loop sees it finish, while it waits for the others
		const outputs = new RunOutputCollector(ctx, client, held.runs, results, fail);
		await waitForRuns(
			client,
			held.runs.map((r) => r.run),
			{ deadline: deadlineOf(timeout, toolDeadline), onSettled: outputs.settled },
		);
		await outputs.drained();
	}
	await Promise.all(
		held.batches.map(async (entry) => {
			const [first] = entry.calls;
			try {
				const batch = await waitForBatch(ctx, client, entry.batch, deadlineOf(first.run!.waitTimeoutMs, toolDeadline), first.itemIndex);
				await collectBatchOutputs(ctx, client, { ...entry, batch }, results);
			} catch (error) {
				for (const call of entry.calls) fail(call.itemIndex, error);
			}
		}),
	);
}

/**
 * Collects what a node execution sent and has to wait for, and waits for all of it once everything
 * is sent: in this execution (polling), or — Wait Mode "Pause the Execution" — with the execution
 * paused until the service's events say it finished (src/node/pause.ts).
 */
export class HeldWaits implements WaitHolder {
	readonly held: Held = { runs: [], batches: [] };

	holdRun(call: PreparedCall, run: Run): void {
		this.held.runs.push({ call, run });
	}

	holdBatch(calls: PreparedCall[], batch: Batch, pairing: BatchPairing): void {
		this.held.batches.push({ calls, batch, pairing });
	}

	/**
	 * Waits for everything held and puts the outputs into `results` (by input item). Returns the
	 * node's output while paused when the execution paused instead; `results` then stay as they are.
	 * A tool call stops waiting at `toolDeadline` (its runs still going are answered as such).
	 */
	async settle(ctx: IExecuteFunctions, client: ApiClient, results: INodeExecutionData[][], fail: FailItem, toolDeadline?: number): Promise<INodeExecutionData[] | undefined> {
		const calls = heldCalls(this.held);
		if (calls.length === 0) return undefined;
		if (calls[0].run!.waitMode === 'parked') {
			const waiting = await pauseExecution(ctx, client, this.held, results);
			if (waiting) return waiting;
		}
		await waitHere(ctx, client, this.held, results, fail, toolDeadline);
		return undefined;
	}
}
