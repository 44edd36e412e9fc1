import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { isBatchFinished, readBatch } from '../runs/batches';
import { batchWaitError } from './batch-wait';
import { readRunsOnce } from '../runs/read-runs';
import { isTerminal } from '../runs/run';
import { problemOf } from '../transport/problem';
import type { SecretValues } from '../transport/redact';
import type { ApiClient } from '../transport/request';
import type { EventType } from '../webhooks/events';
import {
	registerPausedEndpoint,
	removeLeftoverPausedEndpoints,
	removePausedEndpoint,
	type PausedExecution,
} from '../webhooks/paused-endpoint';
import { whyUnreachable } from '../webhooks/reachability';
import { credentialSecretOf, sealSecret, type SealKey } from '../webhooks/sealed-secret';
import { errorItem } from '../outputs/error-item';
import type { WaitSet } from './awaited';
import { encodeState, shapeOf, STATE_MAX_LENGTH, stateKey, type CallShape } from './pause-state';
import { outcomeError } from './run-outputs';
import { runsAsTool } from '../agents/tool-output';

/** n8n keeps at most this many custom data keys per execution (n8n-core's KV_LIMIT); further ones are dropped. */
const CUSTOM_DATA_KEYS = 10;
/** Lengths the state is checked with before the endpoint exists (an endpoint id and a sealed secret are shorter). */
const ID_ALLOWANCE = 64;
const SEALED_ALLOWANCE = 160;

const RUN_EVENTS: EventType[] = ['run.completed', 'run.failed'];
// A batch that ends partial sends no batch event (the document names batch.completed and
// batch.failed only), so a paused batch also listens to run events and then reads the batch.
const BATCH_EVENTS: EventType[] = ['batch.completed', 'batch.failed', ...RUN_EVENTS];

/** The key of the sealed signing secret: the credential's own secret, bound to this execution and node. */
export function sealKeyOf(
	credentials: ICredentialDataDecryptedObject,
	executionId: string,
	nodeName: string,
): SealKey | undefined {
	const secret = credentialSecretOf(credentials);
	return secret
		? { credentialSecret: secret, context: `${executionId}\u0000${nodeName}` }
		: undefined;
}

const hasWaitsLeft = (waitSet: WaitSet) =>
	waitSet.runs.some((r) => !isTerminal(r.run)) ||
	waitSet.batches.some((b) => !isBatchFinished(b.batch));

/** A wait's item at the deadline: the in-execution wait's timeout item (what n8n outputs then, unchanged). */
function deadlineItems(
	ctx: IExecuteFunctions,
	waitSet: WaitSet,
	timeoutMs: number,
	secrets: SecretValues,
): Map<number, INodeExecutionData> {
	const items = new Map<number, INodeExecutionData>();
	for (const { call, run } of waitSet.runs) {
		// the message names the timeout that ran out: the paused wait's, the longest of its items'
		const paused = { ...call, run: { ...call.run!, waitTimeoutMs: timeoutMs } };
		const item = errorItem(
			outcomeError(ctx, paused, { state: 'timeout', run }),
			call.itemIndex,
			secrets,
		);
		if (call.quote) item.json.quoted_credits = call.quote.credits;
		items.set(call.itemIndex, item);
	}
	for (const { calls, batch } of waitSet.batches) {
		for (const call of calls)
			items.set(
				call.itemIndex,
				errorItem(batchWaitError(ctx, batch, call.itemIndex, false), call.itemIndex, secrets),
			);
	}
	return items;
}

