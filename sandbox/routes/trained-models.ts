import { newId, nowIso } from '../ids';
import {
	bodyOf,
	listReply,
	principalOf,
	ProblemError,
	type RouteContext,
	type RouteHandler,
} from '../http';
import type { OutputMaker } from '../outputs';
import type { SandboxServices } from '../services';
import { ownedBy, producerStore, type Json, type Owned } from './library-store';
import { checkProducer, estimateReply, round, stamp, submitProducerRun } from './producer-runs';

const CREDITS_PER_STEP = 0.05;
const STYLE_TRAINING_CREDITS = 30;
const MIN_TRAINING_IMAGES = 4;
const MAX_TRAINING_IMAGES = 50;

/** Styles every account has (GET /image-styles also lists the account's trained ones). */
const PRESET_STYLES = [
	['style_cinematic', 'Cinematic'],
	['style_watercolor', 'Watercolor'],
	['style_anime', 'Anime'],
	['style_product_studio', 'Product Studio'],
	['style_line_art', 'Line Art'],
].map(([id, name]) => ({
	id,
	object: 'image_style',
	name,
	source: 'preset',
	status: 'ready',
	skill_id: null,
	created_at: '2025-01-01T00:00:00.000Z',
}));

function checkTrainingImages(ctx: RouteContext, required: boolean): number {
	const urls = bodyOf(ctx).image_urls;
	if (urls === undefined && !required) return 0;
	if (
		!Array.isArray(urls) ||
		urls.length < MIN_TRAINING_IMAGES ||
		urls.length > MAX_TRAINING_IMAGES
	) {
		throw new ProblemError(
			400,
			'invalid_parameter',
			`image_urls must hold ${MIN_TRAINING_IMAGES} to ${MAX_TRAINING_IMAGES} image URLs`,
			{ param: 'image_urls' },
		);
	}
	return urls.length;
}

function steps(ctx: RouteContext, fallback: number): number {
	const value = bodyOf(ctx).steps;
	return value === undefined ? fallback : Number(value);
}

function ownLora(ctx: RouteContext): Owned<Json> {
	const id = String(ctx.req.params.loraId);
	const lora = producerStore(ctx.state).loras.get(id);
	if (!lora || lora.accountId !== principalOf(ctx).accountId)
		throw new ProblemError(404, 'not_found', `No LoRA ${id}`);
	return lora;
}

const noFiles: OutputMaker = () => ({ files: [] });

