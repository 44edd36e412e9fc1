import {
	NodeOperationError,
	type IBinaryKeyData,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type JsonObject,
} from 'n8n-workflow';

import { findOperation, type NodeName } from '../catalog';
import { downloadOutput } from '../media/download';
import { listModels, type Model } from '../models/model-catalog';
import { sendRunsAsBatch } from '../runs/batches';
import type { PreparedCall } from '../runs/call';
import { validateCall } from '../runs/check-call';
import { planCost } from '../runs/cost';
import { checkMentionsReady, listInfluencers, mentionsOf } from '../runs/mentions';
import { forEachLimited, TaskPool } from '../runs/pool';
import { outputFiles } from '../media/output-files';
import { isRun, type Run } from '../runs/run';
import { submitRun, uploadPending } from '../runs/submit';
import { SubmitMemory } from '../runs/submit-memory';
import { waitForRuns, type WaitOutcome } from '../runs/wait';
import { BEARER_CREDENTIAL_TYPE, isCredentialType } from '../transport/credentials';
import { listAll } from '../transport/paginate';
import { problemError } from '../transport/problem';
import { apiRequest, createClient, unexpectedResponse, type ApiClient } from '../transport/request';
import { customOperationFor } from './custom-operations';
import { errorItem } from './error-item';
import { callScopeOf, prepareCall } from './parameters';
import { outputFor, toolAnswersFailures } from './tool-output';

const DEFAULT_SUBMIT_CONCURRENCY = 5;
const DOWNLOAD_CONCURRENCY = 8;

interface Submitted {
	call: PreparedCall;
	run: Run;
}

/** Builds the output item of a completed run: the run as JSON, its files as binary (or URLs). */
async function completedRunItem(ctx: IExecuteFunctions, client: ApiClient, call: PreparedCall, run: Run): Promise<INodeExecutionData> {
	const files = outputFiles(run.output);
	const settings = call.run!;
	const json: IDataObject = { ...run, output_urls: files.map((f) => f.url) };
	if (settings.returnUrlsOnly || files.length === 0) return { json, pairedItem: { item: call.itemIndex } };
	const binary: IBinaryKeyData = {};
	for (const [index, file] of files.entries()) {
		const key = index === 0 ? settings.binaryPropertyName : `${settings.binaryPropertyName}_${index}`;
		binary[key] = await downloadOutput(ctx, file, `${run.id}${index ? `_${index}` : ''}`, client.baseUrl, {
			runId: run.id,
			maxBytes: settings.maxOutputBytes,
			signal: client.signal,
		});
	}
	return { json, binary, pairedItem: { item: call.itemIndex } };
}

