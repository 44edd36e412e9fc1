import {
	bodyOf,
	listReply,
	principalOf,
	ProblemError,
	type Reply,
	type RouteContext,
	type RouteHandler,
} from '../http';
import { newId, nowIso } from '../ids';
import { mp3Seconds, playingSeconds } from '../media-length';
import { findModel } from '../models';
import {
	convertedVoiceOutputs,
	shapedImageOutputs,
	speechOutputs,
	videoOutputs,
	type PictureEdit,
} from '../outputs';
import { pictureSize } from '../picture-size';
import { makePng, pngText } from '../png';
import { priceOf } from '../pricing';
import type { SandboxServices } from '../services';
import { ASSET_VALIDITY_MS } from '../storage';
import { createPaidRun, runHandler } from './generation';

const DRAFT_WINDOW_MS = 7 * 24 * 3600 * 1000;
/** timeline renders are priced per second of the timeline */
const RENDER_CREDITS_PER_SECOND = 1;

export const SANDBOX_VOICES = [
	{ id: 'voice_aria', name: 'Aria', language: 'en', gender: 'female', style: 'warm narrator' },
	{ id: 'voice_bram', name: 'Bram', language: 'en', gender: 'male', style: 'calm documentary' },
	{ id: 'voice_chloe', name: 'Chloé', language: 'fr', gender: 'female', style: 'bright' },
	{ id: 'voice_dev', name: 'Dev', language: 'en', gender: 'male', style: 'energetic' },
	{ id: 'voice_elif', name: 'Elif', language: 'tr', gender: 'female', style: 'soft' },
	{ id: 'voice_felix', name: 'Felix', language: 'de', gender: 'male', style: 'deep' },
	{ id: 'voice_gia', name: 'Gia', language: 'it', gender: 'female', style: 'playful' },
	{ id: 'voice_hiro', name: 'Hiro', language: 'ja', gender: 'male', style: 'measured' },
	{ id: 'voice_ines', name: 'Inês', language: 'pt', gender: 'female', style: 'news' },
	{ id: 'voice_jonas', name: 'Jonas', language: 'sv', gender: 'male', style: 'friendly' },
	{ id: 'voice_kemi', name: 'Kemi', language: 'en', gender: 'female', style: 'confident' },
	{ id: 'voice_luca', name: 'Luca', language: 'es', gender: 'male', style: 'storyteller' },
].map((v) => ({ ...v, object: 'voice', preview_url: null as string | null }));

const GEDI_PRESETS = [
	'orbit',
	'dolly_zoom',
	'handheld',
	'crash_zoom',
	'whip_pan',
	'crane_up',
	'tracking_left',
	'bullet_time',
].map((id, i) => ({
	id: `gedi_preset_${id}`,
	object: 'motion_preset',
	name: id.replace(/_/g, ' '),
	camera_path: id,
	default_duration_seconds: i % 2 ? 5 : 4,
}));

const MOTION_LIBRARY = [
	'walk_cycle',
	'jump',
	'wave',
	'dance_spin',
	'sit_down',
	'run',
	'turn_around',
	'bow',
].map((id) => ({
	id: `motion_${id}`,
	object: 'motion',
	name: id.replace(/_/g, ' '),
	duration_seconds: 3,
	category: /dance|spin/.test(id) ? 'dance' : 'everyday',
}));

const isVoice = (id: unknown) => SANDBOX_VOICES.some((v) => v.id === id);

function requireVoice(id: unknown, param: string): void {
	if (!isVoice(id))
		throw new ProblemError(
			400,
			'invalid_parameter',
			`${param}: no voice ${String(id)} (see GET /audio/voices)`,
			{ param },
		);
}

interface Timeline {
	id: string;
	object: 'timeline';
	name: string;
	clips: Array<Record<string, unknown>>;
	aspect_ratio: string | null;
	audio_url: string | null;
	duration_seconds: number;
	created_at: string;
	updated_at: string;
}

