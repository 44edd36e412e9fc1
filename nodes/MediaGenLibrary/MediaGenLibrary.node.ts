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

export class MediaGenLibrary implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Library',
		name: 'mediaGenLibrary',
		icon: { light: 'file:../../icons/mediagen.svg', dark: 'file:../../icons/mediagen.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Manage influencers, teams, projects, elements, brands, moodboards and trained models (LoRAs, image styles) of the Media Generation Service',
		defaults: { name: 'MediaGen Library' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		webhooks: resumeWebhooks,
		properties: nodeProperties('MediaGenLibrary', {
			influencer: 'Influencer',
			team: 'Team',
			project: 'Project',
			element: 'Element',
			brand: 'Brand',
			moodboard: 'Moodboard',
			lora: 'LoRA (Trained Model)',
			imageStyle: 'Image Style',
			styleSkill: 'Style Skill',
		}),
	};

	methods = { loadOptions: loadOptionsFor('MediaGenLibrary') };

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenLibrary');
	}

	/** Deliveries of the service's events to a paused execution of this node (Wait Mode). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumePausedExecution(this, 'MediaGenLibrary');
	}
}
