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

const RESOURCES = { run: 'Run' };

export class MediaGenRun implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Run',
		name: 'mediaGenRun',
		icon: { light: 'file:../../icons/run.svg', dark: 'file:../../icons/run.dark.svg' },
		group: ['transform'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: operationSubtitle('MediaGenRun', RESOURCES),
		description: 'Read, wait for and download runs of the Media Generation Service',
		documentationUrl: 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#mediagen-run',
		defaults: { name: 'MediaGen Run' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		webhooks: resumeWebhooks,
		properties: nodeProperties('MediaGenRun', RESOURCES),
	};

	methods = methodsOf('MediaGenRun');

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenRun');
	}

	/** Deliveries of the service's events to a paused execution of this node (Wait Mode). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumePausedExecution(this, 'MediaGenRun');
	}
}
