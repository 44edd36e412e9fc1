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

const RESOURCES = { batch: 'Batch', batchItem: 'Batch Item' };

export class MediaGenBatch implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Batch',
		name: 'mediaGenBatch',
		icon: { light: 'file:../../icons/batch.svg', dark: 'file:../../icons/batch.dark.svg' },
		group: ['transform'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: operationSubtitle('MediaGenBatch', RESOURCES),
		description: 'Run many generations or workflows as one batch with the Media Generation Service',
		documentationUrl: 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#mediagen-batch',
		defaults: { name: 'MediaGen Batch' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		webhooks: resumeWebhooks,
		properties: nodeProperties('MediaGenBatch', RESOURCES),
	};

	methods = methodsOf('MediaGenBatch');

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenBatch');
	}

	/** Deliveries of the service's events to a paused execution of this node (Wait Mode). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumePausedExecution(this, 'MediaGenBatch');
	}
}
