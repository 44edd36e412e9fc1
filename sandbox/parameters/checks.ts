import type { SandboxModel } from '../models';

/** What a check may look at besides the value: the chosen model, the whole request, and the account's objects. */
export interface CheckEnv {
	model?: SandboxModel;
	params: Record<string, unknown>;
	/** status of one of the account's influencers, undefined when it has none with that id */
	influencerStatus(id: string): string | undefined;
	/** status of one of the account's trained models (LoRAs) */
	loraStatus(id: string): string | undefined;
}

/** Why a value is refused (the problem's detail after "<param>: "), or undefined when it passes. */
export type Check = (value: unknown, env: CheckEnv) => string | undefined;

/** Bounds of the file behind a URL, in model `limits` keys; checked where the sandbox holds the bytes. */
export interface FileBounds {
	maxMb?: string[];
	maxSeconds?: string[];
	minSeconds?: string[];
	/** the sandbox's files are single shots: their whole length is the longest shot */
	maxShotSeconds?: string[];
}

export interface Param {
	check: Check;
	/** 'prompt': missing is 400 invalid_prompt (API document); true: 400 invalid_parameter */
	required?: true | 'prompt';
	/** required where the chosen model's `capabilities[flag]` is true (e.g. source_video) */
	requiredWhenModelHas?: string;
	/** the value is a URL (or list of URLs) the service fetches */
	fetches?: true;
	file?: FileBounds;
}

export type ParamSet = Record<string, Param>;

const show = (value: unknown) => JSON.stringify(value);

/** Runs checks one after another; the first refusal wins. */
export function all(...checks: Check[]): Check {
	return (value, env) => {
		for (const check of checks) {
			const why = check(value, env);
			if (why) return why;
		}
		return undefined;
	};
}

export const isString: Check = (value) =>
	typeof value === 'string' ? undefined : `${show(value)} is not a string`;

export const isBoolean: Check = (value) =>
	typeof value === 'boolean' ? undefined : `${show(value)} is not true or false`;

export function isNumber(
	bounds: { min?: number; max?: number; integer?: boolean; above?: number } = {},
): Check {
	return (value) => {
		if (typeof value !== 'number' || !Number.isFinite(value))
			return `${show(value)} is not a number`;
		if (bounds.integer && !Number.isInteger(value)) return `${value} is not a whole number`;
		if (bounds.above !== undefined && value <= bounds.above)
			return `${value} must be more than ${bounds.above}`;
		if (bounds.min !== undefined && value < bounds.min) return `${value} is below ${bounds.min}`;
		if (bounds.max !== undefined && value > bounds.max) return `${value} is above ${bounds.max}`;
		return undefined;
	};
}

export const isInteger = (bounds: { min?: number; max?: number } = {}): Check =>
	isNumber({ ...bounds, integer: true });

export function isOneOf(...allowed: Array<string | number>): Check {
	return (value) =>
		allowed.includes(value as string | number)
			? undefined
			: `${show(value)} is not one of ${allowed.join(', ')}`;
}

/** An absolute URI (any scheme the URL parser knows: https, http, data …). */
export const isUri: Check = (value) => {
	if (typeof value !== 'string') return `${show(value)} is not a URI`;
	try {
		new URL(value);
		return undefined;
	} catch {
		return `${show(value)} is not an absolute URI`;
	}
};

export function isArrayOf(item: Check, bounds: { min?: number; max?: number } = {}): Check {
	return (value, env) => {
		if (!Array.isArray(value)) return `${show(value)} is not an array`;
		if (bounds.min !== undefined && value.length < bounds.min)
			return `holds ${value.length}, at least ${bounds.min} needed`;
		if (bounds.max !== undefined && value.length > bounds.max)
			return `holds ${value.length}, at most ${bounds.max} allowed`;
		for (let i = 0; i < value.length; i++) {
			const why = item(value[i], env);
			if (why) return `[${i}] ${why}`;
		}
		return undefined;
	};
}

export const isUriList = isArrayOf(isUri);
export const isStringList = isArrayOf(isString);

/** A JSON object whose listed properties pass their checks (`required` ones must be present). */
export function isObject(properties: Record<string, Check>, required: string[] = []): Check {
	return (value, env) => {
		if (typeof value !== 'object' || value === null || Array.isArray(value))
			return `${show(value)} is not an object`;
		const record = value as Record<string, unknown>;
		for (const name of required) if (record[name] === undefined) return `${name} is missing`;
		for (const [name, check] of Object.entries(properties)) {
			if (record[name] === undefined) continue;
			const why = check(record[name], env);
			if (why) return `${name}: ${why}`;
		}
		return undefined;
	};
}

/** Always refused, with the reason (a parameter the document names otherwise). */
export function refused(reason: string): Check {
	return () => reason;
}

export const string: Param = { check: isString };
export const boolean: Param = { check: isBoolean };
export const uri: Param = { check: isUri, fetches: true };
export const required = (param: Param): Param => ({ ...param, required: true });