/** Handlers of the trained-model routes (LoRAs, image styles, style skills). */
export function trainedModelHandlers(services: SandboxServices): Record<string, RouteHandler> {
	return {
		'POST /loras/estimate-cost': (ctx) => {
			checkProducer(ctx, services);
			checkTrainingImages(ctx, false);
			return estimateReply(ctx, services, '/loras', round(steps(ctx, 1000) * CREDITS_PER_STEP));
		},
		'POST /loras': (ctx) => {
			checkProducer(ctx, services);
			const imageCount = checkTrainingImages(ctx, true);
			const body = bodyOf(ctx);
			const store = producerStore(ctx.state);
			const id = newId('lora');
			const at = nowIso();
			const lora: Json = {
				id,
				object: 'lora',
				name: String(body.name),
				kind: String(body.kind ?? 'character'),
				trigger_word:
					typeof body.trigger_word === 'string' && body.trigger_word ? body.trigger_word : null,
				status: 'training',
				steps: steps(ctx, 1000),
				image_count: imageCount,
				run_id: null,
				created_at: at,
				updated_at: at,
				completed_at: null,
			};
			const reply = submitProducerRun(ctx, services, {
				credits: round(Number(lora.steps) * CREDITS_PER_STEP),
				quoteKey: '/loras',
				capability: 'lora_training',
				resourceId: id,
				makeOutput: () => ({ files: [], extra: { lora_id: id } }),
				onFinish: (status) => {
					lora.status = status;
					lora.completed_at = status === 'completed' ? nowIso() : null;
					stamp(lora);
				},
			});
			lora.run_id = reply.runId;
			store.loras.set(id, { accountId: principalOf(ctx).accountId, data: lora });
			return reply;
		},
		'POST /loras/{loraId}/continue': (ctx) => {
			const lora = ownLora(ctx).data;
			checkProducer(ctx, services);
			const imageCount = checkTrainingImages(ctx, false);
			if (lora.status !== 'completed') {
				throw new ProblemError(
					409,
					'lora_not_ready',
					`LoRA ${String(lora.id)} is ${String(lora.status)}; only a completed LoRA can be trained further`,
				);
			}
			const more = steps(ctx, 500);
			const reply = submitProducerRun(ctx, services, {
				credits: round(more * CREDITS_PER_STEP),
				quoteKey: `/loras/${String(lora.id)}/continue`,
				capability: 'lora_training',
				resourceId: String(lora.id),
				makeOutput: () => ({ files: [], extra: { lora_id: lora.id } }),
				onFinish: (status) => {
					// a failed continuation leaves the earlier training usable
					lora.status = 'completed';
					if (status === 'completed') lora.steps = Number(lora.steps) + more;
					lora.completed_at = nowIso();
					stamp(lora);
				},
			});
			lora.status = 'training';
			lora.image_count = Number(lora.image_count) + imageCount;
			lora.run_id = reply.runId;
			stamp(lora);
			return reply;
		},
		'DELETE /loras/{loraId}': (ctx) => {
			const lora = ownLora(ctx).data;
			producerStore(ctx.state).loras.delete(String(lora.id));
			return { status: 204 };
		},
		'GET /loras': (ctx) => {
			const status = ctx.req.query.status;
			const loras = ownedBy(producerStore(ctx.state).loras, principalOf(ctx).accountId).filter(
				(l) => !status || l.status === status,
			);
			return listReply(ctx.req, loras);
		},
		'GET /loras/{loraId}': (ctx) => ({ status: 200, body: ownLora(ctx).data }),
		'GET /image-styles': (ctx) => {
			const trained = ownedBy(producerStore(ctx.state).imageStyles, principalOf(ctx).accountId);
			return listReply(ctx.req, [...trained, ...PRESET_STYLES]);
		},
		'POST /style-skills/{skillId}/train': (ctx) => {
			checkProducer(ctx, services);
			const skillId = String(ctx.req.params.skillId);
			if (!/^[A-Za-z0-9_-]{1,64}$/.test(skillId)) {
				throw new ProblemError(
					400,
					'invalid_parameter',
					'skillId takes 1 to 64 letters, digits, - and _',
					{ param: 'skillId' },
				);
			}
			checkTrainingImages(ctx, true);
			const accountId = principalOf(ctx).accountId;
			const store = producerStore(ctx.state);
			const id = `style_${skillId}`;
			const existing = store.imageStyles.get(id);
			if (existing && existing.accountId !== accountId)
				throw new ProblemError(
					409,
					'conflict',
					`Style skill ${skillId} belongs to another account`,
				);
			const at = nowIso();
			const style: Json = existing?.data ?? {
				id,
				object: 'image_style',
				source: 'trained',
				skill_id: skillId,
				created_at: at,
			};
			const name = bodyOf(ctx).name;
			const reply = submitProducerRun(ctx, services, {
				credits: STYLE_TRAINING_CREDITS,
				quoteKey: `/style-skills/${skillId}/train`,
				capability: 'style_training',
				resourceId: id,
				makeOutput: noFiles,
				onFinish: (status) => {
					style.status = status === 'completed' ? 'ready' : existing ? 'ready' : 'failed';
					stamp(style);
				},
			});
			Object.assign(style, {
				name: typeof name === 'string' && name ? name : (style.name ?? skillId),
				status: 'training',
				run_id: reply.runId,
				updated_at: at,
			});
			store.imageStyles.set(id, { accountId, data: style });
			return reply;
		},
	};
}
