import type { Capability } from '../models';
import {
	all,
	boolean,
	isArrayOf,
	isInteger,
	isNumber,
	isObject,
	isOneOf,
	isString,
	isUri,
	required,
	string,
	uri,
	type Check,
	type Param,
	type ParamSet,
} from './checks';
import { GENERATION_PARAMETERS } from './generation';
import { countWithinModelLimit, listedByModel } from './model-limits';

/**
 * What each route the sandbox checks generically takes: the capability of its `model` (the
 * capability's default when omitted), its parameters, and groups of which one must be given.
 * Routes of a model capability take that capability's parameters (API document); the others take
 * the fields this project chose where the document shows no body (docs/request-fields.md).
 */
export interface RouteParameters {
	capability?: Capability;
	params: ParamSet;
	/** at least one of each group must be present */
	oneOf?: string[][];
}

const httpUrl: Check = all(isUri, (value) =>
	/^https?:\/\//i.test(String(value))
		? undefined
		: `${JSON.stringify(value)} is not an http or https address`,
);
const prompt: Param = { check: isString, required: 'prompt' };
const wholeNumber = (min: number, max: number): Param => ({ check: isInteger({ min, max }) });
const uriListParam = (bounds: { min?: number; max?: number } = {}): Param => ({
	check: isArrayOf(isUri, bounds),
	fetches: true,
});
const trainingSteps: Param = { check: isInteger({ min: 100, max: 4000 }) };

const reelChoices: ParamSet = {
	frequency: { check: isOneOf('daily', 'weekly', 'monthly') },
	duration_seconds: { check: all(isInteger({ min: 1 }), listedByModel('duration_seconds')) },
};

const explainer: ParamSet = {
	prompt,
	duration_seconds: wholeNumber(5, 300),
	audience: string,
	voice_id: string,
	style_id: string,
};
const musicVideo: ParamSet = {
	prompt,
	audio_url: uri,
	lyrics: string,
	duration_seconds: wholeNumber(5, 600),
	style_id: string,
};
const pictureBook: ParamSet = {
	prompt,
	title: string,
	page_count: wholeNumber(4, 32),
	age_range: { check: isOneOf('0-2', '3-5', '6-8', '9-12') },
	style_id: string,
};
const lora: ParamSet = {
	name: required(string),
	image_urls: required(uriListParam()),
	kind: { check: isOneOf('character', 'style', 'object') },
	trigger_word: string,
	steps: trainingSteps,
};

const capabilityRoute = (capability: Capability, oneOf?: string[][]): RouteParameters => ({
	capability,
	params: GENERATION_PARAMETERS[capability],
	...(oneOf ? { oneOf } : {}),
});

