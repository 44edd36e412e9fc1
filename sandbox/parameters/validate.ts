import { principalOf, ProblemError, type RouteContext } from '../http';
import type { ByteSource } from '../large-files';
import { playingSeconds } from '../media-length';
import type { SandboxModel } from '../models';
import { influencerStatus } from '../routes/library';
import { producerStore } from '../routes/library-store';
import type { SandboxServices } from '../services';
import type { CheckEnv, FileBounds, Param } from './checks';
import type { RouteParameters } from './routes';

const BYTES_PER_MB = 1024 * 1024;

const omitted = (value: unknown) => value === undefined || value === null || value === '';

function invalid(param: string, detail: string): ProblemError {
	return new ProblemError(400, 'invalid_parameter', detail, { param });
}

function envFor(
	ctx: RouteContext,
	params: Record<string, unknown>,
	model?: SandboxModel,
): CheckEnv {
	const accountId = principalOf(ctx).accountId;
	return {
		model,
		params,
		influencerStatus: (id) => influencerStatus(ctx.state, accountId, id),
		loraStatus: (id) => {
			const lora = producerStore(ctx.state).loras.get(id);
			return lora && lora.accountId === accountId ? String(lora.data.status) : undefined;
		},
	};
}

function firstLimit(
	model: SandboxModel | undefined,
	keys: string[] = [],
): [string, number] | undefined {
	for (const key of keys) {
		const value = model?.limits[key];
		if (typeof value === 'number') return [key, value];
	}
	return undefined;
}

/** Size and length of a stored file against the model's limits. */
function checkFile(
	name: string,
	bytes: ByteSource,
	bounds: FileBounds,
	model?: SandboxModel,
): void {
	const maxMb = firstLimit(model, bounds.maxMb);
	if (maxMb && bytes.size > maxMb[1] * BYTES_PER_MB) {
		throw invalid(
			name,
			`${name}: the file is ${(bytes.size / BYTES_PER_MB).toFixed(1)} MB, at most ${maxMb[1]} MB (limits.${maxMb[0]} of ${model?.id})`,
		);
	}
	const seconds = playingSeconds(bytes);
	if (seconds === undefined) return;
	for (const [keys, tooLong] of [
		[bounds.maxSeconds, true],
		[bounds.maxShotSeconds, true],
		[bounds.minSeconds, false],
	] as const) {
		const limit = firstLimit(model, keys);
		if (!limit) continue;
		if (tooLong ? seconds > limit[1] : seconds < limit[1]) {
			throw invalid(
				name,
				`${name}: the file plays ${seconds.toFixed(2)} s, ${tooLong ? 'at most' : 'at least'} ${limit[1]} s (limits.${limit[0]} of ${model?.id})`,
			);
		}
	}
}

function checkParam(
	ctx: RouteContext,
	services: SandboxServices,
	name: string,
	param: Param,
	value: unknown,
	env: CheckEnv,
): void {
	const why = param.check(value, env);
	if (why) throw invalid(name, `${name}: ${why}`);
	if (!param.fetches) return;
	for (const url of (Array.isArray(value) ? value : [value]) as string[]) {
		services.assertFetchable(ctx, url, name);
		const bytes = param.file && services.storedBytes(ctx.origin, url);
		if (bytes) checkFile(name, bytes, param.file!, env.model);
	}
}

/**
 * Checks a request's parameters the way the service would: required ones present (a missing prompt
 * is 400 invalid_prompt), each value of the right type and within the chosen model's limits, media
 * URLs fetchable and their stored files within the file limits. The first problem answers 400.
 */
export function checkRequest(
	ctx: RouteContext,
	services: SandboxServices,
	rules: RouteParameters,
	params: Record<string, unknown>,
	model?: SandboxModel,
): void {
	for (const group of rules.oneOf ?? []) {
		if (group.every((name) => omitted(params[name])))
			throw invalid(group[0], `One of ${group.join(', ')} is required`);
	}
	const env = envFor(ctx, params, model);
	for (const [name, param] of Object.entries(rules.params)) {
		const value = params[name];
		const blank = typeof value === 'string' && value.trim() === '';
		if (param.required === 'prompt' && (omitted(value) || blank))
			throw new ProblemError(400, 'invalid_prompt', `${name} is missing or empty`, { param: name });
		if (omitted(value)) {
			if (param.required) throw invalid(name, `${name} is required`);
			if (
				param.requiredWhenModelHas &&
				model?.capabilities?.[param.requiredWhenModelHas] === true
			) {
				throw invalid(
					name,
					`${name} is required by ${model.id} (capabilities.${param.requiredWhenModelHas})`,
				);
			}
			continue;
		}
		checkParam(ctx, services, name, param, value, env);
	}
}