/** Why this execution cannot pause here (it then waits in the execution), or undefined. */
function whyNotPause(
	ctx: IExecuteFunctions,
	results: INodeExecutionData[][],
	heldIndexes: Set<number>,
	stateLength: number,
): string | undefined {
	if (ctx.getMode() === 'cli')
		return 'n8n execute (the command line) ends when the workflow stops, so nothing would resume it';
	if (runsAsTool(ctx)) return 'an AI agent waits for its tools to answer';
	if (results.some((items, index) => !heldIndexes.has(index) && items.length !== 1)) {
		return 'a paused node resumes with one item per input item, and some input items have several outputs or none';
	}
	// n8n 1.x gives nodes no execution custom data, where the paused node keeps its state
	if (typeof ctx.customData?.getAll !== 'function')
		return 'this n8n gives nodes no execution custom data, where a paused node keeps its state (n8n 2.x does)';
	const all = ctx.customData.getAll();
	if (!(stateKey(ctx.getNode().name) in all) && Object.keys(all).length >= CUSTOM_DATA_KEYS) {
		return `the execution's custom data already holds ${CUSTOM_DATA_KEYS} keys, and the paused node keeps its state there`;
	}
	if (stateLength > STATE_MAX_LENGTH)
		return 'the items have too many different output settings (Binary Field Name, Return URLs Only, …) to keep for the resume';
	return undefined;
}

function waitHereInstead(ctx: IExecuteFunctions, client: ApiClient, reason: string): undefined {
	if (typeof ctx.addExecutionHints === 'function') {
		ctx.addExecutionHints({
			message: client.secrets.text(`Waited in this execution instead of pausing it: ${reason}.`),
			type: 'info',
			location: 'outputPane',
		});
	}
	return undefined;
}

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What the paused node's output pane says while the execution waits (n8n 2.41 shows a waiting node
 * as "Waiting for input" and nothing about what it waits for).
 */
