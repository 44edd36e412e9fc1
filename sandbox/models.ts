/** Values of Model.capability (API document). */
export type Capability =
	| 'image_generation'
	| 'video_generation'
	| 'speech_generation'
	| 'music_generation'
	| 'sound_effect_generation'
	| 'transcription'
	| 'image_editing'
	| 'video_upscaling'
	| 'image_upscaling'
	| 'lipsync_generation'
	| 'model_3d_generation'
	| 'game_generation'
	| 'app_generation'
	| 'faceless_reel_generation';

/** A model alias as the sandbox serves it, with its price. */
export interface SandboxModel {
	id: string;
	capability: Capability;
	name: string;
	description: string;
	status: 'available' | 'preview';
	is_default: boolean;
	limits: Record<string, unknown>;
	capabilities?: Record<string, boolean>;
	/**
	 * A superseded alias: GET /models no longer lists it, but a request that pins it still runs
	 * ("Some aliases are superseded by newer ones but stay usable when pinned"). Not a field of the
	 * Model resource; the successor is named here for readers only.
	 */
	supersededBy?: string;
	pricing: { unit: 'per_image' | 'per_second' | 'per_character'; credits: number; notes?: string };
}

const m = (
	id: string,
	capability: Capability,
	name: string,
	limits: Record<string, unknown>,
	pricing: SandboxModel['pricing'],
	extra: Partial<SandboxModel> = {},
): SandboxModel => ({
	id,
	capability,
	name,
	description: extra.description ?? `${name} (${capability.replace(/_/g, ' ')})`,
	status: 'available',
	is_default: false,
	limits,
	pricing,
	...extra,
});

