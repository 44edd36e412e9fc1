import type { IDataObject } from 'n8n-workflow';

import type { FieldSpec, LimitRule } from '../catalog';

/** A parameter the selected model does not allow: the field and what it allows. */
export interface LimitViolation {
	field: FieldSpec;
	value: unknown;
	allowed: string;
	/** the model's `limits` key or `capabilities` flag that decided, for people who read the API document */
	modelLimit?: string;
}

/** A limit key in words: aspect_ratios → aspect ratios. */
function limitWords(key: string): string {
	return key.replace(/_/g, ' ');
}

function firstPresent(
	limits: IDataObject,
	keys: string[],
): { key: string; value: unknown } | undefined {
	for (const key of keys)
		if (limits[key] !== undefined && limits[key] !== null) return { key, value: limits[key] };
	return undefined;
}

/** Choices a `oneOf` rule offers for a model, and the limits key they came from (none when the model lists none). */
export function limitChoices(
	limits: IDataObject | undefined,
	rule: LimitRule,
): { key?: string; values: Array<string | number> } {
	if (!limits || rule.kind !== 'oneOf') return { values: [] };
	const found = firstPresent(limits, rule.keys);
	if (!found) return { values: [] };
	const list = Array.isArray(found.value) ? found.value : [found.value];
	return {
		key: found.key,
		values: list.filter(
			(v): v is string | number => typeof v === 'string' || typeof v === 'number',
		),
	};
}

function sameValue(a: unknown, b: unknown): boolean {
	return a === b || (typeof a !== 'object' && typeof b !== 'object' && String(a) === String(b));
}

function asNumber(value: unknown): number | undefined {
	const n =
		typeof value === 'number'
			? value
			: typeof value === 'string' && value.trim() !== ''
				? Number(value)
				: NaN;
	return Number.isFinite(n) ? n : undefined;
}

/** Characters as the API document counts them: Unicode code points (an emoji is one, not two UTF-16 units). */
const characterCount = (text: string): number => [...text].length;

function objectsOf(value: unknown): Array<Record<string, unknown>> {
	return Array.isArray(value)
		? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null)
		: [];
}

/** Whether the model reports any key a rule reads. */
function reportsAny(rule: LimitRule, limits: IDataObject): boolean {
	if (rule.kind === 'all') return rule.rules.some((inner) => reportsAny(inner, limits));
	const keys = rule.kind === 'range' ? [...rule.minKeys, ...rule.maxKeys] : rule.keys;
	return firstPresent(limits, keys) !== undefined;
}

/** What a rule lets a number be on this model, or undefined when the model reports none of its keys. */
function allowedNumber(
	rule: LimitRule,
	limits: IDataObject,
): { lo?: number; hi?: number; choices?: Array<string | number> } | undefined {
	if (rule.kind === 'all') {
		for (const inner of rule.rules) {
			const allowed = allowedNumber(inner, limits);
			if (allowed) return allowed;
		}
		return undefined;
	}
	const bounds = (lo: number | undefined, hi: number | undefined) =>
		lo === undefined && hi === undefined ? undefined : { lo, hi };
	if (rule.kind === 'range')
		return bounds(
			asNumber(firstPresent(limits, rule.minKeys)?.value),
			asNumber(firstPresent(limits, rule.maxKeys)?.value),
		);
	const found = firstPresent(limits, rule.keys);
	if (!found) return undefined;
	switch (rule.kind) {
		case 'max':
			return bounds(undefined, asNumber(found.value));
		case 'min':
			return bounds(asNumber(found.value), undefined);
		case 'between': {
			const value = found.value as { min?: unknown; max?: unknown };
			return typeof value === 'object' && !Array.isArray(value)
				? bounds(asNumber(value.min), asNumber(value.max))
				: undefined;
		}
		case 'oneOf': {
			const choices = (Array.isArray(found.value) ? found.value : [found.value]).filter(
				(v): v is string | number => typeof v === 'number' || typeof v === 'string',
			);
			return choices.length ? { choices } : undefined;
		}
		default:
			return undefined;
	}
}

