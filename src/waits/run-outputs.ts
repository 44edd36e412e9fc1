import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type IWebhookFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { downloadOutputs } from '../media/download';
import { simplifiedRun } from '../outputs/simplify';
import type { PreparedCall } from '../runs/call';
import { TaskPool } from '../runs/pool';
import { outputFiles } from '../outputs/output-files';
import type { Run } from '../runs/run';
import type { WaitOutcome } from './wait-schedule';
import { problemError } from '../transport/problem';
import type { ApiClient } from '../transport/request';
import { customOperationFor } from '../runs/custom-operations';
import type { FailItem } from '../outputs/error-item';
import type { WaitedRun } from './awaited';
import { quoteFields } from '../spend/spend-report';
import { runsAsTool } from '../agents/tool-output';

/**
 * Turning finished runs into output items, shared by the two ways of waiting: in the execution
 * (src/waits/run-waits.ts) and in the webhook that resumes a paused execution (src/waits/resume.ts),
 * so that both give the same items, binaries, pairing and error items.
 */
export type OutputContext = IExecuteFunctions | IWebhookFunctions;

const DOWNLOAD_CONCURRENCY = 32;

/**
 * Builds the output item of a completed run: the run as JSON (simplified, or the service's object
 * with `output_urls`), its files as binary (or URLs only).
 */
async function completedRunItem(
	ctx: OutputContext,
	client: ApiClient,
	call: PreparedCall,
	run: Run,
): Promise<INodeExecutionData> {
	const files = outputFiles(run.output);
	const settings = call.run!;
	const json = runJson(call, run);
	const pairedItem = { item: call.itemIndex };
	if (settings.returnUrlsOnly || files.length === 0) return { json, pairedItem };
	const binary = await downloadOutputs(ctx, files, settings.binaryPropertyName, client.baseUrl, {
		runId: run.id,
		maxBytes: settings.maxOutputBytes,
		signal: client.signal,
	});
	return { json, binary, pairedItem };
}

/** A run as its item's JSON: simplified (the kind by the call's path, the prompt from what it sent) or as the service gave it. */
export function runJson(call: PreparedCall, run: Run): IDataObject {
	// the price the node quoted before sending, where it did (Max Credits, budgets): src/spend/spend-report.ts
	const quoted = quoteFields(call);
	if (call.run?.simplify)
		return { ...simplifiedRun(run, { operation: call.path, sent: call.body }), ...quoted };
	return call.run?.wait === false
		? { ...run, ...quoted }
		: { ...run, output_urls: outputFiles(run.output).map((f) => f.url), ...quoted };
}

/** The error of a run that did not complete: failed at the service, still running at the deadline, or the wait was cancelled. */
export function outcomeError(ctx: OutputContext, call: PreparedCall, outcome: WaitOutcome): Error {
	const run = outcome.run;
	if (outcome.state === 'error') return outcome.error;
	if (outcome.state === 'failed') {
		const error = problemError(
			ctx.getNode(),
			{
				code: run.error?.code ?? 'run_failed',
				title: `Run ${run.id} failed`,
				detail: run.error?.message,
				run_id: run.id,
				request_id: run.request_id as string | undefined,
			},
			undefined,
			call.itemIndex,
		);
		// the service answers a key with the run it first made for it: sending the same request
		// under the same own key again only brings this failed run back
		if (call.job)
			error.description = [
				error.description,
				`Idempotency Key "${call.job}" (Options) names this failed job: a new execution with the same key gets this failed run back and makes no new run. To make it again, change the key, e.g. append a suffix ("${call.job}-2").`,
			]
				.filter(Boolean)
				.join(' · ');
		return error;
	}
	const seconds = Math.round(call.run!.waitTimeoutMs / 1000);
	// no status in the message: a paused execution reaches its deadline without reading the run
	const error = new NodeOperationError(
		ctx.getNode(),
		outcome.state === 'timeout'
			? `Run ${run.id} did not finish within ${seconds} s`
			: `Waiting for run ${run.id} stopped: the execution was cancelled`,
		{
			itemIndex: call.itemIndex,
			description:
				'The run goes on at the service. Raise "Wait Timeout" or read it later with MediaGen Run → Get.',
		},
	);
	error.context.problem = {
		code: outcome.state === 'timeout' ? 'wait_timeout' : 'cancelled',
		run_id: run.id,
		run_status: run.status,
	} as JsonObject;
	return error;
}

