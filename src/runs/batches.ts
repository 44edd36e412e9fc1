import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type IWebhookFunctions,
} from 'n8n-workflow';

import { catalog, endpointKey } from '../catalog';
import { WORKFLOW_KEYS } from '../catalog/workflows';
import { downloadOutputs } from '../media/download';
import { simplifiedBatchItem } from '../outputs/simplify';
import { listAll } from '../transport/paginate';
import { problemError } from '../transport/problem';
import { apiRequest, unexpectedResponse, type ApiClient } from '../transport/request';
import type { BatchPairing, PreparedCall, WaitList } from './call';
import { readRunsOnce } from './read-runs';
import type { Batch, BatchItem, Run } from './run';
import { outputFiles } from '../outputs/output-files';
import { refusedOutright, uploadPending } from './submit';
import type { SubmitMemory } from './submit-memory';
import { NOTHING_SPENT } from '../options/nothing-spent';
import { checkWorkflowInputs } from './workflow-inputs';

const FINISHED = new Set(['completed', 'failed', 'partial']);

export function isBatchFinished(batch: Batch): boolean {
	return FINISHED.has(batch.status);
}

export function isBatch(value: unknown): value is Batch {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as Batch).id === 'string' &&
		typeof (value as Batch).status === 'string'
	);
}

/** The error of a batch still running when the wait ended (at its deadline, or cancelled). */
export async function readBatch(
	client: ApiClient,
	batchId: string,
	itemIndex?: number,
): Promise<Batch> {
	const { body } = await apiRequest<unknown>(client, {
		method: 'GET',
		path: `/batches/${encodeURIComponent(batchId)}`,
		itemIndex,
	});
	if (!isBatch(body))
		throw unexpectedResponse(
			client,
			`GET /batches/${batchId} did not return a batch`,
			body,
			itemIndex,
		);
	return body;
}

export async function listBatchItems(
	client: ApiClient,
	batchId: string,
	itemIndex: number,
): Promise<BatchItem[]> {
	const rows = await listAll(
		client,
		{ path: `/batches/${encodeURIComponent(batchId)}/items`, itemIndex },
		{ returnAll: true, limit: 0 },
	);
	return (rows as BatchItem[]).sort((a, b) => a.index - b.index);
}

/** What the node sent for a batch item: its Item Body (Create From Items), or the item's own request (Use Batch API). */
function sentOf(call: PreparedCall | undefined): IDataObject | undefined {
	const item = call?.body.item;
	return typeof item === 'object' && item !== null && !Array.isArray(item)
		? (item as IDataObject)
		: call?.body;
}

/**
 * One output item per batch item: simplified as the run of its target (src/outputs/simplify.ts), or
 * the item as JSON (with output_urls); its files as binary when asked. `sent` is the call it came from, where known.
 */
async function batchItemOutput(
	ctx: IExecuteFunctions | IWebhookFunctions,
	client: ApiClient,
	call: PreparedCall,
	batch: Batch,
	item: BatchItem,
	pairedTo: number,
	sent: PreparedCall | undefined,
): Promise<INodeExecutionData> {
	const settings = call.run!;
	const files = item.status === 'completed' ? outputFiles(item.output) : [];
	const json: IDataObject = settings.simplify
		? simplifiedBatchItem(item, batch, { sent: sentOf(sent) })
		: {
				...item,
				batch_id: item.batch_id ?? batch.id,
				batch_status: batch.status,
				output_urls: files.map((f) => f.url),
			};
	if (settings.returnUrlsOnly || !settings.wait || files.length === 0)
		return { json, pairedItem: { item: pairedTo } };
	const binary = await downloadOutputs(ctx, files, settings.binaryPropertyName, client.baseUrl, {
		runId: item.id,
		maxBytes: settings.maxOutputBytes,
		signal: client.signal,
	});
	return { json, binary, pairedItem: { item: pairedTo } };
}

/**
 * The outputs of a finished batch by input item: batch item i goes to `calls[i]`'s input item
 * (a batch made from the items), or every batch item to `calls[0]`'s (a batch the item named).
 */
