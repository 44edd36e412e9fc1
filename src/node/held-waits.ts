import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { batchOutputs, waitForBatch } from '../runs/batches';
import type { BatchPairing, PreparedCall, WaitHolder } from '../runs/call';
import type { Batch, Run } from '../runs/run';
import { RunFeed, waitForRuns } from '../runs/wait';
import type { ApiClient } from '../transport/request';
import { pauseExecution } from './pause';
import { heldCalls, type FailItem, type Held, type HeldBatch } from './held';
import { RunOutputCollector } from './run-outputs';

/** Puts the outputs of a finished batch into `results`. */
export async function collectBatchOutputs(ctx: Parameters<typeof batchOutputs>[0], client: ApiClient, held: HeldBatch, results: INodeExecutionData[][]): Promise<void> {
	const outputs = await batchOutputs(ctx, client, held.calls, held.batch, held.pairing);
	for (const call of held.calls) results[call.itemIndex] = outputs.get(call.itemIndex) ?? [];
}

/** Where the outputs of a node execution go, and what it does with an item's error. */
interface Outputs {
	ctx: IExecuteFunctions;
	client: ApiClient;
	results: INodeExecutionData[][];
	fail: FailItem;
}

/** A wait in the execution that began with the first run sent, while the rest were still being sent. */
interface EarlyWait {
	feed: RunFeed;
	outputs: RunOutputCollector;
	timeoutMs: number;
	done: Promise<unknown>;
}

/** The earlier of a wait's own deadline and the deadline a tool call must answer by. */
const deadlineOf = (timeoutMs: number, toolDeadline: number | undefined) => Math.min(Date.now() + timeoutMs, toolDeadline ?? Infinity);

/**
 * Waits here (polling) for everything held, until `toolDeadline` at the latest, then puts the
 * outputs into `results`. Runs a wait that began as they were sent (`early`) are waited for there.
 */
async function waitHere(ctx: IExecuteFunctions, client: ApiClient, held: Held, results: INodeExecutionData[][], fail: FailItem, toolDeadline: number | undefined, early?: EarlyWait): Promise<void> {
	if (early) {
		early.feed.close(deadlineOf(early.timeoutMs, toolDeadline));
		await early.done;
		await early.outputs.drained();
	} else if (held.runs.length) {
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
	private outputs?: Outputs;
	private early?: EarlyWait;

	/**
	 * From now on, runs that are waited for in the execution are waited for as soon as they are sent
	 * (their files downloaded as they finish), while the rest are still being sent.
	 */
	waitAsSent(outputs: Outputs): void {
		this.outputs = outputs;
	}

	holdRun(call: PreparedCall, run: Run): void {
		this.held.runs.push({ call, run });
		if (!this.outputs || call.run!.waitMode === 'parked') return;
		const { ctx, client, results, fail } = this.outputs;
		if (!this.early) {
			const feed = new RunFeed();
			const outputs = new RunOutputCollector(ctx, client, [], results, fail);
			const done = waitForRuns(client, feed, { onSettled: outputs.settled });
			// awaited by settle (or abandon): no unhandled rejection while the rest are being sent
			done.catch(() => undefined);
			this.early = { feed, outputs, timeoutMs: 0, done };
		}
		this.early.timeoutMs = Math.max(this.early.timeoutMs, call.run!.waitTimeoutMs);
		this.early.outputs.hold({ call, run });
		this.early.feed.add(run);
	}

	holdBatch(calls: PreparedCall[], batch: Batch, pairing: BatchPairing): void {
		this.held.batches.push({ calls, batch, pairing });
	}

	/** Sending failed and the node stops: the wait that began ends without outcomes, its downloads under way finish. */
	async abandon(): Promise<void> {
		if (!this.early) return;
		this.early.feed.abandon();
		await this.early.done.catch(() => undefined);
		await this.early.outputs.drained().catch(() => undefined);
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
		await waitHere(ctx, client, this.held, results, fail, toolDeadline, this.early);
		return undefined;
	}
}
