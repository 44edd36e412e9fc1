import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { loadOptionsFor } from '../../src/models/load-options';
import { executeCatalogNode } from '../../src/node/execute';
import { credentialsOfNodes, nodeProperties } from '../../src/node/properties';
import { resumePausedExecution, resumeWebhooks } from '../../src/node/resume';

export class MediaGenImage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Image',
		name: 'mediaGenImage',
		icon: { light: 'file:../../icons/mediagen.svg', dark: 'file:../../icons/mediagen.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Generate images, remove backgrounds, upscale, capture pages and block out scenes with the Media Generation Service',
		defaults: { name: 'MediaGen Image' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		webhooks: resumeWebhooks,
		properties: nodeProperties('MediaGenImage', { image: 'Image' }),
	};

	methods = { loadOptions: loadOptionsFor('MediaGenImage') };

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenImage');
	}

	/** Deliveries of the service's events to a paused execution of this node (Wait Mode). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumePausedExecution(this, 'MediaGenImage');
	}
}
