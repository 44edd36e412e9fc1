import { NodeOperationError, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import { uploadBinary } from '../media/upload';
import { keyAfterFailedRun, successorKey } from '../transport/idempotency';
import { problemOf } from '../transport/problem';
import { apiRequest, unexpectedResponse, type ApiClient } from '../transport/request';
import type { PreparedCall } from './call';
import { acceptableFreshQuote, bindQuote } from './quote';
import { isRun, type Run } from './run';
import type { SubmitMemory } from './submit-memory';

/** Uploads a call's pending binaries and puts their asset URLs into its body: the one place uploads happen. */
export async function uploadPending(
	ctx: IExecuteFunctions,
	client: ApiClient,
	call: PreparedCall,
): Promise<void> {
	for (const upload of call.uploads) upload.assign(await uploadBinary(client, ctx, upload.input));
	call.uploads = [];
}

/** A refusal after which the service holds nothing under the key (so a new request may follow). */
export function refusedOutright(error: unknown): boolean {
	const problem = problemOf(error);
	const status = Number(problem?.status);
	return (
		Number.isInteger(status) &&
		status >= 400 &&
		status < 500 &&
		status !== 408 &&
		status !== 429 &&
		problem?.code !== 'idempotency_key_reused'
	);
}

function withReuseHint(error: unknown, call: PreparedCall): unknown {
	if (problemOf(error)?.code === 'idempotency_key_reused') {
		const described = error as { description?: string };
		const why = call.job
			? `Job "${call.job}" (Options → Idempotency Key) was submitted before with other parameters${call.quote?.bound ? ' or another quote (Max Credits binds a fresh quote on each execution)' : ''}: no new run was created and nothing more is charged; its run is in MediaGen Run → List. To make it again, give it another Idempotency Key.`
			: 'An earlier try of this item was accepted with other parameters; that run goes on and is charged once (MediaGen Run → List shows it).';
		described.description = [described.description, why].filter(Boolean).join(' · ');
	}
	return error;
}

function outcomeUnknown(ctx: IExecuteFunctions, call: PreparedCall): NodeOperationError {
	const error = new NodeOperationError(
		ctx.getNode(),
		`${call.endpoint.name}: an earlier try of this item was sent but its answer was lost; the node does not send it again`,
		{
			itemIndex: call.itemIndex,
			description:
				'The API document does not promise that this route replays a repeated request, so sending it again could pay twice. Check MediaGen Run → List for a run it may have created.',
		},
	);
	error.context.problem = { code: 'submit_outcome_unknown' } as JsonObject;
	return error;
}

async function readRun(client: ApiClient, id: string, itemIndex: number): Promise<Run> {
	const { body } = await apiRequest<unknown>(client, {
		method: 'GET',
		path: `/runs/${encodeURIComponent(id)}`,
		itemIndex,
	});
	if (!isRun(body))
		throw unexpectedResponse(client, `GET /runs/${id} did not return a run`, body, itemIndex);
	return body;
}

/**
 * Submits one generating call so that it is paid for at most once, whatever fails and however often
 * n8n retries the node: an earlier try's accepted run is waited for instead of submitted again (a
 * run that failed at the service is submitted again, as a new job); an earlier try whose answer was lost is resent exactly (same body and key: the service replays the
 * original run); a first try uploads its binaries, binds a quote under Max Credits and is recorded
 * before it leaves. A stale quote is replaced once when the fresh one fits Max Credits.
 */
export async function submitRun(
	ctx: IExecuteFunctions,
	client: ApiClient,
	call: PreparedCall,
	memory: SubmitMemory,
): Promise<Run> {
	const { route, itemIndex } = call;
	const resendable =
		call.endpoint.idempotency === 'required' || call.endpoint.idempotency === 'sent';
	let earlier = memory.recall(route, itemIndex, call.identity);
	if (earlier?.createdId) {
		const run = await readRun(client, earlier.createdId, itemIndex);
		if (run.status !== 'failed') {
			call.quote = earlier.quote;
			return run;
		}
		// failed at the service (nothing charged, never to complete): the retry is a new job under a
		// key of its own, or the service would answer it with the failed run again
		memory.forget(route, itemIndex);
		if (call.idempotencyKey) call.idempotencyKey = keyAfterFailedRun(earlier.key, run.id);
		earlier = undefined;
	}
	if (earlier) {
		if (!resendable) throw outcomeUnknown(ctx, call);
		Object.assign(call, {
			path: earlier.path,
			qs: earlier.qs,
			body: earlier.body,
			idempotencyKey: earlier.key,
			uploads: [],
			quote: earlier.quote,
		});
	} else {
		await uploadPending(ctx, client, call);
		await bindQuote(ctx, client, call);
	}
	for (let attempt = 1; ; attempt++) {
		memory.remember(route, itemIndex, {
			key: call.idempotencyKey ?? '',
			path: call.path,
			qs: call.qs,
			body: call.body,
			...(call.identity ? { identity: call.identity } : {}),
			...(call.quote ? { quote: call.quote } : {}),
		});
		try {
			const { body } = await apiRequest<unknown>(client, {
				method: call.endpoint.method,
				path: call.path,
				qs: call.qs,
				body: call.body,
				idempotencyKey: call.idempotencyKey,
				resendable,
				itemIndex,
			});
			if (!isRun(body))
				throw unexpectedResponse(client, `${call.route} did not return a run`, body, itemIndex);
			memory.created(route, itemIndex, body.id);
			return body;
		} catch (error) {
			if (refusedOutright(error)) memory.forget(route, itemIndex);
			const fresh = attempt === 1 ? acceptableFreshQuote(call, error) : undefined;
			if (!fresh) throw withReuseHint(error, call);
			call.body.quote_token = fresh.quote_token;
			if (call.idempotencyKey) call.idempotencyKey = successorKey(call.idempotencyKey, attempt);
		}
	}
}
