import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { authenticationProperty, credentialsOfNodes } from '../../src/credentials/authentication';
import { simplifyProperty } from '../../src/outputs/simplify-option';
import { pollEvents } from '../../src/webhooks/poll-events';
import { events, triggerOptionsProperty } from '../../src/webhooks/trigger-options';

/**
 * A separate node, not a mode of MediaGen Trigger: n8n activates every webhook a node type declares
 * and polls every node type that has poll() (n8n 2.41.1: Workflow.getPollNodes, WebhookService.getNodeWebhooks),
 * so one type with both would register a webhook the service cannot reach and poll as well.
 */
export class MediaGenPollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Polling Trigger',
		name: 'mediaGenPollingTrigger',
		icon: {
			light: 'file:../../icons/polling-trigger.svg',
			dark: 'file:../../icons/polling-trigger.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: events.subtitle(),
		description:
			'Starts the workflow when MediaGen generations (or batches) complete or fail, by asking the service on a schedule: no inbound connection to n8n needed',
		documentationUrl:
			'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#n8n-without-a-public-address',
		defaults: { name: 'MediaGen Polling Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialsOfNodes,
		properties: [
			{
				displayName:
					'For an n8n the service cannot call (behind NAT or a firewall, no public address). At each Poll Time the node reads the account’s runs (and batches) and starts the workflow once with one item per run or batch that finished since the previous poll, each passed on once, also across restarts. Events arrive up to one poll interval late; where the service can reach n8n, MediaGen Trigger delivers them within seconds. The credential needs the runs:read scope (batches:read for batch events).',
				name: 'pollingNotice',
				type: 'notice',
				default: '',
			},
			authenticationProperty,
			// Start On and Options as the webhook trigger has them (one definition, the same items)
			events.property(),
			// from version 1 (the webhook trigger offers it from its version 2)
			{ ...simplifyProperty({}), displayOptions: { hide: { '@tool': [true] } } },
			triggerOptionsProperty(),
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollEvents(this);
	}
}