/** Aliases for every id prefix of the API document: defaults, previews and superseded ones. */
export const sandboxModels: SandboxModel[] = [
	m(
		'image.aurora-2',
		'image_generation',
		'Aurora 2',
		{
			aspect_ratios: ['1:1', '16:9', '9:16', '4:3', '3:4', '21:9'],
			max_count: 4,
			resolutions: ['1K', '2K'],
			qualities: ['low', 'medium', 'high'],
			max_reference_images: 4,
			prompt_max_length: 4000,
			loras: 3,
		},
		{ unit: 'per_image', credits: 4 },
		{
			is_default: true,
			capabilities: { text_to_output: true, image_to_output: true, reference_images: true },
		},
	),
	m(
		'image.aurora-1',
		'image_generation',
		'Aurora 1',
		{ aspect_ratios: ['1:1', '16:9', '9:16'], max_count: 4, prompt_max_length: 2000 },
		{ unit: 'per_image', credits: 3 },
	),
	m(
		'image.aurora-classic',
		'image_generation',
		'Aurora Classic',
		{ aspect_ratios: ['1:1'], max_count: 2, prompt_max_length: 1000 },
		{ unit: 'per_image', credits: 2 },
		{ supersededBy: 'image.aurora-2' },
	),
	m(
		'image.lumen-xl',
		'image_generation',
		'Lumen XL',
		{
			aspect_ratios: ['1:1', '3:2', '2:3', '16:9', '9:16', 'auto'],
			max_count: 6,
			resolutions: ['1K', '2K', '4K'],
			edit_precisions: ['regular', 'high'],
			max_input_images: 6,
			max_prompt_chars: 2000,
		},
		{ unit: 'per_image', credits: 8 },
		{ description: 'Composes up to 6 input images (image_urls) into one picture' },
	),
	m(
		'image.fuse-1',
		'image_generation',
		'Fuse',
		{
			aspect_ratios: ['1:1', '4:3', '3:4', 'auto'],
			max_count: 2,
			max_input_images: 3,
			max_reference_images: 2,
			qualities: ['medium', 'high'],
		},
		{ unit: 'per_image', credits: 6 },
		{ capabilities: { text_to_output: true, image_to_output: true, reference_images: true } },
	),
	m(
		'image.sketch-preview',
		'image_generation',
		'Sketch',
		{ aspect_ratios: ['1:1'], max_count: 1, max_prompt_length: 500 },
		{ unit: 'per_image', credits: 1.5 },
		{
			status: 'preview',
			capabilities: { text_to_output: true, image_to_output: false, reference_images: false },
		},
	),
	m(
		'image.tile-1',
		'image_generation',
		'Tile',
		{ aspect_ratios: ['1:1'], max_count: 2 },
		{ unit: 'per_image', credits: 2 },
	),
	m(
		'image.struct-1',
		'image_generation',
		'Structure Guide',
		{ aspect_ratios: ['1:1', '16:9', '9:16'], max_count: 2 },
		{ unit: 'per_image', credits: 5 },
	),

	m(
		'image_edit.cutout',
		'image_editing',
		'Cutout',
		{ max_file_mb: 20 },
		{ unit: 'per_image', credits: 1 },
		{ is_default: true },
	),
	m(
		'image_edit.cutout-pro',
		'image_editing',
		'Cutout Pro',
		{ max_file_mb: 50 },
		{ unit: 'per_image', credits: 2 },
	),

	m(
		'image_upscale.crisp',
		'image_upscaling',
		'Crisp',
		{ scale_factors: [2, 4], modes: ['precise', 'creative'] },
		{ unit: 'per_image', credits: 2 },
		{ is_default: true },
	),
	m(
		'image_upscale.fast',
		'image_upscaling',
		'Fast Upscale',
		{ scale_factors: [2] },
		{ unit: 'per_image', credits: 1 },
	),

	m(
		'video.motion-2',
		'video_generation',
		'Motion 2',
		{
			aspect_ratios: ['16:9', '9:16', '1:1'],
			resolutions: ['480p', '720p', '1080p'],
			duration_seconds: [5, 10],
			supports_audio: true,
			max_input_images: 2,
			max_reference_images: 3,
			prompt_max_length: 2500,
		},
		{ unit: 'per_second', credits: 6, notes: 'generate_audio adds a 1.5x multiplier' },
		{
			is_default: true,
			capabilities: {
				text_to_output: true,
				image_to_output: true,
				reference_images: true,
				first_last_frame: true,
			},
		},
	),
	m(
		'video.motion-1',
		'video_generation',
		'Motion 1',
		{
			aspect_ratios: ['16:9', '9:16'],
			resolutions: ['480p', '720p'],
			duration_seconds: [5],
			supports_audio: false,
		},
		{ unit: 'per_second', credits: 4 },
		{
			capabilities: {
				text_to_output: true,
				image_to_output: false,
				reference_images: false,
				first_last_frame: false,
			},
		},
	),
	m(
		'video.motion-classic',
		'video_generation',
		'Motion Classic',
		{
			aspect_ratios: ['16:9'],
			resolutions: ['480p'],
			duration_seconds: [5],
			supports_audio: false,
		},
		{ unit: 'per_second', credits: 3 },
		{
			supersededBy: 'video.motion-2',
		},
	),
	m(
		'video.cine-pro',
		'video_generation',
		'Cine Pro',
		{
			aspect_ratios: ['16:9', '9:16', '21:9', 'adaptive'],
			resolutions: ['720p', '1080p', '4k'],
			duration_seconds: [4, 6, 8],
			supports_audio: true,
			max_reference_images: 2,
			max_reference_videos: 1,
			max_reference_audio: 1,
		},
		{ unit: 'per_second', credits: 15 },
		{ capabilities: { text_to_output: true, image_to_output: true, reference_images: true } },
	),
	m(
		'video.extend-1',
		'video_generation',
		'Extend',
		{
			duration_seconds: [5, 10],
			supports_audio: false,
			source_video_max_seconds: 30,
			source_video_min_seconds: 2,
			source_video_max_mb: 100,
		},
		{ unit: 'per_second', credits: 8 },
		{ capabilities: { source_video: true } },
	),
	m(
		'video.recast-1',
		'video_generation',
		'Recast',
		{
			duration_seconds: [5],
			supports_audio: false,
			source_video_max_seconds: 60,
			source_video_max_shot_seconds: 10,
		},
		{ unit: 'per_second', credits: 9 },
		{
			description: 'Recasts the people of a single-shot source video',
			capabilities: { source_video: true },
		},
	),
	m(
		'video.multi-angle',
		'video_generation',
		'Multi Angle',
		{
			duration_seconds: [5],
			supports_audio: false,
			max_keyframes: 4,
			camera_paths: ['orbit_left', 'orbit_right', 'dolly_in', 'crane_up'],
			camera_keyframes: { min: 2, max: 12 },
		},
		{ unit: 'per_second', credits: 10 },
		{ capabilities: { motion_control: true } },
	),
	// reports no supports_audio at all: no audio toggle, as where it reports false
	m(
		'video.stylize-preview',
		'video_generation',
		'Stylize',
		{
			duration_seconds: [5],
			video_style: ['anime', 'claymation', 'vhs', 'noir'],
			damage_level: ['none', 'light', 'heavy'],
		},
		{ unit: 'per_second', credits: 7 },
		{ status: 'preview' },
	),

	m(
		'speech.voice-2',
		'speech_generation',
		'Voice 2',
		{ max_characters: 5000 },
		{ unit: 'per_character', credits: 0.02 },
		{ is_default: true },
	),
	m(
		'speech.dialogue-1',
		'speech_generation',
		'Dialogue',
		{ max_characters: 2000, max_voices: 10 },
		{ unit: 'per_character', credits: 0.03 },
	),
	m(
		'speech.long-form',
		'speech_generation',
		'Long Form',
		{ max_characters: 40000 },
		{ unit: 'per_character', credits: 0.015 },
	),

	m(
		'music.compose-1',
		'music_generation',
		'Compose',
		{ max_duration_seconds: 180 },
		{ unit: 'per_second', credits: 0.5 },
		{ is_default: true },
	),
	m(
		'music.compose-long',
		'music_generation',
		'Compose Long',
		{ max_duration_seconds: 600 },
		{ unit: 'per_second', credits: 0.6 },
	),
	m(
		'sfx.foley-1',
		'sound_effect_generation',
		'Foley',
		{ max_duration_seconds: 30 },
		{ unit: 'per_second', credits: 0.4 },
		{ is_default: true },
	),
	m(
		'transcription.scribe-1',
		'transcription',
		'Scribe',
		{ max_file_mb: 500, max_duration_seconds: 7200, max_speakers: 32, max_keyterms: 100 },
		{ unit: 'per_second', credits: 0.01 },
		{ is_default: true },
	),

	m(
		'video_upscale.sharp-2',
		'video_upscaling',
		'Sharp 2',
		{ scale_factors: [2, 4], max_duration_seconds: 60 },
		{ unit: 'per_second', credits: 3 },
		{ is_default: true },
	),
	m(
		'video_upscale.flex',
		'video_upscaling',
		'Flex',
		{ min_scale_factor: 1.5, max_scale_factor: 3, max_duration_seconds: 20, max_file_mb: 50 },
		{ unit: 'per_second', credits: 2 },
	),

	m(
		'lipsync.sync-1',
		'lipsync_generation',
		'Sync',
		{ max_duration_seconds: 120, resolutions: ['480p', '720p', '1080p'], prompt_max_length: 500 },
		{ unit: 'per_second', credits: 2 },
		{ is_default: true },
	),
	m(
		'lipsync.sync-lite',
		'lipsync_generation',
		'Sync Lite',
		{ max_duration_seconds: 30, resolutions: ['480p', '720p'] },
		{ unit: 'per_second', credits: 1 },
	),
	m(
		'3d.mesh-1',
		'model_3d_generation',
		'Mesh',
		{
			max_images: 4,
			output_formats: ['glb', 'fbx', 'obj', 'usdz', 'blend', 'stl'],
			target_polycount: { min: 100, max: 300000, default: 30000 },
			topology: ['quad', 'triangle'],
		},
		{ unit: 'per_image', credits: 20 },
		{ is_default: true },
	),
	m(
		'3d.mesh-lite',
		'model_3d_generation',
		'Mesh Lite',
		{
			max_images: 1,
			output_formats: ['glb', 'obj', 'stl'],
			target_polycount: { min: 100, max: 50000, default: 10000 },
			topology: ['triangle'],
		},
		{ unit: 'per_image', credits: 8 },
		{ status: 'preview' },
	),
	m(
		'game.arcade-1',
		'game_generation',
		'Arcade',
		{ prompt_max_length: 4000 },
		{ unit: 'per_image', credits: 30 },
		{ is_default: true },
	),
	m(
		'app.builder-1',
		'app_generation',
		'App Builder',
		{ prompt_max_length: 8000 },
		{ unit: 'per_image', credits: 40 },
		{ is_default: true },
	),
	m(
		'video.reel-director',
		'faceless_reel_generation',
		'Reel Director',
		{ duration_seconds: [30, 60, 90] },
		{ unit: 'per_second', credits: 1 },
		{ is_default: true },
	),
];

/** The Model resource as GET /models returns it. */
export function publicModel(model: SandboxModel): Record<string, unknown> {
	const listed: Partial<SandboxModel> = { ...model };
	delete listed.pricing;
	delete listed.supersededBy;
	return { object: 'model', ...listed };
}

/** The aliases GET /models lists (superseded ones are left out). */
export function listedModels(): SandboxModel[] {
	return sandboxModels.filter((x) => !x.supersededBy);
}

/** Any alias a request may pin, listed or superseded. */
export function findModel(id: string): SandboxModel | undefined {
	return sandboxModels.find((x) => x.id === id);
}

export function defaultModelFor(capability: Capability): SandboxModel | undefined {
	return sandboxModels.find((x) => x.capability === capability && x.is_default);
}
