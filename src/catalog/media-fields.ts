import type { FieldSpec } from './types';

/** Fields of the video, audio, lip-sync and 3D endpoints that several of them share. */

export const mediaUrl = (
	name: string,
	displayName: string,
	required: boolean,
	description: string,
): FieldSpec => ({
	name,
	displayName,
	type: 'media',
	required,
	primary: required,
	default: '',
	description: `${description}: a URL, or an input binary field that the node uploads first`,
});

export const mediaUrls = (
	name: string,
	displayName: string,
	description: string,
	limitKeys?: string[],
	extra: Partial<FieldSpec> = {},
): FieldSpec => ({
	name,
	displayName,
	type: 'mediaList',
	default: [],
	description: `${description} (URLs or input binary fields)`,
	...(limitKeys ? { limit: { kind: 'maxItems', keys: limitKeys } } : {}),
	...extra,
});

export const videoUrl = (required: boolean, description = 'Source video'): FieldSpec =>
	mediaUrl('video_url', 'Video', required, description);
export const audioUrl = (required: boolean, description = 'Source audio'): FieldSpec =>
	mediaUrl('audio_url', 'Audio', required, description);

export const sourceVideoUrl: FieldSpec = {
	...mediaUrl(
		'source_video_url',
		'Source Video',
		false,
		'Video to extend, edit, insert into or recast (extend, edit, motion-control and insert models need it)',
	),
};

/** Seconds, from the model's `duration_seconds` list (video). */
export const videoDuration: FieldSpec = {
	name: 'duration',
	displayName: 'Duration (Seconds)',
	type: 'options',
	primary: true,
	default: '',
	description: 'Choices come from the selected model. Empty uses the model default.',
	limit: { kind: 'oneOf', keys: ['duration_seconds'] },
};

/**
 * Seconds, up to the model's `max_duration_seconds` (music, sound effects). Optional: the document
 * has no "0 = model decides", so a length the user did not set is not sent at all.
 */
export const audioDuration = (description: string): FieldSpec => ({
	name: 'duration_seconds',
	displayName: 'Duration (Seconds)',
	type: 'integer',
	default: 30,
	min: 1,
	description: `${description}, up to the chosen model's maximum (API: max_duration_seconds). Leave it out to let the model decide.`,
	limit: { kind: 'max', keys: ['max_duration_seconds'] },
});

export const voiceId = (required: boolean): FieldSpec => ({
	name: 'voice_id',
	displayName: 'Voice',
	type: 'options',
	required,
	primary: true,
	default: '',
	description:
		'The voice that speaks: search by name, language or style, or enter a voice ID (MediaGen Audio → Voice → List shows them)',
	optionsFrom: { path: '/audio/voices' },
});

export const languageCode: FieldSpec = {
	name: 'language_code',
	displayName: 'Language Code',
	type: 'string',
	default: '',
	placeholder: 'en',
	description: 'ISO 639-1 language, where the model takes one',
};

export const resourceId = (name: string, displayName: string, description: string): FieldSpec => ({
	name,
	displayName,
	type: 'string',
	required: true,
	default: '',
	description,
});
