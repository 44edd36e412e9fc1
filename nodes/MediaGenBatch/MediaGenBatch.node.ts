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

export class MediaGenBatch implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Batch',
		name: 'mediaGenBatch',
		icon: { light: 'file:../../icons/mediagen.svg', dark: 'file:../../icons/mediagen.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Run many generations or workflows as one batch with the Media Generation Service',
		defaults: { name: 'MediaGen Batch' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		webhooks: resumeWebhooks,
		properties: nodeProperties('MediaGenBatch', { batch: 'Batch', batchItem: 'Batch Item' }),
	};

	methods = { loadOptions: loadOptionsFor('MediaGenBatch') };

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenBatch');
	}

	/** Deliveries of the service's events to a paused execution of this node (Wait Mode). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumePausedExecution(this, 'MediaGenBatch');
	}
}