function checkClips(clips: unknown): Array<Record<string, unknown>> {
	if (!Array.isArray(clips) || clips.length === 0)
		throw new ProblemError(400, 'invalid_parameter', 'clips must be a non-empty array', {
			param: 'clips',
		});
	return clips.map((clip, i) => {
		const c = clip as Record<string, unknown>;
		if (
			typeof c !== 'object' ||
			c === null ||
			(typeof c.video_url !== 'string' && typeof c.image_url !== 'string')
		) {
			throw new ProblemError(
				400,
				'invalid_parameter',
				`clips[${i}] needs a video_url or an image_url`,
				{ param: 'clips' },
			);
		}
		const duration = Number(c.duration ?? 5);
		if (!Number.isFinite(duration) || duration <= 0 || duration > 600) {
			throw new ProblemError(
				400,
				'invalid_parameter',
				`clips[${i}].duration must be 0 to 600 seconds`,
				{ param: 'clips' },
			);
		}
		return { ...c, duration };
	});
}

function timelineDuration(clips: Array<Record<string, unknown>>): number {
	let end = 0;
	let cursor = 0;
	for (const clip of clips) {
		const start = clip.start === undefined ? cursor : Number(clip.start);
		cursor = start + Number(clip.duration);
		end = Math.max(end, cursor);
	}
	return Math.round(end * 100) / 100;
}

/**
 * Handlers of the video, audio and media routes that do more than the shared runHandler: drafts
 * and their finals, timelines and their renders, voices, motion presets and frame extraction.
 */
