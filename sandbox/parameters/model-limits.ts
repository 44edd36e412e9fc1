import {
	all,
	isArrayOf,
	isInteger,
	isNumber,
	isObject,
	isString,
	type Check,
	type CheckEnv,
} from './checks';

/**
 * Checks against the chosen model's `limits` and `capabilities` (API document, "Limits"): each names
 * the limit it applies, so a refusal says which key of GET /models bounds the value.
 */

type Limits = Record<string, unknown>;

function limitsOf(env: CheckEnv): Limits {
	return env.model?.limits ?? {};
}

function modelName(env: CheckEnv): string {
	return env.model?.id ?? 'this route';
}

/** The first of `keys` the model reports, with its value. */
function reported(env: CheckEnv, keys: string[]): [string, unknown] | undefined {
	const limits = limitsOf(env);
	const key = keys.find((k) => limits[k] !== undefined);
	return key === undefined ? undefined : [key, limits[key]];
}

/** One of the values the model lists under `keys` (a list, or a single value); a model that lists none takes none. */
export function listedByModel(...keys: string[]): Check {
	return (value, env) => {
		const found = reported(env, keys);
		if (!found) return `${modelName(env)} lists no ${keys.join(' or ')}, so it takes no value here`;
		const [key, listed] = found;
		const allowed = Array.isArray(listed) ? listed : [listed];
		return allowed.some((a) => a === value)
			? undefined
			: `${JSON.stringify(value)} is not one of ${allowed.join(', ')} (limits.${key} of ${modelName(env)})`;
	};
}

/** Characters as the document counts them (Unicode code points; an emoji is one, not two UTF-16 units). */
export const characterCount = (text: string): number => [...text].length;

/** A string no longer than the model's `keys` (prompt and text caps). */
export function lengthWithinModelLimit(...keys: string[]): Check {
	return (value, env) => {
		const found = reported(env, keys);
		if (!found || typeof found[1] !== 'number' || typeof value !== 'string') return undefined;
		const length = characterCount(value);
		return length > found[1]
			? `${length} characters, at most ${found[1]} allowed (limits.${found[0]} of ${modelName(env)})`
			: undefined;
	};
}

/**
 * An array no longer than the count the model reports under `keys`. A model that reports no such
 * count takes none of these (the document bounds every reference list by a limit).
 */
export function countWithinModelLimit(...keys: string[]): Check {
	return (value, env) => {
		const found = reported(env, keys);
		const length = (value as unknown[]).length;
		if (!found)
			return length === 0
				? undefined
				: `${modelName(env)} reports no ${keys.join(' or ')}, so it takes none`;
		const max = Number(found[1]);
		return length > max
			? `holds ${length}, at most ${max} allowed (limits.${found[0]} of ${modelName(env)})`
			: undefined;
	};
}

/** Refused where the model's `capabilities[flag]` is false (absent flags bound nothing). */
export function whereModelCan(flag: string): Check {
	return (_value, env) =>
		env.model?.capabilities?.[flag] === false
			? `${modelName(env)} has capabilities.${flag} false`
			: undefined;
}

/** Count of images: 1 up to limits.max_count (1 when the model reports none). */
export const imageCount: Check = all(isInteger({ min: 1 }), (value, env) => {
	const max = Number(limitsOf(env).max_count ?? 1);
	return (value as number) > max
		? `${String(value)} is above ${max} (limits.max_count of ${modelName(env)})`
		: undefined;
});

/**
 * Length of music and sound effects: whole seconds, at least 1, within limits.max_duration_seconds
 * (or limits.duration_seconds: a list to pick from, or a number as the upper bound).
 */
export const audioLength: Check = all(isInteger({ min: 1 }), (value, env) => {
	const found = reported(env, ['max_duration_seconds', 'duration_seconds']);
	if (!found) return undefined;
	const [key, bound] = found;
	if (Array.isArray(bound))
		return bound.includes(value)
			? undefined
			: `${String(value)} is not one of ${bound.join(', ')} (limits.${key} of ${modelName(env)})`;
	return (value as number) > Number(bound)
		? `${String(value)} is above ${String(bound)} (limits.${key} of ${modelName(env)})`
		: undefined;
});

/** Video length: one of the model's limits.duration_seconds. */
export const videoLength: Check = all(isInteger({ min: 1 }), listedByModel('duration_seconds'));

