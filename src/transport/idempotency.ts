import { createHash } from 'node:crypto';

/** Where a submit happens in n8n: everything that stays the same across every retry of it. */
export interface IdempotencyScope {
	workflowId: string;
	executionId: string;
	nodeName: string;
	/** the node's run within the execution (a loop runs a node several times); n8n's Retry On Fail keeps it */
	runIndex: number;
	itemIndex: number;
	/** method and path template of the operation, so two operations of one item never share a key */
	route: string;
}

const hashed = (parts: Array<string | number>) => `n8n-${createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 48)}`;

/**
 * Derived, never remembered, and independent of the request body: parameters resolved from
 * expressions (`{{ $now }}`), re-uploaded binaries (new asset URLs) and fresh quotes differ between
 * tries, and a key that followed them would pay again. The same execution, node run, item and route
 * give the same key on every try — in any process, so also across queue-mode workers; a new
 * execution gets a new key.
 */
export function deriveIdempotencyKey(scope: IdempotencyScope): string {
	return hashed(['scope', scope.workflowId, scope.executionId, scope.nodeName, scope.runIndex, scope.itemIndex, scope.route]);
}

/**
 * The key sent for the "Idempotency Key" option: the user's value, made distinct per item and
 * operation (one fixed value must never make several items share one run), and the same in any
 * execution — so a re-run of a failed execution with the same value replays instead of paying.
 */
export function keyFromUserValue(value: string, route: string, itemIndex: number): string {
	return hashed(['user', value, route, itemIndex]);
}

/**
 * The key of a new request that replaces a refused one of the same item (after a stale quote the
 * body changes, and a key must never name two different requests).
 */
export function successorKey(key: string, attempt: number): string {
	return hashed(['successor', key, attempt]);
}