/**
 * The chosen model's bounds on an operation's numbers, field by field and short ("Count 1–4",
 * "Target Polycount 100–50000", "Scale Factor 2 or 4"): n8n shows no model-dependent text in a
 * number field, so the Model list's line carries them (modelLine). A bound the model leaves open
 * takes the field's own (Count starts at 1).
 */
export function numberBounds(fields: FieldSpec[], limits: IDataObject | undefined): string[] {
	if (!limits) return [];
	return fields.flatMap((field) => {
		const allowed =
			(field.type === 'number' || field.type === 'integer') && field.limit
				? allowedNumber(field.limit, limits)
				: undefined;
		if (!allowed) return [];
		if (allowed.choices)
			return [
				`${field.displayName} ${allowed.choices.slice(0, -1).join(', ')}${allowed.choices.length > 1 ? ' or ' : ''}${allowed.choices[allowed.choices.length - 1]}`,
			];
		const lo = allowed.lo ?? field.min;
		const hi = allowed.hi ?? field.max;
		const range =
			lo !== undefined && hi !== undefined
				? lo === hi
					? `${lo}`
					: `${lo}–${hi}`
				: lo !== undefined
					? `≥ ${lo}`
					: `≤ ${hi}`;
		return [`${field.displayName} ${range}`];
	});
}

