import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { estimateOperation, findOperation, type NodeName } from '../catalog';
import { listModels, type Model } from '../models/model-catalog';
import { markReruns, sendRunsAsBatch } from '../runs/batches';
import type { PreparedCall, WaitList } from '../runs/call';
import { maxParallelSubmits } from '../runs/submit-options';
import { RUN_OPTIONS } from './description/run-options';
import { validateCall } from '../runs/check-call';
import { planCost } from '../spend/cost';
import { checkMentionsReady, listInfluencers, mentionsOf } from '../runs/mentions';
import { forEachLimited } from '../runs/pool';
import { isRun, type Run } from '../runs/run';
import { submitRun, uploadPending } from '../runs/submit';
import { SubmitMemory } from '../runs/submit-memory';
import { listAll } from '../transport/paginate';
import {
	apiRequest,
	createClient,
	learnCredentialSecrets,
	unexpectedResponse,
	type ApiClient,
} from '../transport/request';
import { customOperationFor } from '../runs/custom-operations';
import { errorItem } from '../outputs/error-item';
import { settleSharedJobs } from '../spend/jobs';
import { RunWaits } from '../waits/run-waits';
import { NodeParameters } from './node-parameters';
import { callScopeOf, prepareCall } from './parameters';
import { runJson } from '../waits/run-outputs';
import { admitWithinBudgets, sendsInOneRequest } from '../spend/admit';
import { reportSpend } from '../spend/spend-report';
import { estimateOnlyAsked, toolDeadlineOf } from '../agents/tool-call';
import { outputFor, toolAnswersFailures } from '../agents/tool-output';
import { credentialTypeOf } from '../credentials/authentication';

/** Sends one prepared call and returns its items, or a run to wait for. */
async function send(
	ctx: IExecuteFunctions,
	client: ApiClient,
	call: PreparedCall,
	memory: SubmitMemory,
	waits: WaitList,
): Promise<INodeExecutionData[] | Run> {
	const custom = customOperationFor(call.endpoint);
	if (!custom?.send && call.endpoint.output === 'run') {
		const run = await submitRun(ctx, client, call, memory);
		return call.run!.wait
			? run
			: [{ json: runJson(call, run), pairedItem: { item: call.itemIndex } }];
	}
	await uploadPending(ctx, client, call);
	if (custom?.send) return await custom.send(ctx, client, call, waits);
	const { endpoint, itemIndex } = call;
	const pairedItem = { item: itemIndex };
	if (call.list) {
		const rows = await listAll(
			client,
			{ path: call.path, qs: call.qs, itemIndex, auth: endpoint.auth },
			call.list,
		);
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
		if (!isRun(body))
			throw unexpectedResponse(
				client,
				`${endpoint.method} ${endpoint.path} did not return a run`,
				body,
				itemIndex,
			);
		return call.run!.wait ? body : [{ json: runJson(call, body), pairedItem }];
	}
	if (endpoint.output === 'empty' || body === undefined || body === null || body === '') {
		return [{ json: { success: true }, pairedItem }];
	}
	return [{ json: body as IDataObject, pairedItem }];
}

/** The calls that go out in one request (a batch), by operation, each group in input order. */
function sentTogether(calls: PreparedCall[]): Map<string, PreparedCall[]> {
	const groups = new Map<string, PreparedCall[]>();
	for (const call of calls) {
		if (!sendsInOneRequest(call)) continue;
		const group = `${call.endpoint.resource}.${call.endpoint.operation}`;
		groups.set(group, [...(groups.get(group) ?? []), call]);
	}
	return groups;
}

/**
 * The shared executor of every action node: resource/operation → catalog entry, then
 * 1) read and check every item (nothing is sent if an item is invalid, unless Continue On Fail),
 * 2) send with bounded concurrency, 3) wait for all submitted runs and batches together (in the
 * execution, or with it paused: Wait Mode), 4) emit outputs in input order, each with pairedItem.
 * What fails leaves through the one redaction step (SecretValues): no error, error item or output of
 * a failure shows a secret of the credential in use.
 */
export async function executeCatalogNode(
	ctx: IExecuteFunctions,
	node: NodeName,
): Promise<INodeExecutionData[][]> {
	const startedAt = Date.now();
	const client = await createClient(
		ctx,
		credentialTypeOf((name, fallback) => ctx.getNodeParameter(name, 0, fallback)),
	);
	try {
		const { outputs, failed } = await executeItems(ctx, node, client, startedAt);
		if (failed.size === 0) return outputs;
		// The last look at what to redact (an OAuth2 token fetched by another process), applied to
		// what a failure made: its error item, or the tool answer made of it. A successful item is
		// the user's data and is never rewritten (its prompt may hold words a secret also holds).
		await learnCredentialSecrets(client, undefined, true);
		for (const item of outputs.flat())
			if (failed.has(pairedIndexOf(item))) item.json = client.secrets.value(item.json);
		return outputs;
	} catch (error) {
		await learnCredentialSecrets(client, undefined, true);
		throw client.secrets.value(error);
	}
}

/** The input item an output item answers (-1 when it names none: a tool's summary line). */
function pairedIndexOf(item: INodeExecutionData): number {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	if (typeof paired === 'number') return paired;
	return paired?.item ?? -1;
}

