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

const RESOURCES = {
	influencer: 'Influencer',
	team: 'Team',
	project: 'Project',
	element: 'Element',
	brand: 'Brand',
	moodboard: 'Moodboard',
	lora: 'LoRA (Trained Model)',
	imageStyle: 'Image Style',
	styleSkill: 'Style Skill',
};

export class MediaGenLibrary implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Library',
		name: 'mediaGenLibrary',
		icon: { light: 'file:../../icons/library.svg', dark: 'file:../../icons/library.dark.svg' },
		group: ['transform'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: operationSubtitle('MediaGenLibrary', RESOURCES),
		description:
			'Manage influencers, teams, projects, elements, brands, moodboards and trained models (LoRAs, image styles) of the Media Generation Service',
		documentationUrl: 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#mediagen-library',
		defaults: { name: 'MediaGen Library' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		webhooks: resumeWebhooks,
		properties: nodeProperties('MediaGenLibrary', RESOURCES),
	};

	methods = methodsOf('MediaGenLibrary');

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenLibrary');
	}

	/** Deliveries of the service's events to a paused execution of this node (Wait Mode). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumePausedExecution(this, 'MediaGenLibrary');
	}
}
