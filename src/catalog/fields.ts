import type { FieldSpec } from './types';

/** Fields that many generation endpoints share, written once. */

export const prompt = (required = true): FieldSpec => ({
	name: 'prompt',
	displayName: 'Prompt',
	type: 'text',
	required,
	primary: true,
	default: '',
	description: 'What to generate. Some models cap its length (checked before submitting).',
	limit: {
		kind: 'maxLength',
		keys: ['prompt_max_length', 'max_prompt_chars', 'max_prompt_length'],
	},
});

export const negativePrompt: FieldSpec = {
	name: 'negative_prompt',
	displayName: 'Negative Prompt',
	type: 'text',
	default: '',
	description: 'What to avoid, on models that accept it',
};

export const aspectRatio: FieldSpec = {
	name: 'aspect_ratio',
	displayName: 'Aspect Ratio',
	type: 'options',
	primary: true,
	default: '',
	description: 'Choices come from the selected model. Empty uses the model default.',
	limit: { kind: 'oneOf', keys: ['aspect_ratios'] },
};

export const resolution: FieldSpec = {
	name: 'resolution',
	displayName: 'Resolution',
	type: 'options',
	default: '',
	description: 'Choices come from the selected model. Empty uses the model default.',
	limit: { kind: 'oneOf', keys: ['resolutions', 'resolution'] },
};

export const quality: FieldSpec = {
	name: 'quality',
	displayName: 'Quality',
	type: 'options',
	default: '',
	description: 'On models that list qualities',
	limit: { kind: 'oneOf', keys: ['qualities'] },
};

export const imageUrl = (required: boolean, displayName = 'Image'): FieldSpec => ({
	name: 'image_url',
	displayName,
	type: 'media',
	required,
	primary: required,
	default: '',
	description: 'Source image: a URL, or an input binary property that the node uploads first',
});

export const referenceImageUrls: FieldSpec = {
	name: 'reference_image_urls',
	displayName: 'Reference Images',
	type: 'mediaList',
	default: [],
	description:
		'Reference images (URLs or binary fields), up to the number the chosen model takes (API: max_reference_images)',
	limit: { kind: 'maxItems', keys: ['max_reference_images'] },
};

/** Images a multi-input model works from (edits, compositions), bounded by `max_input_images`. */
export const inputImageUrls: FieldSpec = {
	name: 'image_urls',
	displayName: 'Input Images',
	type: 'mediaList',
	default: [],
	description:
		'Images the model combines or edits (URLs or binary fields), on models that take input images, up to the number they take (API: max_input_images)',
	limit: { kind: 'maxItems', keys: ['max_input_images'] },
};

export const seed: FieldSpec = {
	name: 'seed',
	displayName: 'Seed',
	type: 'integer',
	default: 0,
	description: 'Fixed seed for repeatable results, where the model supports it',
};

export const loras: FieldSpec = {
	name: 'loras',
	displayName: 'LoRAs',
	type: 'json',
	default: '[]',
	description: 'Array of {"id": "lora_…", "scale": 0.8}: 1 to 3 completed trained models',
	limit: { kind: 'maxItems', keys: ['loras'] },
	max: 3,
};

/** Influencer mentions (document: Mention object); only `ready` influencers may be referenced. */
export const mentions: FieldSpec = {
	name: 'mentions',
	displayName: 'Mentions',
	type: 'objectList',
	itemName: 'Mention',
	default: [],
	description:
		'Influencers whose identity conditions the image; the handle is the word your prompt uses for them. Only ready influencers are offered and accepted.',
	items: [
		{
			name: 'handle',
			displayName: 'Handle',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'ava',
			description: 'As written in the prompt, without the @',
		},
		{
			name: 'influencer_id',
			displayName: 'Influencer',
			type: 'options',
			required: true,
			default: '',
			loadOptions: 'getReadyInfluencers',
			description: 'A ready influencer of your account',
		},
	],
};
