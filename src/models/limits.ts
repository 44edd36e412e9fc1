import type { IDataObject } from 'n8n-workflow';

import type { FieldSpec, LimitRule } from '../catalog';

/** A parameter the selected model does not allow: the field and what it allows. */
export interface LimitViolation {
	field: FieldSpec;
	value: unknown;
	allowed: string;
}

function firstPresent(limits: IDataObject, keys: string[]): { key: string; value: unknown } | undefined {
	for (const key of keys) if (limits[key] !== undefined && limits[key] !== null) return { key, value: limits[key] };
	return undefined;
}

/** Choices a `oneOf` rule offers for a model (empty when the model does not list any). */
export function limitChoices(limits: IDataObject | undefined, rule: LimitRule): Array<string | number> {
	if (!limits || rule.kind !== 'oneOf') return [];
	const found = firstPresent(limits, rule.keys);
	if (!found) return [];
	const list = Array.isArray(found.value) ? found.value : [found.value];
	return list.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
}

function sameValue(a: unknown, b: unknown): boolean {
	return a === b || (typeof a !== 'object' && typeof b !== 'object' && String(a) === String(b));
}

/** Checks one value; undefined when it is allowed (or when the model reports no limit for it). */
export function checkLimit(field: FieldSpec, value: unknown, limits: IDataObject | undefined): LimitViolation | undefined {
	const rule = field.limit;
	if (!rule || !limits || value === undefined || value === null || value === '') return undefined;
	const found = firstPresent(limits, rule.keys);
	if (!found) return undefined;
	switch (rule.kind) {
		case 'oneOf': {
			const choices = Array.isArray(found.value) ? found.value : [found.value];
			if (choices.some((c) => sameValue(c, value))) return undefined;
			return { field, value, allowed: `one of ${choices.map(String).join(', ')} (model limit ${found.key})` };
		}
		case 'max': {
			const max = Number(found.value);
			if (!Number.isFinite(max) || Number(value) <= max) return undefined;
			return { field, value, allowed: `at most ${max} (model limit ${found.key})` };
		}
		case 'min': {
			const min = Number(found.value);
			if (!Number.isFinite(min) || Number(value) >= min) return undefined;
			return { field, value, allowed: `at least ${min} (model limit ${found.key})` };
		}
		case 'maxLength': {
			const max = Number(found.value);
			const length = String(value).length;
			if (!Number.isFinite(max) || length <= max) return undefined;
			return { field, value: `${length} characters`, allowed: `at most ${max} characters (model limit ${found.key})` };
		}
		case 'maxItems': {
			const max = Number(found.value);
			const count = Array.isArray(value) ? value.length : 1;
			if (!Number.isFinite(max) || typeof found.value === 'boolean' || count <= max) return undefined;
			return { field, value: `${count} items`, allowed: `at most ${max} (model limit ${found.key})` };
		}
	}
}

/** Fixed bounds from the catalog (not the model): min/max on numbers and list lengths. */
export function checkStaticBounds(field: FieldSpec, value: unknown): LimitViolation | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (Array.isArray(value)) {
		if (field.max !== undefined && value.length > field.max) return { field, value: `${value.length} items`, allowed: `at most ${field.max}` };
		return undefined;
	}
	if (typeof value !== 'number') return undefined;
	if (field.min !== undefined && value < field.min) return { field, value, allowed: `at least ${field.min}` };
	if (field.max !== undefined && value > field.max) return { field, value, allowed: `at most ${field.max}` };
	return undefined;
}
