import { createHash } from 'node:crypto';

/** Stable JSON: object keys sorted, so equal bodies hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.keys(value as object)
			.sort()
			.filter((k) => (value as Record<string, unknown>)[k] !== undefined)
			.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

export interface IdempotencyScope {
	workflowId: string;
	executionId: string;
	nodeName: string;
	itemIndex: number;
	/** the route, so two operations of one item never share a key */
	route: string;
}

/**
 * Derived, never remembered: the same execution, node, item and body give the same key, so n8n's
 * Retry On Fail and our own retries replay the original run instead of paying twice, while a new
 * execution (or changed parameters) gets a new key. Works across n8n queue-mode workers.
 */
export function deriveIdempotencyKey(scope: IdempotencyScope, logicalBody: unknown): string {
	const bodyHash = createHash('sha256').update(canonicalJson(logicalBody)).digest('hex');
	const material = [scope.workflowId, scope.executionId, scope.nodeName, scope.itemIndex, scope.route, bodyHash].join('\n');
	return `n8n-${createHash('sha256').update(material).digest('hex').slice(0, 48)}`;
}