function checkRule(
	field: FieldSpec,
	rule: LimitRule,
	value: unknown,
	limits: IDataObject,
): LimitViolation | undefined {
	if (rule.kind === 'all') {
		// a list the model does not report is no refusal when it bounds the value another way (a range)
		const reported = rule.rules.filter((inner) => reportsAny(inner, limits));
		if (reported.length === 0) return checkRule(field, rule.rules[0], value, limits);
		for (const inner of reported) {
			const violation = checkRule(field, inner, value, limits);
			if (violation) return violation;
		}
		return undefined;
	}
	if (rule.kind === 'range') {
		const min = firstPresent(limits, rule.minKeys);
		const max = firstPresent(limits, rule.maxKeys);
		const lo = asNumber(min?.value);
		const hi = asNumber(max?.value);
		const n = asNumber(value);
		if (n === undefined || (lo === undefined && hi === undefined)) return undefined;
		if ((lo === undefined || n >= lo) && (hi === undefined || n <= hi)) return undefined;
		const keys = [min?.key, max?.key].filter(Boolean).join(', ');
		const allowed =
			lo !== undefined && hi !== undefined
				? `from ${lo} to ${hi}`
				: lo !== undefined
					? `at least ${lo}`
					: `at most ${hi}`;
		return { field, value, allowed, modelLimit: keys };
	}
	const found = firstPresent(limits, rule.keys);
	if (!found) {
		// a value that must come from the model's list (aspect_ratios, qualities, …): a model that lists none takes none
		if (rule.kind === 'oneOf') {
			return {
				field,
				value,
				allowed: `no value: the model lists no ${rule.keys.map(limitWords).join(' or ')}`,
				modelLimit: rule.keys.join(', '),
			};
		}
		// "false can mean only that there is no audio toggle": the toggle exists only where the model reports true
		if (rule.kind === 'switch' && value === true) {
			return {
				field,
				value,
				allowed: `off: the model has no such switch (it reports no ${rule.keys.map(limitWords).join(' or ')})`,
				modelLimit: rule.keys.join(', '),
			};
		}
		// the document bounds every reference list by a model limit: a model that reports no count takes none
		if (rule.kind === 'maxItems' && Array.isArray(value) && value.length > 0) {
			return {
				field,
				value: `${value.length} items`,
				allowed: `none: the model reports no ${rule.keys.map(limitWords).join(' or ')}`,
				modelLimit: rule.keys.join(', '),
			};
		}
		return undefined;
	}
	switch (rule.kind) {
		case 'oneOf': {
			const choices = Array.isArray(found.value) ? found.value : [found.value];
			const values = Array.isArray(value) ? value : [value];
			const outside = values.filter((v) => !choices.some((c) => sameValue(c, v)));
			if (outside.length === 0) return undefined;
			return {
				field,
				value: Array.isArray(value) ? outside : value,
				allowed: `one of ${choices.map(String).join(', ')}`,
				modelLimit: found.key,
			};
		}
		case 'max': {
			const max = Number(found.value);
			if (!Number.isFinite(max) || Number(value) <= max) return undefined;
			return { field, value, allowed: `at most ${max}`, modelLimit: found.key };
		}
		case 'min': {
			const min = Number(found.value);
			if (!Number.isFinite(min) || Number(value) >= min) return undefined;
			return { field, value, allowed: `at least ${min}`, modelLimit: found.key };
		}
		case 'maxLength': {
			const max = Number(found.value);
			const length = characterCount(String(value));
			if (!Number.isFinite(max) || length <= max) return undefined;
			return {
				field,
				value: `${length} characters`,
				allowed: `at most ${max} characters`,
				modelLimit: found.key,
			};
		}
		case 'maxItems': {
			const max = Number(found.value);
			const count = Array.isArray(value) ? value.length : 1;
			if (!Number.isFinite(max) || typeof found.value === 'boolean' || count <= max)
				return undefined;
			return { field, value: `${count} items`, allowed: `at most ${max}`, modelLimit: found.key };
		}
		case 'between': {
			const bounds = found.value as { min?: unknown; max?: unknown };
			if (typeof bounds !== 'object' || Array.isArray(bounds)) return undefined;
			const lo = asNumber(bounds.min);
			const hi = asNumber(bounds.max);
			const n = Array.isArray(value) ? value.length : asNumber(value);
			if (n === undefined || ((lo === undefined || n >= lo) && (hi === undefined || n <= hi)))
				return undefined;
			const unit = Array.isArray(value) ? ' items' : '';
			return {
				field,
				value: Array.isArray(value) ? `${n} items` : value,
				allowed: `from ${lo ?? '-'} to ${hi ?? '-'}${unit}`,
				modelLimit: found.key,
			};
		}
		case 'switch':
			if (value !== true || found.value === true) return undefined;
			return {
				field,
				value,
				allowed: `off: the model has no such switch (its ${limitWords(found.key)} is ${JSON.stringify(found.value)})`,
				modelLimit: found.key,
			};
		case 'maxDistinct': {
			const max = Number(found.value);
			const distinct = new Set(
				objectsOf(value)
					.map((o) => o[rule.property])
					.filter((v) => v !== undefined && v !== ''),
			);
			if (!Number.isFinite(max) || distinct.size <= max) return undefined;
			return {
				field,
				value: `${distinct.size} different ${rule.property.replace(/_id$/, '').replace(/_/g, ' ')}s`,
				allowed: `at most ${max}`,
				modelLimit: found.key,
			};
		}
		case 'maxTotalLength': {
			const max = Number(found.value);
			const length = objectsOf(value).reduce(
				(n, o) => n + characterCount(String(o[rule.property] ?? '')),
				0,
			);
			if (!Number.isFinite(max) || length <= max) return undefined;
			return {
				field,
				value: `${length} characters in all`,
				allowed: `at most ${max} characters`,
				modelLimit: found.key,
			};
		}
	}
}

/** Checks one value; undefined when it is allowed (or when the model reports no limit for it). */
export function checkLimit(
	field: FieldSpec,
	value: unknown,
	limits: IDataObject | undefined,
): LimitViolation | undefined {
	const rule = field.limit;
	if (!rule || !limits || value === undefined || value === null || value === '') return undefined;
	if (Array.isArray(value) && value.length === 0) return undefined;
	return checkRule(field, rule, value, limits);
}

function isEmptyValue(value: unknown): boolean {
	return (
		value === undefined ||
		value === null ||
		value === '' ||
		(Array.isArray(value) && value.length === 0)
	);
}

/**
 * Checks a field against the model's `capabilities` booleans: a field the model reports it cannot
 * take (flag false), or a field the model reports it needs (flag true). An absent flag checks nothing.
 */