export async function batchOutputs(
	ctx: IExecuteFunctions | IWebhookFunctions,
	client: ApiClient,
	calls: PreparedCall[],
	batch: Batch,
	pairing: BatchPairing,
): Promise<BatchResults> {
	const [first] = calls;
	const items = await listBatchItems(client, batch.id, first.itemIndex);
	await addCharges(client, items);
	return await outputsOf(ctx, client, calls, batch, items, pairing);
}

/**
 * A batch item does not say what its run was charged (the BatchItem of the document has no usage):
 * the completed items' runs are read once (GET /runs pages) and their `usage` put on the items, so
 * each output item shows its charge as a single run's does. A read that fails leaves them as they are.
 */
async function addCharges(client: ApiClient, items: BatchItem[]): Promise<void> {
	const runIds = items
		.filter(
			(item) =>
				item.status === 'completed' && typeof item.run_id === 'string' && item.usage === undefined,
		)
		.map((item) => item.run_id as string);
	if (runIds.length === 0) return;
	const runs = await readRunsOnce(client, runIds).catch(() => new Map<string, Run>());
	for (const item of items) {
		const usage = typeof item.run_id === 'string' ? runs.get(item.run_id)?.usage : undefined;
		if (usage) item.usage = usage;
	}
}

/** Whether a call went out in a batch only because of Use Batch API: its item is then a run like any other. */
const sentWithBatchApi = (call: PreparedCall | undefined) => call?.endpoint.output === 'run';

/**
 * The error of a batch item that failed at the service, for a call sent with Use Batch API: the
 * same as its run's failure would be without the option (the item fails; Retry On Fail and n8n's
 * Retry run it again). A batch the user made (Create From Items) outputs its failed items instead.
 */
function failedItemError(
	ctx: IExecuteFunctions | IWebhookFunctions,
	batch: Batch,
	item: BatchItem,
	itemIndex: number,
): Error {
	const failure = (item.error ?? {}) as { code?: unknown; message?: unknown };
	return problemError(
		ctx.getNode(),
		{
			code: typeof failure.code === 'string' ? failure.code : 'run_failed',
			title: `Batch item ${item.index} of batch ${batch.id} failed`,
			detail: typeof failure.message === 'string' ? failure.message : undefined,
			batch_id: batch.id,
			...(typeof item.run_id === 'string' ? { run_id: item.run_id } : {}),
		},
		undefined,
		itemIndex,
	);
}

/** What a finished batch gives each input item: its output items, or (Use Batch API) its item's failure. */
export interface BatchResults {
	outputs: Map<number, INodeExecutionData[]>;
	failures: Map<number, Error>;
}

/** The output items by input item: batch item i from (and paired to) `calls[i]` ('byIndex'), or all to `calls[0]`'s ('one'). */
async function outputsOf(
	ctx: IExecuteFunctions | IWebhookFunctions,
	client: ApiClient,
	calls: PreparedCall[],
	batch: Batch,
	items: BatchItem[],
	pairing: BatchPairing,
): Promise<BatchResults> {
	const [first] = calls;
	const onlyFailed = first.settings.only_failed === true;
	const outputs = new Map<number, INodeExecutionData[]>();
	const failures = new Map<number, Error>();
	for (const item of items) {
		if (onlyFailed && item.status !== 'failed') continue;
		const from = pairing === 'byIndex' ? calls[item.index] : undefined;
		const pairedTo = from?.itemIndex ?? first.itemIndex;
		if (item.status === 'failed' && sentWithBatchApi(from)) {
			failures.set(pairedTo, failedItemError(ctx, batch, item, pairedTo));
			continue;
		}
		outputs.set(pairedTo, [
			...(outputs.get(pairedTo) ?? []),
			await batchItemOutput(ctx, client, first, batch, item, pairedTo, from),
		]);
	}
	return { outputs, failures };
}

function sameSetting(ctx: IExecuteFunctions, calls: PreparedCall[], name: string): unknown {
	const first = calls[0].body[name];
	const other = calls.find((c) => c.body[name] !== first);
	if (other) {
		const label = calls[0].endpoint.fields.find((f) => f.name === name)?.displayName ?? name;
		throw new NodeOperationError(
			ctx.getNode(),
			`${label}: every item of one batch needs the same ${label} ("${String(first)}" on item 0, "${String(other.body[name])}" on item ${other.itemIndex}); allowed: one value for all items`,
			{
				itemIndex: other.itemIndex,
				description: `${NOTHING_SPENT} (API field ${name}.)`,
			},
		);
	}
	return first;
}

