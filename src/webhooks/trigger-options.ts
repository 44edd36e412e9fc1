import type { INodeProperties } from 'n8n-workflow';

import { BooleanOption, NumberOption, TextOption } from '../options/option';
import { binaryField } from '../outputs/output-options';
import { EVENT_OPTIONS } from './events';

// The MediaGen Trigger's parameters, each defined once with how the receiver reads it: which events
// start the workflow, the replay protection, and the Options (filters, downloads).

/** Start On: the events that start the workflow. */
export const events = {
	name: 'events',
	// Not labelled "Events" (nor "Event", "Trigger On"): n8n 2.41's node panel turns such a list into
	// actions and then shows the trigger without the word "Trigger", as a bare "MediaGen" among
	// twelve "MediaGen …" nodes. Unlabelled so, the panel lists "MediaGen Trigger" and adds it with
	// Run Completed chosen (docs/editor.md).
	property(): INodeProperties {
		return {
			displayName: 'Start On',
			name: this.name,
			type: 'multiOptions',
			required: true,
			default: ['run.completed'],
			options: EVENT_OPTIONS,
			description:
				'The events that start the workflow. Run events come from every generation of the account.',
		};
	},
	/** The trigger's canvas subtitle: the chosen events by name ("Run Completed, Run Failed"). */
	subtitle(): string {
		const names = Object.fromEntries(EVENT_OPTIONS.map((o) => [o.value, o.name]));
		return `={{ ($parameter[${JSON.stringify(this.name)}] || []).map(e => (${JSON.stringify(names)})[e] || e).join(", ") }}`;
	},
	/** The events chosen, as saved (anything that is not a list reads as none). */
	read(get: (name: string, fallback: unknown) => unknown): unknown[] {
		const value = get(this.name, []);
		return Array.isArray(value) ? value : [];
	},
};

export const maxEventAge = new NumberOption({
	name: 'maxEventAgeMinutes',
	displayName: 'Reject Events Older Than (Minutes)',
	description:
		'Refuse (HTTP 401) events whose signed creation time is older than this, so a captured delivery cannot be replayed later; 0 accepts any age',
	default: 5,
	min: 0,
	max: Infinity,
	changesRequest: false,
});

export const ignoreRepeatedEvents = new BooleanOption({
	name: 'ignoreRepeatedEvents',
	displayName: 'Ignore Repeated Events',
	description:
		'Whether to skip an event whose ID already started this workflow (a retry or replay of the same event)',
	default: true,
	changesRequest: false,
});

export const downloadOutputsOption = new BooleanOption({
	name: 'downloadOutputs',
	displayName: 'Download Outputs',
	description:
		'Whether to download the files of a completed run as binary data (Run Completed events only)',
	default: false,
	changesRequest: false,
});

export const onlyCapabilities = new TextOption({
	name: 'capabilities',
	displayName: 'Only Capabilities',
	description: 'Comma-separated capabilities; run events of other capabilities are skipped',
	default: '',
	changesRequest: false,
});

export const onlyModels = new TextOption({
	name: 'models',
	displayName: 'Only Models',
	description: 'Comma-separated model aliases; run events of other models are skipped',
	default: '',
	changesRequest: false,
});

/** The trigger's Options collection. */
export const TRIGGER_OPTIONS_COLLECTION = 'options';

export function triggerOptionsProperty(): INodeProperties {
	return {
		displayName: 'Options',
		name: TRIGGER_OPTIONS_COLLECTION,
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			binaryField.property({
				description:
					'With Download Outputs: the first file goes to this field, further ones to "data_1", "data_2", …',
			}),
			downloadOutputsOption.property(),
			onlyCapabilities.property({ placeholder: 'image_generation, video_generation' }),
			onlyModels.property({ placeholder: 'image.aurora-2' }),
		],
	};
}

/** Every option of the trigger defined with the option kit. */
export const TRIGGER_OPTIONS = [
	maxEventAge,
	ignoreRepeatedEvents,
	downloadOutputsOption,
	onlyCapabilities,
	onlyModels,
];
