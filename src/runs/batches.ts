import {
	NodeOperationError,
	type IBinaryKeyData,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type JsonObject,
} from 'n8n-workflow';

import { downloadOutput } from '../media/download';
import type { PreparedCall } from '../node/parameters';
import { deriveIdempotencyKey } from '../transport/idempotency';
import { listAll } from '../transport/paginate';
import { pause } from '../transport/pause';
import { apiRequest, unexpectedResponse, type ApiClient } from '../transport/request';
import { outputFiles, type Run } from './run';

/** A batch as the service returns it (the Batch resource of the API document). */
export interface Batch extends IDataObject {
	id: string;
	status: 'queued' | 'processing' | 'completed' | 'failed' | 'partial';
	total_items?: number;
	completed_items?: number;
	failed_items?: number;
}

export interface BatchItem extends IDataObject {
	id: string;
	index: number;
	status: string;
	output?: IDataObject | null;
	error?: IDataObject | null;
}

const FINISHED = new Set(['completed', 'failed', 'partial']);

export function isBatchFinished(batch: Batch): boolean {
	return FINISHED.has(batch.status);
}

function isBatch(value: unknown): value is Batch {
	return typeof value === 'object' && value !== null && typeof (value as Batch).id === 'string' && typeof (value as Batch).status === 'string';
}

/**
 * Polls GET /batches/{id} until the batch is completed, failed or partial (back-off from 1 s to
 * 10 s, honouring Retry-After), stopping at the deadline or when the execution is cancelled.
 */
export async function waitForBatch(ctx: IExecuteFunctions, client: ApiClient, batch: Batch, deadline: number, itemIndex: number): Promise<Batch> {
	let current = batch;
	let interval = 1000;
	while (!isBatchFinished(current)) {
		const wake = Math.min(Date.now() + interval, deadline);
		if (!(await pause(Math.max(0, wake - Date.now()), client.signal)) || Date.now() >= deadline) {
			const cancelled = client.signal?.aborted === true;
			const error = new NodeOperationError(
				ctx.getNode(),
				cancelled ? `Waiting for batch ${current.id} stopped: the execution was cancelled` : `Batch ${current.id} is still ${current.status} when the wait timed out`,
				{ itemIndex, description: 'The batch goes on at the service. Raise "Wait Timeout" or use MediaGen Batch → Wait for Completion later.' },
			);
			error.context.problem = { code: cancelled ? 'cancelled' : 'wait_timeout', batch_id: current.id } as JsonObject;
			throw error;
		}
		const { body, headers } = await apiRequest<unknown>(client, { method: 'GET', path: `/batches/${encodeURIComponent(current.id)}`, itemIndex });
		if (!isBatch(body)) throw unexpectedResponse(client, `GET /batches/${current.id} did not return a batch`, body, itemIndex);
		current = body;
		const retryAfter = Number(headers['retry-after']);
		interval = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : Math.min(10_000, interval * 1.5);
	}
	return current;
}

export async function listBatchItems(client: ApiClient, batchId: string, itemIndex: number): Promise<BatchItem[]> {
	const rows = await listAll(client, { path: `/batches/${encodeURIComponent(batchId)}/items`, itemIndex }, { returnAll: true, limit: 0 });
	return (rows as BatchItem[]).sort((a, b) => a.index - b.index);
}

/** One output item per batch item: the item as JSON (with output_urls), its files as binary when asked. */
async function batchItemOutput(ctx: IExecuteFunctions, call: PreparedCall, batch: Batch, item: BatchItem, pairedTo: number): Promise<INodeExecutionData> {
	const settings = call.run!;
	const files = item.status === 'completed' ? outputFiles({ id: item.id, object: 'batch_item', status: 'completed', output: item.output ?? null } as Run) : [];
	const json: IDataObject = { ...item, batch_id: item.batch_id ?? batch.id, batch_status: batch.status, output_urls: files.map((f) => f.url) };
	if (settings.returnUrlsOnly || !settings.wait || files.length === 0) return { json, pairedItem: { item: pairedTo } };
	const binary: IBinaryKeyData = {};
	for (const [index, file] of files.entries()) {
		const key = index === 0 ? settings.binaryPropertyName : `${settings.binaryPropertyName}_${index}`;
		binary[key] = await downloadOutput(ctx, file, `${item.id}${index ? `_${index}` : ''}`);
	}
	return { json, binary, pairedItem: { item: pairedTo } };
}

async function outputsOf(ctx: IExecuteFunctions, call: PreparedCall, batch: Batch, items: BatchItem[], pairing: (item: BatchItem) => number): Promise<Map<number, INodeExecutionData[]>> {
	const onlyFailed = call.settings.only_failed === true;
	const outputs = new Map<number, INodeExecutionData[]>();
	for (const item of items) {
		if (onlyFailed && item.status !== 'failed') continue;
		const pairedTo = pairing(item);
		outputs.set(pairedTo, [...(outputs.get(pairedTo) ?? []), await batchItemOutput(ctx, call, batch, item, pairedTo)]);
	}
	return outputs;
}

