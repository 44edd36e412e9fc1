import type { INodeProperties } from 'n8n-workflow';

import type { Capability, Endpoint } from '../../catalog';
import { show } from './display';
import { MODEL_SEARCH_METHOD } from './param-names';

/** The Model parameter (a resource locator; older workflows saved a plain alias). */
export const MODEL_PARAM = 'model';

/** Family prefix of each capability's aliases (the API document's id prefixes). */
const ALIAS_FAMILY: Partial<Record<Capability, string>> = {
	image_generation: 'image',
	video_generation: 'video',
	speech_generation: 'speech',
	music_generation: 'music',
	sound_effect_generation: 'sfx',
	transcription: 'transcription',
	image_editing: 'image_edit',
	video_upscaling: 'video_upscale',
	image_upscaling: 'image_upscale',
	lipsync_generation: 'lipsync',
	model_3d_generation: '3d',
	game_generation: 'game',
	app_generation: 'app',
};

const aliasPlaceholder = (capability?: Capability) =>
	capability && ALIAS_FAMILY[capability]
		? `An alias such as ${ALIAS_FAMILY[capability]}.…`
		: 'A model alias';

/**
 * The model: a resource locator like n8n's OpenAI node, a searchable list of the operation's models
 * (price and status on each line) or an alias typed "By ID". Workflows saved while it was a plain
 * dropdown hold a string; both forms are read (see modelAlias).
 */
export function modelProperty(e: Endpoint): INodeProperties {
	return {
		displayName: 'Model',
		name: MODEL_PARAM,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description:
			'The model that does the work. Aspect ratios, durations, resolutions and other choices below follow it.',
		hint: 'Leave empty to use the service default model for this operation',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Service default (choose a model to change it)',
				typeOptions: { searchListMethod: MODEL_SEARCH_METHOD, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: aliasPlaceholder(e.capability),
				validation: [
					{
						type: 'regex',
						properties: {
							regex: '^[a-z0-9_]+\\.[A-Za-z0-9._-]+$',
							errorMessage: 'A model ID is an alias such as image.aurora-2 (family, dot, name)',
						},
					},
				],
			},
		],
		displayOptions: show(e),
	};
}
