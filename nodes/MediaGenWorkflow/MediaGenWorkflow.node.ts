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

export class MediaGenWorkflow implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Workflow',
		name: 'mediaGenWorkflow',
		icon: { light: 'file:../../icons/mediagen.svg', dark: 'file:../../icons/mediagen.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Run workflows, presets and editor workflows, analyze ads and read marketing catalogs with the Media Generation Service',
		defaults: { name: 'MediaGen Workflow' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		webhooks: resumeWebhooks,
		properties: nodeProperties('MediaGenWorkflow', { workflow: 'Workflow', preset: 'Preset', userWorkflow: 'User Workflow', ad: 'Ad', marketing: 'Marketing' }),
	};

	methods = { loadOptions: loadOptionsFor('MediaGenWorkflow') };

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenWorkflow');
	}

	/** Deliveries of the service's events to a paused execution of this node (Wait Mode). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumePausedExecution(this, 'MediaGenWorkflow');
	}
}
