import type { Capability } from '../models';
import {
	all,
	boolean,
	isArrayOf,
	isInteger,
	isNumber,
	isOneOf,
	isString,
	isStringList,
	isUri,
	isUriList,
	refused,
	string,
	uri,
	type Param,
	type ParamSet,
} from './checks';
import {
	audioLength,
	audioToggle,
	cameraTrajectory,
	countWithinModelLimit,
	dialogue,
	imageCount,
	lengthWithinModelLimit,
	listedByModel,
	loras,
	mentions,
	polycount,
	scaleFactor,
	videoLength,
	whereModelCan,
} from './model-limits';

/**
 * The API document's "Parameters named for generation", by the capability of the model that takes
 * them ("Which endpoint takes which is given by the model's capability"), with the `limits` key that
 * bounds each (document, "Limits"). Where the document gives no parameter name (speech text, sound
 * effect loop, the 3D limit keys as parameters, seeds outside speech, duration vs duration_seconds)
 * the project's choice from docs/request-fields.md ("Generation fields …") is used.
 */

const PROMPT_CAPS = ['prompt_max_length', 'max_prompt_chars', 'max_prompt_length'];

const prompt: Param = { check: all(isString, lengthWithinModelLimit(...PROMPT_CAPS)) };
const requiredPrompt: Param = { ...prompt, required: 'prompt' };
const seed: Param = { check: isInteger() };
const unitInterval: Param = { check: isNumber({ min: 0, max: 1 }) };
const uris = (...checks: Parameters<typeof all>): Param => ({
	check: all(isUriList, ...checks),
	fetches: true,
});
const fromModel = (...keys: string[]): Param => ({ check: all(isString, listedByModel(...keys)) });

/** Upscalers: `scale` and `modes` (the document's "scale / modes" row; `modes` is also the limits key). */
const upscaling: ParamSet = {
	scale: { check: scaleFactor },
	modes: { check: all(isOneOf('precise', 'creative'), listedByModel('modes')) },
	mode: {
		check: refused(
			'the upscaling mode is sent as modes (precise or creative), as the API document names it',
		),
	},
};

