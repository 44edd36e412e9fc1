import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { methodsOf } from '../../src/node/methods/load-options';
import { executeCatalogNode } from '../../src/node/execute';
import { operationSubtitle } from '../../src/node/description/operations';
import { credentialsOfNodes, nodeProperties } from '../../src/node/description/properties';
import { resumePausedExecution, resumeWebhooks } from '../../src/waits/resume';

const RESOURCES = { lipSync: 'Lip Sync' };

export class MediaGenLipSync implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Lip Sync',
		name: 'mediaGenLipSync',
		icon: { light: 'file:../../icons/lipsync.svg', dark: 'file:../../icons/lipsync.dark.svg' },
		group: ['transform'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: operationSubtitle('MediaGenLipSync', RESOURCES),
		description: 'Lip-sync a face in a video or image to speech with the Media Generation Service',
		documentationUrl: 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#mediagen-lip-sync',
		defaults: { name: 'MediaGen Lip Sync' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		webhooks: resumeWebhooks,
		properties: nodeProperties('MediaGenLipSync', RESOURCES),
	};

	methods = methodsOf('MediaGenLipSync');

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenLipSync');
	}

	/** Deliveries of the service's events to a paused execution of this node (Wait Mode). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumePausedExecution(this, 'MediaGenLipSync');
	}
}