function pausedHint(waitSet: WaitSet, deadline: Date): string {
	const runs = waitSet.runs.filter((r) => !isTerminal(r.run)).map((r) => r.run.id);
	const batches = waitSet.batches.filter((b) => !isBatchFinished(b.batch)).map((b) => b.batch.id);
	const ids = [...runs, ...batches];
	const what = [
		runs.length ? counted(runs.length, 'run', 'runs') : '',
		batches.length ? counted(batches.length, 'batch', 'batches') : '',
	]
		.filter(Boolean)
		.join(' and ');
	const listed = `${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''}`;
	const by = `${deadline.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
	return `Paused until MediaGen finishes ${what} (${listed}): the execution continues by itself when the service reports ${ids.length === 1 ? 'it' : 'them'} finished, at the latest at ${by} (Wait Timeout). Meanwhile it is listed as Waiting under Executions and holds no worker.`;
}

/** Reads what is held once (the events of runs that finished before the endpoint existed never reach it). */
async function refresh(client: ApiClient, waitSet: WaitSet): Promise<void> {
	if (waitSet.runs.length) {
		const runs = await readRunsOnce(
			client,
			waitSet.runs.map((r) => r.run.id),
		);
		for (const entry of waitSet.runs) entry.run = runs.get(entry.run.id) ?? entry.run;
	}
	for (const entry of waitSet.batches)
		entry.batch = await readBatch(client, entry.batch.id, entry.calls[0].itemIndex);
}

/**
 * Wait Mode "Pause the Execution": registers a webhook endpoint for this execution's resume URL,
 * keeps what the resume needs (see pause-state.ts) and pauses the execution until the deadline of
 * Wait Timeout. Returns the node's output while paused (shown in the execution; n8n drops it when
 * the execution resumes), or undefined when the node waits in the execution instead — nothing left
 * to wait for, or pausing is not possible here (the reason goes to the execution's hints).
 */
export async function pauseExecution(
	ctx: IExecuteFunctions,
	client: ApiClient,
	waitSet: WaitSet,
	results: INodeExecutionData[][],
): Promise<INodeExecutionData[] | undefined> {
	if (!hasWaitsLeft(waitSet)) return undefined;
	const node = ctx.getNode();
	const calls = new Map(
		[...waitSet.runs.map((r) => r.call), ...waitSet.batches.flatMap((b) => b.calls)].map((c) => [
			c.itemIndex,
			c,
		]),
	);
	const shapes: CallShape[] = [...calls.keys()]
		.sort((a, b) => a - b)
		.map((index) => shapeOf(calls.get(index)!));
	const timeoutMs = Math.max(...[...calls.values()].map((c) => c.run!.pausedWaitTimeoutMs));
	const deadline = new Date(Date.now() + timeoutMs);
	const resumeUrl = String(ctx.evaluateExpression('{{ $execution.resumeUrl }}', 0));
	const estimate = encodeState(
		'x'.repeat(ID_ALLOWANCE),
		'x'.repeat(SEALED_ALLOWANCE),
		deadline.getTime(),
		shapes,
	).length;
	const refusal = whyNotPause(ctx, results, new Set(calls.keys()), estimate);
	if (refusal) return waitHereInstead(ctx, client, refusal);
	// reachability last: its second rule reads the service's record of deliveries
	const unreachable = await whyUnreachable(client, resumeUrl);
	if (unreachable) {
		// no pause will clean up after the executions stranded at this address: their leftover endpoints go now
		await removeLeftoverPausedEndpoints(client, resumeUrl).catch(() => undefined);
		return waitHereInstead(ctx, client, unreachable);
	}
	const key = sealKeyOf(
		await ctx.getCredentials(client.credentialType),
		ctx.getExecutionId(),
		node.name,
	);
	if (!key)
		return waitHereInstead(
			ctx,
			client,
			'the credential has no secret to seal the endpoint secret with',
		);

	const workflow = ctx.getWorkflow();
	const paused: PausedExecution = {
		executionId: ctx.getExecutionId(),
		workflowId: String(workflow.id ?? ''),
		workflowName: workflow.name ?? '',
		nodeName: node.name,
		resumeUrl,
		deadline,
	};
	// best effort: endpoints left by executions that resumed at their deadline, were cancelled or deleted
	await removeLeftoverPausedEndpoints(client, resumeUrl).catch(() => undefined);
	const endpoint = await registerPausedEndpoint(
		client,
		paused,
		waitSet.batches.length ? BATCH_EVENTS : RUN_EVENTS,
	).catch((error: unknown) => {
		const code = problemOf(error)?.code;
		waitHereInstead(
			ctx,
			client,
			`registering the webhook endpoint failed (${code ?? (error as Error).message})${code === 'insufficient_scope' ? '; the credential needs the webhooks:write scope' : ''}`,
		);
		return undefined;
	});
	if (!endpoint) return undefined;
	client.secrets.add(endpoint.signingSecret);
	const release = async () =>
		await removePausedEndpoint(client, endpoint.id).catch(() => undefined);

	// a read that fails leaves the runs as they were: the events or the deadline resume the execution
	await refresh(client, waitSet).catch(() => undefined);
	if (!hasWaitsLeft(waitSet)) {
		await release();
		return undefined;
	}
	const state = encodeState(
		endpoint.id,
		sealSecret(endpoint.signingSecret, key),
		deadline.getTime(),
		shapes,
	);
	const stateName = stateKey(node.name);
	if (state.length <= STATE_MAX_LENGTH) ctx.customData.set(stateName, state);
	if (ctx.customData.get(stateName) !== state) {
		await release();
		return waitHereInstead(
			ctx,
			client,
			"n8n did not keep the paused node's state in the execution's custom data",
		);
	}

	// n8n saves this very array as the node's input and outputs it unchanged at the deadline
	const items = deadlineItems(ctx, waitSet, timeoutMs, client.secrets);
	const stored = results.map((outputs, index) => items.get(index) ?? outputs[0]);
	const input = ctx.getExecuteData().data.main[0]!;
	input.splice(0, input.length, ...stored);
	await ctx.putExecutionToWait(deadline);
	if (typeof ctx.addExecutionHints === 'function')
		ctx.addExecutionHints({
			message: pausedHint(waitSet, deadline),
			type: 'info',
			location: 'outputPane',
		});
	const resumesBy = deadline.toISOString();
	return stored.map((item, index) => {
		const subject = items.has(index) ? item.json : undefined;
		if (!subject) return item;
		return {
			json: {
				status: 'waiting',
				...(subject.run_id ? { run_id: subject.run_id } : { batch_id: subject.batch_id }),
				resumes_by: resumesBy,
				webhook_endpoint_id: endpoint.id,
			},
			pairedItem: { item: index },
		};
	});
}