function sameSetting(ctx: IExecuteFunctions, calls: PreparedCall[], name: string): unknown {
	const first = calls[0].body[name];
	const other = calls.find((c) => c.body[name] !== first);
	if (other) {
		throw new NodeOperationError(ctx.getNode(), `${name}: every item of one batch needs the same ${name} ("${String(first)}" on item 0, "${String(other.body[name])}" on item ${other.itemIndex})`, {
			itemIndex: other.itemIndex,
		});
	}
	return first;
}

/**
 * Sends ONE batch for many input items (batch item i = calls[i]) with one Idempotency-Key derived
 * from the whole batch, then, unless told not to wait, waits for it and outputs one item per
 * batch item, paired to its input item.
 */
async function submitBatch(ctx: IExecuteFunctions, client: ApiClient, calls: PreparedCall[], body: IDataObject): Promise<Map<number, INodeExecutionData[]>> {
	const first = calls[0];
	const ownKey = (ctx.getNodeParameter('options', first.itemIndex, {}) as IDataObject).idempotencyKey;
	const idempotencyKey = ownKey
		? String(ownKey)
		: deriveIdempotencyKey(
				{
					workflowId: String(ctx.getWorkflow().id ?? ''),
					executionId: String(ctx.getExecutionId() ?? ''),
					nodeName: ctx.getNode().name,
					itemIndex: 0,
					route: 'POST /batches',
				},
				{ body },
			);
	const { body: created } = await apiRequest<unknown>(client, { method: 'POST', path: '/batches', body, idempotencyKey, itemIndex: first.itemIndex });
	if (!isBatch(created)) throw unexpectedResponse(client, 'POST /batches did not return a batch', created, first.itemIndex);
	const byIndex = (item: BatchItem) => calls[item.index]?.itemIndex ?? first.itemIndex;
	if (!first.run!.wait) {
		const items = Array.isArray(created.items) ? (created.items as BatchItem[]) : [];
		return await outputsOf(ctx, first, created, items, byIndex);
	}
	const finished = await waitForBatch(ctx, client, created, Date.now() + first.run!.waitTimeoutMs, first.itemIndex);
	return await outputsOf(ctx, first, finished, await listBatchItems(client, finished.id, first.itemIndex), byIndex);
}

/** MediaGen Batch → Create From Items: each input item's "Item Body" becomes one batch item. */
export async function createBatchFromItems(ctx: IExecuteFunctions, client: ApiClient, calls: PreparedCall[]): Promise<Map<number, INodeExecutionData[]>> {
	for (const call of calls) {
		const item = call.body.item;
		if (typeof item !== 'object' || item === null || Array.isArray(item)) {
			throw new NodeOperationError(ctx.getNode(), 'Item Body (item): must be a JSON object (the body the target takes)', { itemIndex: call.itemIndex });
		}
	}
	const body: IDataObject = {
		mode: sameSetting(ctx, calls, 'mode') as string,
		target: sameSetting(ctx, calls, 'target') as string,
		items: calls.map((c) => c.body.item as IDataObject),
	};
	const concurrency = sameSetting(ctx, calls, 'concurrency');
	if (concurrency !== undefined) body.concurrency = concurrency as number;
	return await submitBatch(ctx, client, calls, body);
}

/**
 * The "Use Batch API" option of generating operations: the items' requests (already checked
 * against the model) go as one operation batch instead of one submit each.
 */
export async function sendRunsAsBatch(ctx: IExecuteFunctions, client: ApiClient, calls: PreparedCall[]): Promise<Map<number, INodeExecutionData[]>> {
	const { endpoint } = calls[0];
	const body: IDataObject = {
		mode: 'operation',
		target: endpoint.path.replace(/^\//, ''),
		items: calls.map((c) => c.body),
		concurrency: calls[0].run!.concurrency,
	};
	return await submitBatch(ctx, client, calls, body);
}

/** MediaGen Batch → Wait for Completion: waits for a batch, then one item per batch item. */
export async function waitForBatchItems(ctx: IExecuteFunctions, client: ApiClient, call: PreparedCall): Promise<INodeExecutionData[]> {
	const { body } = await apiRequest<unknown>(client, { method: 'GET', path: call.path, itemIndex: call.itemIndex });
	if (!isBatch(body)) throw unexpectedResponse(client, `GET ${call.path} did not return a batch`, body, call.itemIndex);
	const finished = await waitForBatch(ctx, client, body, Date.now() + call.run!.waitTimeoutMs, call.itemIndex);
	const outputs = await outputsOf(ctx, call, finished, await listBatchItems(client, finished.id, call.itemIndex), () => call.itemIndex);
	return outputs.get(call.itemIndex) ?? [];
}
