import { estimateOperation, offersEstimate, type Endpoint } from '../../catalog';

// Where the panel shows a property (displayOptions of an operation) and the ordering and casing of
// its labels.

/** The operations that show an endpoint's fields: its own, and its Estimate Cost where offered. */
export const operationsOf = (e: Endpoint): string[] =>
	offersEstimate(e) ? [e.operation, estimateOperation(e).operation] : [e.operation];

export const show = (e: Endpoint, extra: Record<string, unknown[]> = {}) => ({
	show: { resource: [e.resource], operation: operationsOf(e), ...extra },
});

/** displayOptions of what only the endpoint's own operation shows (waiting, options, paging). */
export const showOwn = (e: Endpoint, extra: Record<string, unknown[]> = {}) => ({
	show: { resource: [e.resource], operation: [e.operation], ...extra },
});

/**
 * Alphabetical order of option names, without `localeCompare`: its first call loads ICU's collation
 * data, a large share of the package's load budget in n8n (bench/README.md). The names are
 * plain English, so a case-insensitive comparison orders them the same.
 */
export function alphabetical(a: string, b: string): number {
	const x = a.toLowerCase();
	const y = b.toLowerCase();
	return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

export function titleCase(value: string): string {
	return value.replace(
		/(^|[_\s-])([a-z])/g,
		(_, sep: string, c: string) => (sep ? ' ' : '') + c.toUpperCase(),
	);
}