export function checkCapability(
	field: FieldSpec,
	value: unknown,
	capabilities: IDataObject | undefined,
): LimitViolation | undefined {
	if (!capabilities) return undefined;
	if (field.needs && capabilities[field.needs] === false && !isEmptyValue(value)) {
		return {
			field,
			value,
			allowed: 'no value: this model does not take it',
			modelLimit: `capability ${field.needs}`,
		};
	}
	if (field.requiredBy && capabilities[field.requiredBy] === true && isEmptyValue(value)) {
		return {
			field,
			value: '(empty)',
			allowed: 'a value: this model works on it',
			modelLimit: `capability ${field.requiredBy}`,
		};
	}
	return undefined;
}

/** What the node knows of a media file it is about to upload. */
export interface FileFacts {
	size?: number;
	durationSeconds?: number;
}

/** Checks a media file against the model's size and length limits named by the field (absent keys: no check). */
export function checkFileLimits(
	field: FieldSpec,
	file: FileFacts,
	limits: IDataObject | undefined,
): LimitViolation | undefined {
	const keys = field.fileLimits;
	if (!keys || !limits) return undefined;
	const bound = (names?: string[]) => {
		const found = names && firstPresent(limits, names);
		const n = found ? asNumber(found.value) : undefined;
		return n === undefined ? undefined : { key: found!.key, n };
	};
	const maxMb = bound(keys.maxMb);
	if (maxMb && file.size !== undefined && file.size > maxMb.n * 1024 * 1024) {
		return {
			field,
			value: `${Math.round((file.size / 1024 / 1024) * 10) / 10} MB`,
			allowed: `at most ${maxMb.n} MB`,
			modelLimit: maxMb.key,
		};
	}
	const seconds = file.durationSeconds;
	if (seconds === undefined) return undefined;
	const shown = `${Math.round(seconds * 10) / 10} s`;
	const maxSeconds = bound(keys.maxSeconds);
	if (maxSeconds && seconds > maxSeconds.n)
		return {
			field,
			value: shown,
			allowed: `at most ${maxSeconds.n} s`,
			modelLimit: maxSeconds.key,
		};
	const minSeconds = bound(keys.minSeconds);
	if (minSeconds && seconds < minSeconds.n)
		return {
			field,
			value: shown,
			allowed: `at least ${minSeconds.n} s`,
			modelLimit: minSeconds.key,
		};
	return undefined;
}

function rangeText(field: FieldSpec): string {
	if (field.min !== undefined && field.max !== undefined)
		return ` from ${field.min} to ${field.max}`;
	if (field.min !== undefined) return ` of at least ${field.min}`;
	return field.max !== undefined ? ` of at most ${field.max}` : '';
}

/** Fixed bounds from the catalog (not the model): numbers finite and in range, list lengths. */
export function checkStaticBounds(field: FieldSpec, value: unknown): LimitViolation | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (field.format === 'url' && typeof value === 'string' && !/^https?:\/\/[^\s/]+/i.test(value)) {
		return { field, value, allowed: 'an http:// or https:// URL' };
	}
	if (field.pattern && typeof value === 'string' && !new RegExp(field.pattern.regex).test(value)) {
		return { field, value: `${value.length} characters`, allowed: field.pattern.allowed };
	}
	if (Array.isArray(value)) {
		if (field.max !== undefined && value.length > field.max)
			return { field, value: `${value.length} items`, allowed: `at most ${field.max}` };
		return undefined;
	}
	const numeric = field.type === 'number' || field.type === 'integer';
	if (numeric && (typeof value !== 'number' || !Number.isFinite(value))) {
		return {
			field,
			value,
			allowed: `${field.type === 'integer' ? 'a whole number' : 'a number'}${rangeText(field)}`,
		};
	}
	if (typeof value !== 'number') return undefined;
	if (field.type === 'integer' && !Number.isInteger(value))
		return { field, value, allowed: `a whole number${rangeText(field)}` };
	if (field.min !== undefined && value < field.min)
		return { field, value, allowed: `at least ${field.min}` };
	if (field.max !== undefined && value > field.max)
		return { field, value, allowed: `at most ${field.max}` };
	return undefined;
}
