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

const hashed = (parts: Array<string | number>) =>
	`n8n-${createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 48)}`;

/**
 * Derived, never remembered, and independent of the request body: parameters resolved from
 * expressions (`{{ $now }}`), re-uploaded binaries (new asset URLs) and fresh quotes differ between
 * tries, and a key that followed them would pay again. The same execution, node run, item and route
 * give the same key on every try — in any process, so also across queue-mode workers; a new
 * execution gets a new key.
 */
export function deriveIdempotencyKey(scope: IdempotencyScope): string {
	return hashed([
		'scope',
		scope.workflowId,
		scope.executionId,
		scope.nodeName,
		scope.runIndex,
		scope.itemIndex,
		scope.route,
	]);
}

/** Where a job named by the "Idempotency Key" option lives: one operation of one node of one workflow. */
export interface JobScope {
	workflowId: string;
	/** the node's id: it stays when the node is renamed; a copied node or workflow gets a new one */
	nodeId: string;
	route: string;
	/**
	 * The identity of the item's request (what is sent, uploads by their bytes, without a quote
	 * token): an edit that changes what this item sends makes it a new job; an edit that changes
	 * only how the parameters are spelled keeps it.
	 */
	request: string;
}

/**
 * The key sent for the "Idempotency Key" option: the user's value names one job of one node of one
 * workflow. It does not depend on the item's position or the execution, so a re-run with the same
 * values (in any order) replays instead of paying; two nodes, two workflows or two operations with
 * the same value never share a key; a change of what the item sends starts a new job.
 */
export function keyFromUserValue(value: string, job: JobScope): string {
	// one text, one job: the same letters typed on another keyboard or pasted from elsewhere may
	// arrive composed (NFC) or decomposed (NFD), and a key must not tell them apart
	return hashed([
		'job',
		job.workflowId,
		job.nodeId,
		job.route,
		job.request,
		value.normalize('NFC'),
	]);
}

/**
 * The key of a new request that replaces a refused one of the same item (after a stale quote the
 * body changes, and a key must never name two different requests).
 */
export function successorKey(key: string, attempt: number): string {
	return hashed(['successor', key, attempt]);
}

/**
 * The key of a new request that replaces an item's earlier one whose run failed at the service: the
 * failed run charged nothing and will never complete, so a retry makes a new job, and the earlier
 * key would only bring the failed run back. The failed run's id makes each such retry its own key.
 */
export function keyAfterFailedRun(key: string, failedRunId: string): string {
	return hashed(['after-failed-run', key, failedRunId]);
}