/** Upscale factor: one of limits.scale_factors, or within min_scale_factor..max_scale_factor. */
export const scaleFactor: Check = all(isNumber({ above: 0 }), (value, env) => {
	const limits = limitsOf(env);
	const factors = Array.isArray(limits.scale_factors)
		? (limits.scale_factors as number[])
		: undefined;
	const min = typeof limits.min_scale_factor === 'number' ? limits.min_scale_factor : undefined;
	const max = typeof limits.max_scale_factor === 'number' ? limits.max_scale_factor : undefined;
	const v = value as number;
	if (factors?.includes(v)) return undefined;
	if (
		(min !== undefined || max !== undefined) &&
		(min === undefined || v >= min) &&
		(max === undefined || v <= max)
	)
		return undefined;
	const offered = [
		factors ? `one of ${factors.join(', ')}` : '',
		min !== undefined || max !== undefined ? `${min ?? '…'} to ${max ?? '…'}` : '',
	].filter(Boolean);
	return offered.length
		? `${v} is not ${offered.join(' or ')} (${modelName(env)})`
		: `${modelName(env)} reports no scale_factors`;
});

/** generate_audio: true only where the model reports supports_audio true (false never hurts). */
export const audioToggle: Check = all(
	(value) =>
		typeof value === 'boolean' ? undefined : `${JSON.stringify(value)} is not true or false`,
	(value, env) =>
		value === true && limitsOf(env).supports_audio !== true
			? `${modelName(env)} has no audio toggle (limits.supports_audio is not true)`
			: undefined,
);

/** Camera trajectory: 2 to 12 keyframes (document), narrowed by limits.camera_keyframes {min, max}. */
export const cameraTrajectory: Check = (value, env) => {
	if (!Array.isArray(value)) return `${JSON.stringify(value)} is not an array of keyframes`;
	const reportedRange = limitsOf(env).camera_keyframes as
		| { min?: number; max?: number }
		| undefined;
	const min = Math.max(2, reportedRange?.min ?? 2);
	const max = Math.min(12, reportedRange?.max ?? 12);
	return value.length < min || value.length > max
		? `holds ${value.length} keyframes, ${min} to ${max} allowed`
		: undefined;
};

/** 3D target polycount: 100 to 300000 (document), narrowed by limits.target_polycount {min, max}. */
export const polycount: Check = all(isInteger({ min: 100, max: 300000 }), (value, env) => {
	const range = limitsOf(env).target_polycount as { min?: number; max?: number } | undefined;
	const v = value as number;
	if (range?.min !== undefined && v < range.min)
		return `${v} is below ${range.min} (limits.target_polycount of ${modelName(env)})`;
	if (range?.max !== undefined && v > range.max)
		return `${v} is above ${range.max} (limits.target_polycount of ${modelName(env)})`;
	return undefined;
});

/** Speech dialogue: [{text, voice_id}] on models with limits.max_voices, within max_voices and max_characters. */
export const dialogue: Check = all(
	isArrayOf(isObject({ text: isString, voice_id: isString }, ['text', 'voice_id']), { min: 1 }),
	(value, env) => {
		const limits = limitsOf(env);
		if (typeof limits.max_voices !== 'number')
			return `${modelName(env)} is not a dialogue model (it reports no max_voices)`;
		const lines = value as Array<{ text: string; voice_id: string }>;
		const voices = new Set(lines.map((l) => l.voice_id)).size;
		if (voices > limits.max_voices)
			return `${voices} voices, at most ${limits.max_voices} (limits.max_voices of ${modelName(env)})`;
		const characters = lines.reduce((n, l) => n + characterCount(l.text), 0);
		if (typeof limits.max_characters === 'number' && characters > limits.max_characters) {
			return `${characters} characters, at most ${limits.max_characters} (limits.max_characters of ${modelName(env)})`;
		}
		return undefined;
	},
);

/** Mentions: [{handle, influencer_id}], each naming a `ready` influencer of the account. */
export const mentions: Check = all(
	isArrayOf(isObject({ handle: isString, influencer_id: isString }, ['handle', 'influencer_id'])),
	(value, env) => {
		for (const [i, mention] of (value as Array<{ influencer_id: string }>).entries()) {
			const status = env.influencerStatus(mention.influencer_id);
			if (!status) return `[${i}] no influencer ${mention.influencer_id}`;
			if (status !== 'ready')
				return `[${i}] influencer ${mention.influencer_id} is ${status}; only ready influencers can be mentioned`;
		}
		return undefined;
	},
);

/** LoRAs: 1 to 3 completed trained models {id, scale?}, no more than limits.loras of the model (none where it reports none). */
export const loras: Check = all(
	isArrayOf(isObject({ id: isString, scale: isNumber() }, ['id']), { min: 1, max: 3 }),
	countWithinModelLimit('loras'),
	(value, env) => {
		for (const [i, lora] of (value as Array<{ id: string }>).entries()) {
			const status = env.loraStatus(lora.id);
			if (status !== 'completed')
				return `[${i}] ${lora.id} is ${status ? `${status}, not completed` : 'not a trained model of this account'}`;
		}
		return undefined;
	},
);
