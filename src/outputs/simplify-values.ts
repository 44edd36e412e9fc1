import type { IDataObject } from 'n8n-workflow';

/**
 * Reading the service's JSON into the values of a simplified item (Simplify): a key is set only
 * when it holds something, so an item never carries `undefined`, `null` where a value is expected,
 * an empty string, or a number that is not one; text is read only from strings and numbers, so an
 * object never turns into "[object Object]".
 */

type Value = IDataObject[string];

export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function objectOr(value: unknown): IDataObject {
	return isObject(value) ? value : {};
}

/**
 * A JSON value with its empty parts gone (null, undefined, blank strings, NaN, empty arrays and
 * objects, at any depth), or undefined when nothing is left.
 */
export function cleaned(value: unknown): Value | undefined {
	if (value === null || value === undefined) return undefined;
	if (typeof value === 'string') return value.trim() === '' ? undefined : value;
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'boolean') return value;
	if (Array.isArray(value)) {
		const entries = value.map(cleaned).filter((entry) => entry !== undefined);
		return entries.length ? (entries as Value) : undefined;
	}
	if (isObject(value)) {
		const object: IDataObject = {};
		for (const [key, entry] of Object.entries(value)) {
			const kept = cleaned(entry);
			if (kept !== undefined) object[key] = kept;
		}
		return Object.keys(object).length ? object : undefined;
	}
	return undefined;
}

/** Sets `key` when the value holds something (see `cleaned`). */
export function put(target: IDataObject, key: string, value: unknown): void {
	const kept = cleaned(value);
	if (kept !== undefined) target[key] = kept;
}

/** A non-blank string, or a number spelled out; anything else is not text. */
export function text(value: unknown): string | undefined {
	if (typeof value === 'string') return value.trim() === '' ? undefined : value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

/** A finite number, from a number or a string that is only a number ("49.90"). */
export function numeric(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string' || !/^\s*-?(\d+\.?\d*|\.\d+)\s*$/.test(value)) return undefined;
	return Number(value);
}

/** The first of `keys` whose value `read` accepts. */
export function firstOf<T>(
	object: IDataObject,
	keys: readonly string[],
	read: (value: unknown) => T | undefined,
): T | undefined {
	for (const key of keys) {
		const value = read(object[key]);
		if (value !== undefined) return value;
	}
	return undefined;
}

/** URLs from a list of strings or of objects carrying one (`url`, else `src`). */
export function urlsOf(value: unknown): string[] {
	if (!Array.isArray(value)) return [];
	const urls: string[] = [];
	for (const entry of value) {
		const url = isObject(entry) ? (text(entry.url) ?? text(entry.src)) : text(entry);
		if (url) urls.push(url);
	}
	return urls;
}