function outcomeError(ctx: IExecuteFunctions, call: PreparedCall, outcome: WaitOutcome): Error {
	const run = outcome.run;
	if (outcome.state === 'error') return outcome.error;
	if (outcome.state === 'failed') {
		return problemError(
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
	}
	const seconds = Math.round(call.run!.waitTimeoutMs / 1000);
	const error = new NodeOperationError(
		ctx.getNode(),
		outcome.state === 'timeout'
			? `Run ${run.id} is still ${run.status} after ${seconds} s`
			: `Waiting for run ${run.id} stopped: the execution was cancelled`,
		{
			itemIndex: call.itemIndex,
			description: 'The run goes on at the service. Raise "Wait Timeout" or read it later with MediaGen Run → Get.',
		},
	);
	error.context.problem = { code: outcome.state === 'timeout' ? 'wait_timeout' : 'cancelled', run_id: run.id, run_status: run.status } as JsonObject;
	return error;
}

/** Sends one prepared call and returns its items, or a run to wait for. */
async function send(ctx: IExecuteFunctions, client: ApiClient, call: PreparedCall, memory: SubmitMemory): Promise<INodeExecutionData[] | Run> {
	const custom = customOperationFor(call.endpoint);
	if (!custom?.send && call.endpoint.output === 'run') {
		const run = await submitRun(ctx, client, call, memory);
		return call.run!.wait ? run : [{ json: run, pairedItem: { item: call.itemIndex } }];
	}
	await uploadPending(ctx, client, call);
	if (custom?.send) return await custom.send(ctx, client, call);
	const { endpoint, itemIndex } = call;
	const pairedItem = { item: itemIndex };
	if (call.list) {
		const rows = await listAll(client, { path: call.path, qs: call.qs, itemIndex, auth: endpoint.auth }, call.list);
		return rows.map((json) => ({ json, pairedItem }));
	}
	const { body } = await apiRequest<unknown>(client, {
		method: endpoint.method,
		path: call.path,
		qs: call.qs,
		body: endpoint.method === 'GET' || endpoint.method === 'DELETE' ? undefined : call.body,
		idempotencyKey: call.idempotencyKey,
		resendable: endpoint.idempotency === 'required' || endpoint.idempotency === 'sent',
		itemIndex,
		auth: endpoint.auth,
	});
	if (endpoint.output === 'run') {
		if (!isRun(body)) throw unexpectedResponse(client, `${endpoint.method} ${endpoint.path} did not return a run`, body, itemIndex);
		return call.run!.wait ? body : [{ json: body, pairedItem }];
	}
	if (endpoint.output === 'empty' || body === undefined || body === null || body === '') {
		return [{ json: { success: true }, pairedItem }];
	}
	return [{ json: body as IDataObject, pairedItem }];
}

/**
 * The shared executor of every action node: resource/operation → catalog entry, then
 * 1) read and check every item (nothing is sent if an item is invalid, unless Continue On Fail),
 * 2) send with bounded concurrency, 3) wait for all submitted runs in one loop,
 * 4) emit outputs in input order, each with pairedItem.
 */
export async function executeCatalogNode(ctx: IExecuteFunctions, node: NodeName): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	const results: INodeExecutionData[][] = items.map(() => []);
	const fail = (itemIndex: number, error: unknown) => {
		if (!ctx.continueOnFail() && !toolAnswersFailures(ctx)) throw error;
		failedItems++;
		results[itemIndex] = [errorItem(error, itemIndex)];
	};
	const auth = ctx.getNodeParameter('authentication', 0, BEARER_CREDENTIAL_TYPE);
	const client = await createClient(ctx, isCredentialType(auth) ? auth : BEARER_CREDENTIAL_TYPE);
	const scope = callScopeOf(ctx);
	const memory = new SubmitMemory(ctx, scope.runIndex);
	let failedItems = 0;

	const calls: PreparedCall[] = [];
	let models: Promise<Model[]> | undefined;
	let influencers: Promise<IDataObject[]> | undefined;
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const resource = ctx.getNodeParameter('resource', itemIndex) as string;
			const operation = ctx.getNodeParameter('operation', itemIndex) as string;
			const endpoint = findOperation(node, resource, operation);
			if (!endpoint) throw new NodeOperationError(ctx.getNode(), `Unknown operation "${resource}/${operation}"`, { itemIndex });
			const call = await prepareCall(ctx, endpoint, itemIndex, scope);
			if (endpoint.capability) models ??= listModels(client);
			const model = validateCall(ctx, call, endpoint.capability ? await models : undefined);
			const mentioned = mentionsOf(ctx, call);
			if (mentioned.length) checkMentionsReady(ctx, call, mentioned, await (influencers ??= listInfluencers(client)));
			planCost(ctx, call, model, endpoint.estimates !== undefined);
			calls.push(call);
		} catch (error) {
			fail(itemIndex, error);
		}
	}

	// Operations that turn all items into one request (a batch) run once, then the rest item by item.
	const perItem: PreparedCall[] = [];
	const grouped = new Map<string, PreparedCall[]>();
	const sendAllOf = (call: PreparedCall) => (call.run?.useBatchApi && call.endpoint.output === 'run' ? sendRunsAsBatch : customOperationFor(call.endpoint)?.sendAll);
	for (const call of calls) {
		if (!sendAllOf(call)) perItem.push(call);
		else {
			const group = `${call.endpoint.resource}.${call.endpoint.operation}`;
			grouped.set(group, [...(grouped.get(group) ?? []), call]);
		}
	}
	for (const group of grouped.values()) {
		try {
			const outputs = await sendAllOf(group[0])!(ctx, client, group, memory);
			for (const call of group) results[call.itemIndex] = outputs.get(call.itemIndex) ?? [];
		} catch (error) {
			for (const call of group) fail(call.itemIndex, error);
		}
	}

	// Execution-wide settings come from the first item (expressions per item make no sense here).
	const settings = calls.find((c) => c.run)?.run;
	if (settings) client.requestTimeoutMs = settings.requestTimeoutMs;
	const submitted: Submitted[] = [];
	await forEachLimited(perItem, settings?.concurrency ?? DEFAULT_SUBMIT_CONCURRENCY, async (call) => {
		try {
			const sent = await send(ctx, client, call, memory);
			if (Array.isArray(sent)) results[call.itemIndex] = sent;
			else submitted.push({ call, run: sent });
		} catch (error) {
			fail(call.itemIndex, error);
		}
	});

	if (submitted.length) {
		let timeout = 0;
		for (const s of submitted) timeout = Math.max(timeout, s.call.run!.waitTimeoutMs);
		// Each run's outputs are downloaded as soon as the loop sees it finish, several at a time,
		// while the loop waits for the others; results stay in input order (indexed by item).
		const downloads = new TaskPool(DOWNLOAD_CONCURRENCY);
		const byRun = new Map<string, Submitted[]>();
		for (const s of submitted) byRun.set(s.run.id, [...(byRun.get(s.run.id) ?? []), s]);
		const collect = ({ call }: Submitted, outcome: WaitOutcome) => async () => {
			try {
				if (outcome.state !== 'completed') throw outcomeError(ctx, call, outcome);
				const custom = customOperationFor(call.endpoint);
				results[call.itemIndex] = custom?.completedRun
					? await custom.completedRun(ctx, client, call, outcome.run)
					: [await completedRunItem(ctx, client, call, outcome.run)];
			} catch (error) {
				fail(call.itemIndex, error);
			}
		};
		await waitForRuns(
			client,
			submitted.map((s) => s.run),
			{ deadline: Date.now() + timeout, onSettled: (outcome) => byRun.get(outcome.run.id)?.forEach((s) => downloads.add(collect(s, outcome))) },
		);
		await downloads.drained();
	}
	// Every item done: a later try of this node run (n8n retries when the first item is an error) has nothing to replay.
	if (failedItems === 0) memory.clearRun();
	return [outputFor(ctx, results.flat())];
}