export function mediaHandlers(services: SandboxServices): Record<string, RouteHandler> {
	const drafts = new Map<string, { modelId: string; params: Record<string, unknown> }>();
	const timelines = new Map<string, { accountId: string; timeline: Timeline; renders: string[] }>();
	const generateVideo = runHandler(services, videoOutputs);
	const speech = runHandler(services, speechOutputs);
	/** how long one of the run's inputs plays, when the sandbox holds it (else the caller falls back: 1 s, or the asked length) */
	const lastingAsInput = (ctx: RouteContext, param: string) => {
		const bytes = services.heldBytes(ctx.origin, bodyOf(ctx)[param]);
		return (bytes && (playingSeconds(bytes) ?? mp3Seconds(bytes))) || undefined;
	};
	/** image outputs shaped like the run's input picture (and showing its caption), when the sandbox holds it */
	const imagesShapedLike =
		(param: string, edit?: PictureEdit): RouteHandler =>
		(ctx) => {
			const value = bodyOf(ctx)[param];
			const bytes = services.heldBytes(ctx.origin, Array.isArray(value) ? value[0] : value);
			const size = bytes && pictureSize(bytes);
			return runHandler(
				services,
				shapedImageOutputs(size && { ...size, caption: pngText(bytes) }, edit),
			)(ctx);
		};

	const timelineOf = (ctx: RouteContext) => {
		const id = String(ctx.req.params.timelineId);
		const entry = timelines.get(id);
		if (!entry || entry.accountId !== principalOf(ctx).accountId)
			throw new ProblemError(404, 'not_found', `No timeline ${id}`);
		return entry;
	};

	return {
		'POST /videos/generations': (ctx) => {
			const params = bodyOf(ctx);
			const reply = generateVideo(ctx) as Reply;
			if (params.draft === true && reply.runId) {
				const record = ctx.state.runs.get(reply.runId)!;
				drafts.set(reply.runId, { modelId: String(record.run.model), params });
			}
			return reply;
		},
		'POST /videos/generations/{id}/final': (ctx) => {
			const id = String(ctx.req.params.id);
			const record = ctx.state.runs.get(id);
			if (!record || record.accountId !== principalOf(ctx).accountId)
				throw new ProblemError(404, 'not_found', `No run ${id}`);
			const draft = drafts.get(id);
			if (!draft)
				throw new ProblemError(400, 'invalid_parameter', `Run ${id} is not a draft video`, {
					param: 'id',
				});
			if (record.run.status !== 'completed')
				throw new ProblemError(
					409,
					'draft_not_ready',
					`Draft ${id} is ${record.run.status}; finalize it once it has completed`,
				);
			if (Date.now() - Date.parse(String(record.run.completed_at)) > DRAFT_WINDOW_MS) {
				throw new ProblemError(
					409,
					'draft_expired',
					`Draft ${id} is older than 7 days; generate it again`,
				);
			}
			const model = findModel(draft.modelId)!;
			const { team_id, project_id, quote_token } = bodyOf(ctx);
			const params: Record<string, unknown> = {
				...draft.params,
				draft: false,
				team_id,
				project_id,
				quote_token,
			};
			return createPaidRun(ctx, services, {
				endpoint: ctx.endpoint,
				model,
				params,
				price: priceOf(model, { ...draft.params, draft: false }),
				makeOutput: videoOutputs,
				inputSummary: {
					model: model.id,
					draft_run_id: id,
					prompt: draft.params.prompt ?? null,
					duration: draft.params.duration ?? null,
				},
			});
		},
		'POST /audio/speech': (ctx) => {
			const params = bodyOf(ctx);
			if (Array.isArray(params.dialogue))
				params.dialogue.forEach((line, i) =>
					requireVoice((line as Record<string, unknown>)?.voice_id, `dialogue[${i}].voice_id`),
				);
			else if (params.voice_id !== undefined) requireVoice(params.voice_id, 'voice_id');
			return speech(ctx);
		},
		'POST /audio/voice-conversions': (ctx) => {
			requireVoice(bodyOf(ctx).voice_id, 'voice_id');
			return runHandler(
				services,
				convertedVoiceOutputs(lastingAsInput(ctx, 'audio_url') ?? 1),
			)(ctx);
		},
		'POST /videos/upscale': (ctx) => {
			const seconds = lastingAsInput(ctx, 'video_url');
			return runHandler(services, (runId, params) =>
				videoOutputs(runId, { ...params, duration: seconds ?? params.duration }),
			)(ctx);
		},
		'POST /lipsync/generations': (ctx) => {
			const seconds = lastingAsInput(ctx, 'audio_url');
			return runHandler(services, (runId, params) =>
				videoOutputs(runId, { ...params, duration: seconds ?? params.duration }),
			)(ctx);
		},
		'POST /images/upscale': imagesShapedLike('image_url', 'Upscaled'),
		'POST /images/background-remove': imagesShapedLike('image_url', 'Background removed'),
		// edits: images generated from input images and no asked ratio keep the first input's shape
		'POST /images/generations': imagesShapedLike('image_urls'),
		'GET /audio/voices': (ctx) => listReply(ctx.req, SANDBOX_VOICES),
		'GET /videos/gedi/presets': (ctx) => listReply(ctx.req, GEDI_PRESETS),
		'GET /videos/gedi/motion-library': (ctx) => listReply(ctx.req, MOTION_LIBRARY),
		'POST /media/frames': (ctx) => {
			const body = bodyOf(ctx);
			if (typeof body.video_url !== 'string' || !body.video_url)
				throw new ProblemError(400, 'invalid_parameter', 'video_url is required', {
					param: 'video_url',
				});
			services.assertFetchable(ctx, body.video_url, 'video_url');
			const times =
				Array.isArray(body.timestamps) && body.timestamps.length
					? body.timestamps.map(Number)
					: undefined;
			const count = times ? times.length : Number(body.count ?? 4);
			if (!Number.isInteger(count) || count < 1 || count > 20)
				throw new ProblemError(
					400,
					'invalid_parameter',
					'count must be 1 to 20 (timestamps up to 20)',
					{ param: times ? 'timestamps' : 'count' },
				);
			if (times?.some((t) => !Number.isFinite(t) || t < 0))
				throw new ProblemError(400, 'invalid_parameter', 'timestamps must be seconds >= 0', {
					param: 'timestamps',
				});
			const accountId = principalOf(ctx).accountId;
			const frames = Array.from({ length: count }, (_, i) => {
				const assetId = newId('asset');
				const expires = Date.now() + ASSET_VALIDITY_MS;
				ctx.state.uploads.set(assetId, {
					asset_id: assetId,
					accountId,
					content_type: 'image/png',
					filename: `frame_${i}.png`,
					uploadExpiresAt: Date.now(),
					assetExpiresAt: expires,
					bytes: makePng(32, 32, i * 7919 + body.video_url!.toString().length),
				});
				return {
					index: i,
					time: times ? times[i] : Math.round((i / count) * 100) / 100,
					asset_id: assetId,
					url: services.urls.sign(ctx.origin, `/storage/assets/${assetId}`, expires),
					content_type: 'image/png',
				};
			});
			return {
				status: 200,
				body: { object: 'frame_extraction', video_url: body.video_url, frames },
			};
		},
		'POST /videos/timelines': (ctx) => {
			const body = bodyOf(ctx);
			if (typeof body.name !== 'string' || !body.name.trim())
				throw new ProblemError(400, 'invalid_parameter', 'name is required', { param: 'name' });
			const clips = checkClips(body.clips);
			const at = nowIso();
			const timeline: Timeline = {
				id: newId('tl'),
				object: 'timeline',
				name: body.name.trim(),
				clips,
				aspect_ratio: typeof body.aspect_ratio === 'string' ? body.aspect_ratio : null,
				audio_url: typeof body.audio_url === 'string' ? body.audio_url : null,
				duration_seconds: timelineDuration(clips),
				created_at: at,
				updated_at: at,
			};
			timelines.set(timeline.id, { accountId: principalOf(ctx).accountId, timeline, renders: [] });
			return { status: 201, body: timeline };
		},
		'GET /videos/timelines/{timelineId}': (ctx) => ({
			status: 200,
			body: timelineOf(ctx).timeline,
		}),
		'PATCH /videos/timelines/{timelineId}': (ctx) => {
			const { timeline } = timelineOf(ctx);
			const body = bodyOf(ctx);
			if (body.name !== undefined) {
				if (typeof body.name !== 'string' || !body.name.trim())
					throw new ProblemError(400, 'invalid_parameter', 'name must be a non-empty string', {
						param: 'name',
					});
				timeline.name = body.name.trim();
			}
			if (body.clips !== undefined) {
				timeline.clips = checkClips(body.clips);
				timeline.duration_seconds = timelineDuration(timeline.clips);
			}
			timeline.updated_at = nowIso();
			return { status: 200, body: timeline };
		},
		'POST /videos/timelines/{timelineId}/renders': (ctx) => {
			const entry = timelineOf(ctx);
			const params: Record<string, unknown> = {
				...bodyOf(ctx),
				timeline_id: entry.timeline.id,
				duration: entry.timeline.duration_seconds,
			};
			const reply = createPaidRun(ctx, services, {
				endpoint: ctx.endpoint,
				params,
				price: Math.round(entry.timeline.duration_seconds * RENDER_CREDITS_PER_SECOND * 100) / 100,
				makeOutput: videoOutputs,
				inputSummary: {
					model: null,
					timeline_id: entry.timeline.id,
					duration: entry.timeline.duration_seconds,
					resolution: params.resolution ?? null,
				},
			});
			if (reply.runId) entry.renders.unshift(reply.runId);
			return reply;
		},
		'GET /videos/timelines/{timelineId}/renders': (ctx) => {
			const entry = timelineOf(ctx);
			return listReply(
				ctx.req,
				entry.renders.map((id) => ctx.state.runs.get(id)!.run),
			);
		},
	};
}
