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

const RESOURCES = { product: 'Product' };

export class MediaGenProduct implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Product',
		name: 'mediaGenProduct',
		icon: { light: 'file:../../icons/product.svg', dark: 'file:../../icons/product.dark.svg' },
		group: ['transform'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: operationSubtitle('MediaGenProduct', RESOURCES),
		description:
			'Extract product data and photos from a product page with the Media Generation Service',
		documentationUrl: 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#mediagen-product',
		defaults: { name: 'MediaGen Product' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		webhooks: resumeWebhooks,
		properties: nodeProperties('MediaGenProduct', RESOURCES),
	};

	methods = methodsOf('MediaGenProduct');

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenProduct');
	}

	/** Deliveries of the service's events to a paused execution of this node (Wait Mode). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumePausedExecution(this, 'MediaGenProduct');
	}
}