/**
 * Sends ONE batch for many input items (batch item i = calls[i]) with the first item's key, then,
 * unless told not to wait, waits for it and outputs one item per batch item, paired to its input
 * item. Like a single submit, the batch is recorded before it leaves: a retry of the node resends
 * the same body (with the asset URLs of its first uploads) or, once created, only waits for it.
 */
async function submitBatch(
	ctx: IExecuteFunctions,
	client: ApiClient,
	calls: PreparedCall[],
	memory: SubmitMemory,
	waits: WaitList,
	makeBody: () => IDataObject,
): Promise<Map<number, INodeExecutionData[]>> {
	const first = calls[0];
	const route = 'POST /batches';
	const earlier = memory.recall(route, first.itemIndex);
	let created: Batch;
	if (earlier?.createdId) {
		for (const call of calls) if (call.rerun) await rerunItem(client, call, call.rerun);
		created = await readBatch(client, earlier.createdId, first.itemIndex);
	} else {
		let body: IDataObject;
		const idempotencyKey = earlier?.key ?? first.idempotencyKey!;
		if (earlier) body = earlier.body;
		else {
			for (const call of calls) await uploadPending(ctx, client, call);
			body = makeBody();
		}
		memory.remember(route, first.itemIndex, {
			key: idempotencyKey,
			path: '/batches',
			qs: {},
			body,
		});
		const answer = await apiRequest<unknown>(client, {
			method: 'POST',
			path: '/batches',
			body,
			idempotencyKey,
			itemIndex: first.itemIndex,
		}).catch((error: unknown) => {
			if (refusedOutright(error)) memory.forget(route, first.itemIndex);
			throw error;
		});
		if (!isBatch(answer.body))
			throw unexpectedResponse(
				client,
				'POST /batches did not return a batch',
				answer.body,
				first.itemIndex,
			);
		created = answer.body;
		memory.created(route, first.itemIndex, created.id);
	}
	if (!first.run!.wait) {
		const items = Array.isArray(created.items)
			? (created.items as BatchItem[])
			: await listBatchItems(client, created.id, first.itemIndex);
		// not waited for: what each item is now (a failed one is reported as it is)
		return (await outputsOf(ctx, client, calls, created, items, 'byIndex')).outputs;
	}
	waits.addBatch(calls, created, 'byIndex');
	return new Map();
}

/**
 * On a retry of the node (Retry On Fail, n8n's Retry) whose batch the service already made: the
 * batch items that failed at the service (a failed run is not charged) are marked to run again on
 * their calls (`rerun`), so that budgets price them before anything is sent. `group` is the calls
 * of one batch, in the order of its items.
 */
export async function markReruns(
	client: ApiClient,
	group: PreparedCall[],
	memory: SubmitMemory,
): Promise<void> {
	const earlier = memory.recall('POST /batches', group[0].itemIndex);
	if (!earlier?.createdId) return;
	for (const item of await listBatchItems(client, earlier.createdId, group[0].itemIndex)) {
		const call = group[item.index];
		if (item.status === 'failed' && call)
			call.rerun = { batchId: earlier.createdId, itemId: item.id };
	}
}

/** Runs a failed batch item again (the document's route applies to a failed item only, so a resend cannot run it twice). */
async function rerunItem(
	client: ApiClient,
	call: PreparedCall,
	rerun: { batchId: string; itemId: string },
): Promise<void> {
	await apiRequest<unknown>(client, {
		method: 'POST',
		path: `/batches/${encodeURIComponent(rerun.batchId)}/items/${encodeURIComponent(rerun.itemId)}/retry`,
		itemIndex: call.itemIndex,
	});
}

/** Operation names a batch can target: the generating submits, as the document's tables write them. */
export const BATCH_OPERATIONS: readonly string[] = catalog
	.filter((e) => e.output === 'run' && e.method === 'POST')
	.map(endpointKey);

/**
 * The target as the service takes it (README: Assumptions): in mode operation an operation name
 * ("POST /images/generations"; a path alone, as earlier versions wrote it, is read as that POST);
 * in mode workflow a workflow key. Anything else is refused before sending, naming the choices.
 */
