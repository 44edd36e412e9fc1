import { PAUSE } from '../catalog';
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { batchOutputs } from '../runs/batches';
import { waitForBatch } from './batch-wait';
import type { BatchPairing, PreparedCall, WaitList } from '../runs/call';
import type { Batch, Run } from '../runs/run';
import { RunFeed, waitForRuns } from './wait-loop';
import type { ApiClient } from '../transport/request';
import { pauseExecution } from './pause';
import type { FailItem } from '../outputs/error-item';
import { waitedCalls, type WaitSet, type WaitedBatch } from './awaited';
import { RunOutputCollector } from './run-outputs';

/** Puts the outputs of a finished batch into `results`, and its failed items (Use Batch API) to `fail`. */
export async function collectBatchOutputs(
	ctx: Parameters<typeof batchOutputs>[0],
	client: ApiClient,
	waitSet: WaitedBatch,
	results: INodeExecutionData[][],
	fail: FailItem,
): Promise<void> {
	const { outputs, failures } = await batchOutputs(
		ctx,
		client,
		waitSet.calls,
		waitSet.batch,
		waitSet.pairing,
	);
	for (const call of waitSet.calls) results[call.itemIndex] = outputs.get(call.itemIndex) ?? [];
	for (const [itemIndex, error] of failures) fail(itemIndex, error);
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
const deadlineOf = (timeoutMs: number, toolDeadline: number | undefined) =>
	Math.min(Date.now() + timeoutMs, toolDeadline ?? Infinity);

/**
 * Waits here (polling) for everything held, until `toolDeadline` at the latest, then puts the
 * outputs into `results`. Runs a wait that began as they were sent (`early`) are waited for there.
 */
async function waitHere(
	ctx: IExecuteFunctions,
	client: ApiClient,
	waitSet: WaitSet,
	results: INodeExecutionData[][],
	fail: FailItem,
	toolDeadline: number | undefined,
	early?: EarlyWait,
): Promise<void> {
	if (early) {
		early.feed.close(deadlineOf(early.timeoutMs, toolDeadline));
		await early.done;
		await early.outputs.drained();
	} else if (waitSet.runs.length) {
		let timeout = 0;
		for (const { call } of waitSet.runs) timeout = Math.max(timeout, call.run!.waitTimeoutMs);
		// each run's outputs start downloading as soon as the loop sees it finish, while it waits for the others
		const outputs = new RunOutputCollector(ctx, client, waitSet.runs, results, fail);
		await waitForRuns(
			client,
			waitSet.runs.map((r) => r.run),
			{ deadline: deadlineOf(timeout, toolDeadline), onSettled: outputs.settled },
		);
		await outputs.drained();
	}
	await Promise.all(
		waitSet.batches.map(async (entry) => {
			const [first] = entry.calls;
			try {
				const batch = await waitForBatch(
					ctx,
					client,
					entry.batch,
					deadlineOf(first.run!.waitTimeoutMs, toolDeadline),
					first.itemIndex,
				);
				await collectBatchOutputs(ctx, client, { ...entry, batch }, results, fail);
			} catch (error) {
				for (const call of entry.calls) fail(call.itemIndex, error);
			}
		}),
	);
}

/**
 * Collects what a node execution sent and has to wait for, and waits for all of it once everything
 * is sent: in this execution (polling), or — Wait Mode "Pause the Execution" — with the execution
 * paused until the service's events say it finished (src/waits/pause.ts).
 */
export class RunWaits implements WaitList {
	readonly waitSet: WaitSet = { runs: [], batches: [] };
	private outputs?: Outputs;
	private early?: EarlyWait;

	/**
	 * From now on, runs that are waited for in the execution are waited for as soon as they are sent
	 * (their files downloaded as they finish), while the rest are still being sent.
	 */
	waitAsSent(outputs: Outputs): void {
		this.outputs = outputs;
	}

	addRun(call: PreparedCall, run: Run): void {
		this.waitSet.runs.push({ call, run });
		if (!this.outputs || call.run!.waitMode === PAUSE) return;
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
		this.early.outputs.add({ call, run });
		this.early.feed.add(run);
	}

	addBatch(calls: PreparedCall[], batch: Batch, pairing: BatchPairing): void {
		this.waitSet.batches.push({ calls, batch, pairing });
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
	async settle(
		ctx: IExecuteFunctions,
		client: ApiClient,
		results: INodeExecutionData[][],
		fail: FailItem,
		toolDeadline?: number,
	): Promise<INodeExecutionData[] | undefined> {
		const calls = waitedCalls(this.waitSet);
		if (calls.length === 0) return undefined;
		if (calls[0].run!.waitMode === PAUSE) {
			const waiting = await pauseExecution(ctx, client, this.waitSet, results);
			if (waiting) return waiting;
		}
		await waitHere(ctx, client, this.waitSet, results, fail, toolDeadline, this.early);
		return undefined;
	}
}
