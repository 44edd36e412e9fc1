import { NodeOperationError, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import { isBatch, isBatchFinished } from '../runs/batches';
import type { Batch } from '../runs/run';
import { isOutage } from '../transport/problem';
import { apiRequest, unexpectedResponse, type ApiClient } from '../transport/request';
import { sleep } from '../transport/sleep';
import { POLL_RETRY_LIMITS } from './wait-loop';
import { OUTAGE_FIRST_PAUSE_MS } from './wait-schedule';

// Waiting in the execution for a batch (MediaGen Batch, Use Batch API): polled on its own, since a
// batch reports its items' progress in one resource.

const MAX_POLL_MS = 10_000;

export function batchWaitError(
	ctx: Pick<IExecuteFunctions, 'getNode'>,
	batch: Batch,
	itemIndex: number,
	cancelled: boolean,
): NodeOperationError {
	const error = new NodeOperationError(
		ctx.getNode(),
		cancelled
			? `Waiting for batch ${batch.id} stopped: the execution was cancelled`
			: `Batch ${batch.id} did not finish before the wait timed out`,
		{
			itemIndex,
			description:
				'The batch goes on at the service. Raise "Wait Timeout" or use MediaGen Batch → Wait for Completion later.',
		},
	);
	error.context.problem = {
		code: cancelled ? 'cancelled' : 'wait_timeout',
		batch_id: batch.id,
	} as JsonObject;
	return error;
}

/**
 * Polls GET /batches/{id} until the batch is completed, failed or partial (back-off from 1 s to
 * 10 s, honouring Retry-After), stopping at the deadline or when the execution is cancelled.
 */
export async function waitForBatch(
	ctx: IExecuteFunctions,
	client: ApiClient,
	batch: Batch,
	deadline: number,
	itemIndex: number,
): Promise<Batch> {
	let current = batch;
	let interval = 1000;
	let outagePause = 0;
	while (!isBatchFinished(current)) {
		const wake = Math.min(Date.now() + interval, deadline);
		if (!(await sleep(Math.max(0, wake - Date.now()), client.signal)) || Date.now() >= deadline) {
			throw batchWaitError(ctx, current, itemIndex, client.signal?.aborted === true);
		}
		const read = await apiRequest<unknown>(client, {
			method: 'GET',
			path: `/batches/${encodeURIComponent(current.id)}`,
			itemIndex,
			retryLimits: POLL_RETRY_LIMITS,
		}).catch((error: unknown) => {
			// an outage: the batch goes on at the service, so keep waiting, more slowly each time
			if (isOutage(error)) return undefined;
			throw error;
		});
		if (!read) {
			outagePause = Math.min(MAX_POLL_MS, Math.max(OUTAGE_FIRST_PAUSE_MS, outagePause * 2));
			interval = outagePause;
			continue;
		}
		outagePause = 0;
		if (!isBatch(read.body))
			throw unexpectedResponse(
				client,
				`GET /batches/${current.id} did not return a batch`,
				read.body,
				itemIndex,
			);
		current = read.body;
		const retryAfter = Number(read.headers['retry-after']);
		interval =
			Number.isFinite(retryAfter) && retryAfter > 0
				? Math.min(MAX_POLL_MS, retryAfter * 1000)
				: Math.min(MAX_POLL_MS, interval * 1.5);
	}
	return current;
}
