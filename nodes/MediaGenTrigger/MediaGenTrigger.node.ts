import {
	NodeConnectionTypes,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { authenticationProperty, credentialsOfNodes } from '../../src/node/properties';
import { EVENT_OPTIONS } from '../../src/webhooks/events';
import { receiveEvent } from '../../src/webhooks/receive';
import { endpointExists, registerEndpoint, removeEndpoint } from '../../src/webhooks/registration';

export class MediaGenTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Trigger',
		name: 'mediaGenTrigger',
		icon: { light: 'file:../../icons/trigger.svg', dark: 'file:../../icons/trigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{($parameter["events"] || []).join(", ")}}',
		description: 'Starts the workflow when a run or batch of the Media Generation Service completes or fails (signed webhooks)',
		documentationUrl: 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#mediagen-trigger',
		defaults: { name: 'MediaGen Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialsOfNodes,
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			authenticationProperty,
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['run.completed'],
				options: EVENT_OPTIONS,
				description: 'The events that start the workflow. The node registers its URL for them when the workflow is activated.',
			},
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
						description: 'With Download Outputs: the first file goes to this field, further ones to data_1, data_2, …',
					},
					{
						displayName: 'Download Outputs',
						name: 'downloadOutputs',
						type: 'boolean',
						default: false,
						description: 'Whether to download the files of a completed run as binary data (Run Completed events only)',
					},
					{
						displayName: 'Ignore Repeated Events',
						name: 'ignoreRepeatedEvents',
						type: 'boolean',
						default: true,
						description: 'Whether to skip an event whose ID was already received (a retry or replay of the same event)',
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
					{
						displayName: 'Reject Events Older Than (Minutes)',
						name: 'maxEventAgeMinutes',
						type: 'number',
						default: 5,
						typeOptions: { minValue: 0 },
						description: 'Refuse (HTTP 401) events whose signed created_at is older than this; 0 accepts any age',
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
