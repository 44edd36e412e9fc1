import type { SandboxModel } from './models';

function round(credits: number): number {
	return Math.round(credits * 100) / 100;
}

function textLength(params: Record<string, unknown>): number {
	if (Array.isArray(params.dialogue)) {
		return params.dialogue.reduce(
			(n: number, line) => n + String((line as { text?: unknown })?.text ?? '').length,
			0,
		);
	}
	return String(params.text ?? params.prompt ?? params.lyrics ?? '').length;
}

/** Units a request consumes for its model's pricing unit (images, seconds or characters). */
export function billableUnits(model: SandboxModel, params: Record<string, unknown>): number {
	switch (model.pricing.unit) {
		case 'per_image': {
			const count = Number(
				params.count ?? (Array.isArray(params.image_urls) ? params.image_urls.length : 1),
			);
			return Number.isFinite(count) && count > 0 ? count : 1;
		}
		case 'per_second': {
			if (Array.isArray(params.scenes))
				return params.scenes.reduce(
					(n: number, scene) => n + (Number((scene as { duration?: unknown })?.duration) || 5),
					0,
				);
			const seconds = Number(params.duration ?? params.duration_seconds ?? 5);
			return Number.isFinite(seconds) && seconds > 0 ? seconds : 5;
		}
		case 'per_character':
			return Math.max(1, textLength(params));
	}
}

/** The price in credits of a request on a model. */
export function priceOf(model: SandboxModel, params: Record<string, unknown>): number {
	const audio = params.generate_audio === true && model.capability === 'video_generation' ? 1.5 : 1;
	// a draft render costs a quarter; its final costs the full price
	const draft = params.draft === true ? 0.25 : 1;
	return round(billableUnits(model, params) * model.pricing.credits * audio * draft);
}
