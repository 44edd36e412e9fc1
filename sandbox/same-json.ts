/**
 * Whether two parsed JSON values carry the same data: objects are equal when they have the same
 * keys with equal values, in any order; arrays when their elements are equal position by position;
 * everything else by value. The service uses it to tell a retry (same parameters) from a reuse of
 * an Idempotency-Key with other parameters, and a quote's parameters from a submit's.
 */
export function sameJson(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
	if (Array.isArray(a) || Array.isArray(b)) {
		if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
		return a.every((item, i) => sameJson(item, b[i]));
	}
	const left = a as Record<string, unknown>;
	const right = b as Record<string, unknown>;
	const leftKeys = Object.keys(left);
	if (leftKeys.length !== Object.keys(right).length) return false;
	return leftKeys.every(
		(key) => Object.prototype.hasOwnProperty.call(right, key) && sameJson(left[key], right[key]),
	);
}
