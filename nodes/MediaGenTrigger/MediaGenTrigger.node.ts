import {
	NodeConnectionTypes,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { authenticationProperty, credentialsOfNodes } from '../../src/node/authentication';
import { simplifyProperty } from '../../src/node/simplify-option';
import { EVENT_OPTIONS, eventsSubtitle } from '../../src/webhooks/events';
import { receiveEvent } from '../../src/webhooks/receive';
import { endpointExists, registerEndpoint, removeEndpoint } from '../../src/webhooks/registration';

export class MediaGenTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Trigger',
		name: 'mediaGenTrigger',
		icon: { light: 'file:../../icons/trigger.svg', dark: 'file:../../icons/trigger.dark.svg' },
		group: ['trigger'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: eventsSubtitle(),
		description: 'Starts the workflow when a MediaGen generation (or a batch) completes or fails, through signed webhooks',
		documentationUrl: 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#mediagen-trigger',
		defaults: { name: 'MediaGen Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialsOfNodes,
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		eventTriggerDescription: 'Waiting for a MediaGen run or batch to finish',
		triggerPanel: {
			header: 'Start this workflow when MediaGen finishes a run or a batch',
			executionsHelp: {
				inactive:
					"<b>While building your workflow</b>, click 'Execute step': the node registers a test URL with MediaGen for you. Then start a generation (another workflow, the API or the web app); the first matching event shows up here.<br /><br /><b>Once you're happy with your workflow</b>, publish it: the node registers its production URL, and every matching event starts an execution, shown in the <a data-key=\"executions\">executions list</a>. Unpublishing removes the registration.",
				active:
					"<b>While building your workflow</b>, click 'Execute step', then start a generation: the event shows up here.<br /><br /><b>Your workflow is published</b>: every matching event starts an execution, shown in the <a data-key=\"executions\">executions list</a>.",
			},
			activationHint: 'Once you’ve finished building your workflow, publish it: MediaGen then sends every matching event to it.',
		},
		properties: [
			{
				displayName:
					'The node registers this workflow’s webhook with MediaGen for you (when you listen for a test event and when you publish) and removes it when you unpublish. Your credential needs the webhooks:read and webhooks:write scopes. Events are signed; unsigned or forged requests are refused. Where the service cannot reach this n8n (a local address, a name it cannot resolve), publishing fails and says why: MediaGen Polling Trigger needs no inbound connection.',
				name: 'registrationNotice',
				type: 'notice',
				default: '',
			},
			authenticationProperty,
			{
				// Not labelled "Events" (nor "Event", "Trigger On"): n8n 2.41's node panel turns such a
				// list into actions and then shows the trigger without the word "Trigger", as a bare
				// "MediaGen" among twelve "MediaGen …" nodes. Unlabelled so, the panel lists "MediaGen
				// Trigger" and adds it with Run Completed chosen (docs/editor.md).
				displayName: 'Start On',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['run.completed'],
				options: EVENT_OPTIONS,
				description: 'The events that start the workflow. Run events come from every generation of the account.',
			},
			{
				displayName: 'Reject Events Older Than (Minutes)',
				name: 'maxEventAgeMinutes',
				type: 'number',
				// n8n's lint wants a literal here: the same value as DEFAULT_MAX_EVENT_AGE_MINUTES (test/unit/trigger-defaults.test.ts)
				default: 5,
				typeOptions: { minValue: 0 },
				description: 'Refuse (HTTP 401) events whose signed creation time is older than this, so a captured delivery cannot be replayed later; 0 accepts any age',
			},
			{
				displayName: 'Ignore Repeated Events',
				name: 'ignoreRepeatedEvents',
				type: 'boolean',
				// n8n's lint wants a literal here: the same value as DEFAULT_IGNORE_REPEATED_EVENTS in src/webhooks/receive.ts
				default: true,
				description: 'Whether to skip an event whose ID already started this workflow (a retry or replay of the same event)',
			},
			simplifyProperty({}),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Binary Field Name',
						name: 'binaryPropertyName',
						type: 'string',
						default: 'data',
						description: 'With Download Outputs: the first file goes to this field, further ones to "data_1", "data_2", …',
					},
					{
						displayName: 'Download Outputs',
						name: 'downloadOutputs',
						type: 'boolean',
						default: false,
						description: 'Whether to download the files of a completed run as binary data (Run Completed events only)',
					},
					{
						displayName: 'Only Capabilities',
						name: 'capabilities',
						type: 'string',
						default: '',
						placeholder: 'image_generation, video_generation',
						description: 'Comma-separated capabilities; run events of other capabilities are skipped',
					},
					{
						displayName: 'Only Models',
						name: 'models',
						type: 'string',
						default: '',
						placeholder: 'image.aurora-2',
						description: 'Comma-separated model aliases; run events of other models are skipped',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await endpointExists(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await registerEndpoint(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await removeEndpoint(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveEvent(this);
	}
}