export const GENERATION_PARAMETERS: Record<Capability, ParamSet> = {
	image_generation: {
		prompt: requiredPrompt,
		negative_prompt: string,
		aspect_ratio: fromModel('aspect_ratios'),
		count: { check: imageCount },
		resolution: fromModel('resolutions', 'resolution'),
		quality: { check: all(isOneOf('low', 'medium', 'high'), listedByModel('qualities')) },
		image_url: { check: all(isUri, whereModelCan('image_to_output')), fetches: true },
		mask_url: uri,
		image_urls: uris(countWithinModelLimit('max_input_images')),
		reference_image_urls: uris(
			whereModelCan('reference_images'),
			countWithinModelLimit('max_reference_images'),
		),
		strength: unitInterval,
		control_mode: { check: isOneOf('canny', 'depth', 'pose', 'none') },
		control_scale: unitInterval,
		tiling_mode: { check: isOneOf('both', 'horizontal', 'vertical') },
		edit_precision: { check: all(isOneOf('regular', 'high'), listedByModel('edit_precisions')) },
		style_id: string,
		loras: { check: loras },
		mentions: { check: mentions },
	},
	video_generation: {
		prompt,
		aspect_ratio: fromModel('aspect_ratios'),
		duration: { check: videoLength },
		duration_seconds: { check: videoLength },
		resolution: fromModel('resolutions', 'resolution'),
		generate_audio: { check: audioToggle },
		image_url: { check: all(isUri, whereModelCan('image_to_output')), fetches: true },
		image_urls: uris(whereModelCan('first_last_frame'), countWithinModelLimit('max_input_images')),
		reference_image_urls: uris(
			whereModelCan('reference_images'),
			countWithinModelLimit('max_reference_images'),
		),
		reference_video_urls: uris(countWithinModelLimit('max_reference_videos')),
		audio_urls: uris(countWithinModelLimit('max_reference_audio')),
		source_video_url: {
			check: isUri,
			fetches: true,
			// "required by extend, edit, motion-control, recast and insert style models"
			requiredWhenModelHas: 'source_video',
			file: {
				maxMb: ['source_video_max_mb'],
				maxSeconds: ['source_video_max_seconds'],
				minSeconds: ['source_video_min_seconds'],
				maxShotSeconds: ['source_video_max_shot_seconds'],
			},
		},
		keyframes: {
			check: all(
				isArrayOf(() => undefined),
				countWithinModelLimit('max_keyframes'),
			),
		},
		camera_path: {
			check: all(whereModelCan('motion_control'), isString, listedByModel('camera_paths')),
		},
		camera_trajectory: { check: all(whereModelCan('motion_control'), cameraTrajectory) },
		video_style: fromModel('video_style', 'video_styles'),
		damage_level: fromModel('damage_level', 'damage_levels'),
		extend_output: { check: isOneOf('extended', 'continuation') },
		insert_start_time: { check: isNumber({ min: 0 }) },
		insert_resume_time: { check: isNumber({ min: 0 }) },
		color_match: boolean,
		draft: boolean,
		task: { check: isOneOf('reference', 'editing', 'extension') },
		seed,
		loras: { check: loras },
	},
	speech_generation: {
		text: { check: all(isString, lengthWithinModelLimit('max_characters')) },
		voice_id: string,
		dialogue: { check: dialogue },
		// the document names speed without a range and no limits key bounds it
		speed: { check: isNumber({ above: 0 }) },
		language_code: string,
		seed,
		stability: { check: isNumber() },
		with_timestamps: boolean,
	},
	music_generation: {
		prompt,
		duration_seconds: { check: audioLength },
		negative_prompt: string,
		lyrics: string,
		composition_plan: {
			check: (value) =>
				typeof value === 'object' && value !== null
					? undefined
					: `${JSON.stringify(value)} is not a JSON object or array`,
		},
		force_instrumental: boolean,
		store_for_inpainting: boolean,
		song_id: string,
		video_url: uri,
		seed,
	},
	sound_effect_generation: {
		prompt: requiredPrompt,
		duration_seconds: { check: audioLength },
		loop: boolean,
	},
	transcription: {
		audio_url: {
			check: isUri,
			fetches: true,
			file: { maxMb: ['max_file_mb'], maxSeconds: ['max_duration_seconds'] },
		},
		video_url: {
			check: isUri,
			fetches: true,
			file: { maxMb: ['max_file_mb'], maxSeconds: ['max_duration_seconds'] },
		},
		language_code: string,
		keyterms: { check: all(isStringList, countWithinModelLimit('max_keyterms')) },
		entity_detection: boolean,
		entity_redaction: boolean,
		no_verbatim: boolean,
		detect_speaker_roles: boolean,
	},
	image_editing: {
		image_url: { check: isUri, fetches: true, required: true, file: { maxMb: ['max_file_mb'] } },
	},
	image_upscaling: {
		image_url: { check: isUri, fetches: true, required: true, file: { maxMb: ['max_file_mb'] } },
		...upscaling,
	},
	video_upscaling: {
		video_url: {
			check: isUri,
			fetches: true,
			required: true,
			file: { maxMb: ['max_file_mb'], maxSeconds: ['max_duration_seconds'] },
		},
		...upscaling,
	},
	lipsync_generation: {
		audio_url: {
			check: isUri,
			fetches: true,
			required: true,
			file: { maxSeconds: ['max_duration_seconds'] },
		},
		video_url: uri,
		image_url: uri,
		resolution: fromModel('resolutions', 'resolution'),
		prompt,
		seed,
	},
	model_3d_generation: {
		image_urls: {
			check: all(isArrayOf(isUri, { min: 1, max: 4 }), countWithinModelLimit('max_images')),
			fetches: true,
			required: true,
		},
		output_formats: {
			check: isArrayOf(
				all(isOneOf('glb', 'fbx', 'obj', 'usdz', 'blend', 'stl'), listedByModel('output_formats')),
				{ min: 1 },
			),
		},
		target_polycount: { check: polycount },
		topology: { check: all(isOneOf('quad', 'triangle'), listedByModel('topology')) },
		prompt,
		seed,
	},
	game_generation: { prompt: requiredPrompt, game_id: string },
	app_generation: { prompt: requiredPrompt, app_id: string },
	faceless_reel_generation: {
		prompt: requiredPrompt,
		duration_seconds: { check: videoLength },
		aspect_ratio: { check: isOneOf('9:16', '1:1', '16:9') },
		preset_id: string,
		style_id: string,
		music_preset_id: string,
		caption_preset_id: string,
		voice_id: string,
	},
};