function batchTarget(
	ctx: IExecuteFunctions,
	call: PreparedCall,
	mode: string,
	raw: string,
): string {
	const value = raw.trim();
	if (mode === 'workflow') {
		if ((WORKFLOW_KEYS as readonly string[]).includes(value)) return value;
		throw new NodeOperationError(
			ctx.getNode(),
			`Target: "${value}" is not a workflow; allowed: ${WORKFLOW_KEYS.join(', ')}`,
			{
				itemIndex: call.itemIndex,
				description: `${NOTHING_SPENT} (API field target.)`,
			},
		);
	}
	const name = /^[A-Z]+\s/.test(value)
		? value.replace(/\s+/, ' ')
		: `POST /${value.replace(/^\/+/, '')}`;
	if (BATCH_OPERATIONS.includes(name)) return name;
	throw new NodeOperationError(
		ctx.getNode(),
		`Target: "${value}" is not a generating operation; allowed: an operation name such as POST /images/generations or POST /videos/generations`,
		{
			itemIndex: call.itemIndex,
			description: `${NOTHING_SPENT} All operation names: ${BATCH_OPERATIONS.join(', ')}. (API field target.)`,
		},
	);
}

/** MediaGen Batch → Create From Items: each input item's "Item Body" becomes one batch item. */
export async function createBatchFromItems(
	ctx: IExecuteFunctions,
	client: ApiClient,
	calls: PreparedCall[],
	memory: SubmitMemory,
	waits: WaitList,
): Promise<Map<number, INodeExecutionData[]>> {
	for (const call of calls) {
		const item = call.body.item;
		if (typeof item !== 'object' || item === null || Array.isArray(item)) {
			throw new NodeOperationError(
				ctx.getNode(),
				'Item Body: must be a JSON object; allowed: an object such as {"prompt": "…"}, the body the Target takes',
				{
					itemIndex: call.itemIndex,
					description: `${NOTHING_SPENT} (API field item.)`,
				},
			);
		}
	}
	const mode = sameSetting(ctx, calls, 'mode') as string;
	const target = batchTarget(ctx, calls[0], mode, String(sameSetting(ctx, calls, 'target') ?? ''));
	if (mode === 'workflow')
		for (const call of calls)
			checkWorkflowInputs(ctx, call.itemIndex, target, call.body.item as IDataObject, 'Item Body');
	const concurrency = sameSetting(ctx, calls, 'concurrency');
	return await submitBatch(ctx, client, calls, memory, waits, () => ({
		mode,
		target,
		items: calls.map((c) => c.body.item as IDataObject),
		...(concurrency !== undefined ? { concurrency: concurrency as number } : {}),
	}));
}

/**
 * The "Use Batch API" option of generating operations: the items' requests (already checked
 * against the model) go as one operation batch instead of one submit each.
 */
export async function sendRunsAsBatch(
	ctx: IExecuteFunctions,
	client: ApiClient,
	calls: PreparedCall[],
	memory: SubmitMemory,
	waits: WaitList,
): Promise<Map<number, INodeExecutionData[]>> {
	const { endpoint } = calls[0];
	return await submitBatch(ctx, client, calls, memory, waits, () => ({
		mode: 'operation',
		// an operation name as the document's endpoint tables write it (README: Assumptions)
		target: endpointKey(endpoint),
		// each item names the model its quote priced: a queued item then echoes it, so budgets can price it
		items: calls.map((c) =>
			c.cost?.model && c.body.model === undefined ? { ...c.body, model: c.cost.model } : c.body,
		),
		concurrency: calls[0].run!.concurrency,
	}));
}

/** MediaGen Batch → Wait for Completion: reads the batch and holds it; its outputs are one item per batch item. */
export async function waitForBatchItems(
	_ctx: IExecuteFunctions,
	client: ApiClient,
	call: PreparedCall,
	waits: WaitList,
): Promise<INodeExecutionData[]> {
	const { body } = await apiRequest<unknown>(client, {
		method: 'GET',
		path: call.path,
		itemIndex: call.itemIndex,
	});
	if (!isBatch(body))
		throw unexpectedResponse(
			client,
			`GET ${call.path} did not return a batch`,
			body,
			call.itemIndex,
		);
	waits.addBatch([call], body, 'one');
	return [];
}