async function executeItems(
	ctx: IExecuteFunctions,
	node: NodeName,
	client: ApiClient,
	startedAt: number,
): Promise<{ outputs: INodeExecutionData[][]; failed: Set<number> }> {
	const items = ctx.getInputData();
	const results: INodeExecutionData[][] = items.map(() => []);
	const failures = new Map<number, unknown>();
	const fail = (itemIndex: number, error: unknown) => {
		if (!ctx.continueOnFail() && !toolAnswersFailures(ctx)) throw error;
		failures.set(itemIndex, error);
		results[itemIndex] = [errorItem(error, itemIndex, client.secrets)];
	};
	const scope = callScopeOf(ctx);
	const memory = new SubmitMemory(ctx, scope.runIndex, scope.edition);
	const waits = new RunWaits();

	const prepared: PreparedCall[] = [];
	const parameters = new NodeParameters(ctx);
	let models: Promise<Model[]> | undefined;
	let influencers: Promise<IDataObject[]> | undefined;
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const resource = parameters.get('resource', itemIndex) as string;
			const operation = parameters.get('operation', itemIndex) as string;
			const chosen = findOperation(node, resource, operation);
			if (!chosen)
				throw new NodeOperationError(
					ctx.getNode(),
					`Unknown operation "${resource}/${operation}"`,
					{ itemIndex },
				);
			const endpoint = estimateOnlyAsked(ctx, chosen, itemIndex, parameters.asTool)
				? estimateOperation(chosen)
				: chosen;
			const call = await prepareCall(ctx, endpoint, itemIndex, scope, parameters);
			if (endpoint.capability) models ??= listModels(client);
			const model = validateCall(ctx, call, endpoint.capability ? await models : undefined);
			const mentioned = mentionsOf(ctx, call);
			if (mentioned.length)
				checkMentionsReady(ctx, call, mentioned, await (influencers ??= listInfluencers(client)));
			planCost(
				ctx,
				call,
				model,
				endpoint.estimates !== undefined,
				parameters.get(RUN_OPTIONS, itemIndex, {}) as IDataObject,
			);
			prepared.push(call);
		} catch (error) {
			fail(itemIndex, error);
		}
	}
	// Items that name one job share its run; on a retry, a batch's failed items run again; budgets
	// are checked before anything is sent.
	const jobs = settleSharedJobs(ctx, prepared, fail);
	const unread = new Set<PreparedCall>();
	for (const group of sentTogether(jobs).values()) {
		try {
			await markReruns(client, group, memory);
		} catch (error) {
			for (const call of group) {
				unread.add(call);
				fail(call.itemIndex, error);
			}
		}
	}
	const sharing = jobs.filter((call) => call.sharesRunOf !== undefined);
	const { calls, budgets } = await admitWithinBudgets(
		ctx,
		client,
		jobs.filter((call) => call.sharesRunOf === undefined && !unread.has(call)),
		memory,
		fail,
		scope.runIndex,
	);

	// Operations that turn all items into one request (a batch) run once, then the rest item by item.
	const perItem = calls.filter((call) => !sendsInOneRequest(call));
	const grouped = sentTogether(calls);
	const sendAllOf = (call: PreparedCall) =>
		call.endpoint.output === 'run' ? sendRunsAsBatch : customOperationFor(call.endpoint)?.sendAll;
	// runs waited for in the execution are waited for (and their files downloaded) as they are sent
	waits.waitAsSent({ ctx, client, results, fail });
	let allSent = false;
	try {
		for (const group of grouped.values()) {
			try {
				const outputs = await sendAllOf(group[0])!(ctx, client, group, memory, waits);
				for (const call of group) results[call.itemIndex] = outputs.get(call.itemIndex) ?? [];
			} catch (error) {
				for (const call of group) fail(call.itemIndex, error);
			}
		}

		// Execution-wide settings come from the first item (expressions per item make no sense here).
		const settings = calls.find((c) => c.run)?.run;
		if (settings) client.requestTimeoutMs = settings.requestTimeoutMs;
		const sent = new Map<number, { run?: Run; items?: INodeExecutionData[]; error?: unknown }>();
		await forEachLimited(
			perItem,
			settings?.concurrency ?? maxParallelSubmits.spec.default,
			async (call) => {
				try {
					const outcome = await send(ctx, client, call, memory, waits);
					if (Array.isArray(outcome)) results[call.itemIndex] = outcome;
					else waits.addRun(call, outcome);
					sent.set(call.itemIndex, Array.isArray(outcome) ? { items: outcome } : { run: outcome });
				} catch (error) {
					sent.set(call.itemIndex, { error });
					fail(call.itemIndex, error);
				}
			},
		);
		for (const call of sharing) {
			// the item whose run this one shares: sent, or refused before sending (a budget)
			const leader = sent.get(call.sharesRunOf!) ?? { error: failures.get(call.sharesRunOf!) };
			if (leader.error !== undefined) fail(call.itemIndex, leader.error);
			else if (leader.run) waits.addRun(call, leader.run);
			else
				results[call.itemIndex] = (leader.items ?? []).map((item) => ({
					...item,
					pairedItem: { item: call.itemIndex },
				}));
		}
		allSent = true;
	} finally {
		// sending failed and the node stops: the wait that began ends with it
		if (!allSent) await waits.abandon();
	}

	const paused = await waits.settle(ctx, client, results, fail, toolDeadlineOf(ctx, startedAt));
	// Every item done: a later try of this node run (n8n retries when the first item is an error) has nothing to replay.
	if (failures.size === 0) memory.clearRun();
	reportSpend(
		ctx,
		[...calls, ...sharing],
		paused ? undefined : results,
		budgets,
		memory.editedItems,
	);
	return {
		outputs: [paused ?? (await outputFor(ctx, client, calls, results.flat()))],
		failed: new Set(failures.keys()),
	};
}
