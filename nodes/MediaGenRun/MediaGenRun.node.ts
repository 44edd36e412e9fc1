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

export class MediaGenRun implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Run',
		name: 'mediaGenRun',
		icon: { light: 'file:../../icons/mediagen.svg', dark: 'file:../../icons/mediagen.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Read, wait for and download runs of the Media Generation Service',
		defaults: { name: 'MediaGen Run' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		webhooks: resumeWebhooks,
		properties: nodeProperties('MediaGenRun', { run: 'Run' }),
	};

	methods = { loadOptions: loadOptionsFor('MediaGenRun') };

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenRun');
	}

	/** Deliveries of the service's events to a paused execution of this node (Wait Mode). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumePausedExecution(this, 'MediaGenRun');
	}
}