export const ROUTE_PARAMETERS: Record<string, RouteParameters> = {
	'POST /images/generations': capabilityRoute('image_generation'),
	'POST /images/background-remove': capabilityRoute('image_editing'),
	'POST /images/upscale': capabilityRoute('image_upscaling'),
	'POST /videos/generations': capabilityRoute('video_generation'),
	'POST /videos/upscale': capabilityRoute('video_upscaling'),
	'POST /audio/speech': capabilityRoute('speech_generation', [['text', 'dialogue']]),
	'POST /audio/music': capabilityRoute('music_generation', [
		['prompt', 'lyrics', 'composition_plan'],
	]),
	'POST /audio/sfx': capabilityRoute('sound_effect_generation'),
	'POST /audio/transcriptions': capabilityRoute('transcription', [['audio_url', 'video_url']]),
	'POST /lipsync/generations': capabilityRoute('lipsync_generation', [['video_url', 'image_url']]),
	'POST /models/3d/generations': capabilityRoute('model_3d_generation'),
	'POST /games/generations': capabilityRoute('game_generation'),
	'POST /apps/deployments': capabilityRoute('app_generation'),
	'POST /faceless-reels/generations': capabilityRoute('faceless_reel_generation'),
	'POST /faceless-reels/estimate-cost': capabilityRoute('faceless_reel_generation'),

	// routes that use a capability's models with a body of their own
	'POST /scenes/blockouts': {
		capability: 'image_generation',
		params: {
			prompt: GENERATION_PARAMETERS.image_generation.prompt,
			aspect_ratio: GENERATION_PARAMETERS.image_generation.aspect_ratio,
			image_url: uri,
			reference_image_urls: {
				check: all(isArrayOf(isUri), countWithinModelLimit('max_reference_images')),
				fetches: true,
			},
		},
	},
	'POST /videos/compose': {
		capability: 'video_generation',
		params: {
			scenes: required({
				check: isArrayOf(
					isObject({
						prompt: isString,
						image_url: isUri,
						video_url: isUri,
						duration: isNumber({ above: 0 }),
					}),
					{ min: 1, max: 20 },
				),
			}),
			aspect_ratio: GENERATION_PARAMETERS.video_generation.aspect_ratio,
			resolution: GENERATION_PARAMETERS.video_generation.resolution,
			audio_url: uri,
			transition: { check: isOneOf('cut', 'crossfade', 'fade_to_black') },
		},
	},
	'POST /audio/voice-conversions': {
		capability: 'speech_generation',
		params: {
			audio_url: required(uri),
			voice_id: required(string),
			stability: { check: isNumber() },
		},
	},

	// routes without models (docs/request-fields.md)
	'POST /captures': {
		params: {
			url: required({ check: httpUrl }),
			viewport: { check: isOneOf('desktop', 'tablet', 'mobile') },
			full_page: boolean,
			time_seconds: { check: isNumber({ min: 0 }) },
		},
	},
	'POST /videos/analyses': { params: { video_url: required(uri), prompt: string } },
	'POST /videos/voices': {
		params: {
			name: required(string),
			audio_urls: required(uriListParam({ min: 1, max: 3 })),
			description: string,
		},
	},
	'POST /videos/timelines/{timelineId}/renders': {
		params: { resolution: { check: isOneOf('480p', '720p', '1080p', '4k') } },
	},
	'POST /products/extract': {
		params: {
			url: required({ check: httpUrl }),
			max_images: { check: isInteger({ min: 1, max: 10 }) },
			language_code: string,
		},
	},
	'POST /ads/analyze': {
		params: {
			video_url: uri,
			image_url: uri,
			ad_copy: string,
			platform: { check: isOneOf('tiktok', 'instagram', 'youtube', 'facebook') },
		},
		oneOf: [['video_url', 'image_url', 'ad_copy']],
	},
	'POST /loras': { params: lora },
	'POST /loras/estimate-cost': { params: { ...lora, name: string } },
	'POST /loras/{loraId}/continue': { params: { steps: trainingSteps, image_urls: uriListParam() } },
	'POST /style-skills/{skillId}/train': {
		params: { image_urls: required(uriListParam()), name: string },
	},
	'POST /faceless-reels/subscriptions': {
		capability: 'faceless_reel_generation',
		params: {
			name: required(string),
			topic: required(string),
			...reelChoices,
			frequency: required(reelChoices.frequency),
		},
	},
	'PATCH /faceless-reels/subscriptions/{id}': {
		capability: 'faceless_reel_generation',
		params: { ...reelChoices, status: { check: isOneOf('active', 'paused') } },
	},
	'POST /faceless-reels/subscriptions/{id}/episodes': { params: { topic: string } },
	'POST /explainers/generations': { params: explainer },
	'POST /explainers/estimate-cost': { params: explainer },
	'POST /music-videos/generations': { params: musicVideo },
	'POST /music-videos/estimate-cost': { params: musicVideo },
	'POST /picture-books/generations': { params: pictureBook },
	'POST /picture-books/estimate-cost': { params: pictureBook },
	'POST /coloring-books/generations': {
		params: {
			prompt,
			title: string,
			page_count: wholeNumber(1, 50),
			difficulty: { check: isOneOf('easy', 'medium', 'hard') },
		},
	},
	'POST /games/deployments': {
		params: { game_id: required(string), version: { check: isInteger({ min: 0 }) } },
	},
	'POST /influencers': {
		params: {
			handle: required(string),
			display_name: string,
			source_type: { check: isOneOf('uploaded', 'generated') },
			image_urls: uriListParam(),
			description: string,
		},
	},
};
