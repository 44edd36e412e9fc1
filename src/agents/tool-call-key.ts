import { createHash } from 'node:crypto';

import { canonicalJson } from '../transport/canonical-json';

/** Where a tool's request is made: the workflow's tool node, never the execution that runs it. */
export interface ToolCallScope {
	workflowId: string;
	nodeName: string;
	itemIndex: number;
	/** method and path template of the operation */
	route: string;
}

/** What the tool was asked to do: the request as read from its inputs, before anything is sent. */
export interface ToolCallRequest {
	path: string;
	qs: object;
	body: object;
}

/**
 * Body fields that do not change which job is asked for: a quote only binds its price (a model
 * that estimates twice holds two tokens for one job), so a second call for the same job with
 * another quote is refused by the service as a reused key instead of paying twice.
 */
const NOT_THE_JOB = new Set(['quote_token']);

/**
 * The Idempotency-Key of a tool call: derived from the tool node and what it was asked, never from
 * the execution. Each call of a tool is an execution of its own — n8n's MCP Server Trigger even runs
 * it with no execution id and a fresh run index every time — so a key derived from the execution
 * would either be new on every call (a client that asks again for the same job pays again) or the
 * same for every call (MCP: a second, different job refused as a reused key). The inputs are what
 * stays the same when a model asks again for the same job: the service then answers with the
 * original run and charges nothing more (it keeps keys at least 24 hours, decisions.md).
 */
export function keyFromToolInputs(scope: ToolCallScope, request: ToolCallRequest): string {
	const body = Object.fromEntries(
		Object.entries(request.body).filter(([key]) => !NOT_THE_JOB.has(key)),
	);
	// the same inputs in another order are the same job
	const job = canonicalJson({ path: request.path, qs: request.qs, body });
	const parts = ['tool', scope.workflowId, scope.nodeName, scope.route, scope.itemIndex, job];
	return `n8n-tool-${createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 48)}`;
}
