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

const RESOURCES = { image: 'Image' };

export class MediaGenImage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Image',
		name: 'mediaGenImage',
		icon: { light: 'file:../../icons/image.svg', dark: 'file:../../icons/image.dark.svg' },
		group: ['transform'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: operationSubtitle('MediaGenImage', RESOURCES),
		description:
			'Generate images, remove backgrounds, upscale, capture pages and block out scenes with the Media Generation Service',
		documentationUrl: 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#mediagen-image',
		defaults: { name: 'MediaGen Image' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		webhooks: resumeWebhooks,
		properties: nodeProperties('MediaGenImage', RESOURCES),
	};

	methods = methodsOf('MediaGenImage');

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenImage');
	}

	/** Deliveries of the service's events to a paused execution of this node (Wait Mode). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumePausedExecution(this, 'MediaGenImage');
	}
}
