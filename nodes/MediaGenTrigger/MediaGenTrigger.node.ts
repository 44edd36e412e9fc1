import {
	NodeConnectionTypes,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { authenticationProperty, credentialsOfNodes } from '../../src/credentials/authentication';
import { simplifyProperty } from '../../src/outputs/simplify-option';
import { receiveEvent } from '../../src/webhooks/receive';
import {
	events,
	ignoreRepeatedEvents,
	maxEventAge,
	triggerOptionsProperty,
} from '../../src/webhooks/trigger-options';
import { endpointExists, registerEndpoint, removeEndpoint } from '../../src/webhooks/registration';

export class MediaGenTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Trigger',
		name: 'mediaGenTrigger',
		icon: { light: 'file:../../icons/trigger.svg', dark: 'file:../../icons/trigger.dark.svg' },
		group: ['trigger'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: events.subtitle(),
		description:
			'Starts the workflow when a MediaGen generation (or a batch) completes or fails, through signed webhooks',
		documentationUrl: 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#mediagen-trigger',
		defaults: { name: 'MediaGen Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialsOfNodes,
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
		eventTriggerDescription: 'Waiting for a MediaGen run or batch to finish',
		triggerPanel: {
			header: 'Start this workflow when MediaGen finishes a run or a batch',
			executionsHelp: {
				inactive:
					"<b>While building your workflow</b>, click 'Execute step': the node registers a test URL with MediaGen for you. Then start a generation (another workflow, the API or the web app); the first matching event shows up here.<br /><br /><b>Once you're happy with your workflow</b>, publish it: the node registers its production URL, and every matching event starts an execution, shown in the <a data-key=\"executions\">executions list</a>. Unpublishing removes the registration.",
				active:
					'<b>While building your workflow</b>, click \'Execute step\', then start a generation: the event shows up here.<br /><br /><b>Your workflow is published</b>: every matching event starts an execution, shown in the <a data-key="executions">executions list</a>.',
			},
			activationHint:
				'Once you’ve finished building your workflow, publish it: MediaGen then sends every matching event to it.',
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
			events.property(),
			maxEventAge.property(),
			ignoreRepeatedEvents.property(),
			simplifyProperty({}),
			triggerOptionsProperty(),
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