/** The output items of one finished run (its operation's own items where it has them), or the error to report for it. */
export async function runOutputs(
	ctx: OutputContext,
	client: ApiClient,
	call: PreparedCall,
	outcome: WaitOutcome,
): Promise<INodeExecutionData[]> {
	// a tool answers in time: a run still going is its answer (with its id, to check later), not a failure
	if (outcome.state === 'timeout' && runsAsTool(ctx))
		return [{ json: outcome.run, pairedItem: { item: call.itemIndex } }];
	if (outcome.state !== 'completed') throw outcomeError(ctx, call, outcome);
	const custom = customOperationFor(call.endpoint);
	return custom?.completedRun
		? await custom.completedRun(ctx, client, call, outcome.run)
		: [await completedRunItem(ctx, client, call, outcome.run)];
}

/**
 * Puts the outputs of runs into `results` (by input item) as each run is reported finished, several
 * downloads at a time, so downloading overlaps the wait for the other runs. A run's error goes to
 * `fail` (which throws or makes an error item, as the node is set). `settled` is meant for
 * `waitForRuns`'s `onSettled`; `drained` resolves once every reported run's outputs are in.
 */
export class RunOutputCollector {
	private readonly downloads = new TaskPool(DOWNLOAD_CONCURRENCY);
	private readonly byRun = new Map<string, WaitedRun[]>();
	/** what the wait reported of each run: an entry held after its run was reported gets its outputs at once */
	private readonly reported = new Map<string, WaitOutcome>();

	constructor(
		private readonly ctx: OutputContext,
		private readonly client: ApiClient,
		waitSet: WaitedRun[],
		private readonly results: INodeExecutionData[][],
		private readonly fail: FailItem,
	) {
		for (const entry of [...waitSet].sort((a, b) => a.call.itemIndex - b.call.itemIndex))
			this.add(entry);
	}

	/**
	 * One more run whose outputs go into `results` once it is reported (a wait that began while the
	 * rest were sent; an item that shares a run already reported).
	 */
	add(entry: WaitedRun): void {
		const same = this.byRun.get(entry.run.id);
		if (same) same.push(entry);
		else this.byRun.set(entry.run.id, [entry]);
		const outcome = this.reported.get(entry.run.id);
		if (outcome) this.output(entry.call, outcome);
	}

	readonly settled = (outcome: WaitOutcome): void => {
		this.reported.set(outcome.run.id, outcome);
		for (const { call } of this.byRun.get(outcome.run.id) ?? []) this.output(call, outcome);
	};

	private output(call: PreparedCall, outcome: WaitOutcome): void {
		this.downloads.add(async () => {
			try {
				this.results[call.itemIndex] = await runOutputs(this.ctx, this.client, call, outcome);
			} catch (error) {
				this.fail(call.itemIndex, error);
			}
		});
	}

	/** Reports every held run at once, in input order (runs that finished before anyone waited). */
	settleAll(outcomes: Map<string, WaitOutcome>): void {
		for (const runId of this.byRun.keys()) this.settled(outcomes.get(runId)!);
	}

	async drained(): Promise<void> {
		await this.downloads.drained();
	}
}

/** Puts the outputs of runs that all finished already into `results`, in input order (see RunOutputCollector). */
export async function collectRunOutputs(
	ctx: OutputContext,
	client: ApiClient,
	waitSet: WaitedRun[],
	outcomes: Map<string, WaitOutcome>,
	results: INodeExecutionData[][],
	fail: FailItem,
): Promise<void> {
	const collector = new RunOutputCollector(ctx, client, waitSet, results, fail);
	collector.settleAll(outcomes);
	await collector.drained();
}
