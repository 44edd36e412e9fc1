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

export class MediaGenVideo implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Video',
		name: 'mediaGenVideo',
		icon: { light: 'file:../../icons/mediagen.svg', dark: 'file:../../icons/mediagen.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Generate, finalize, upscale, compose and analyze videos; timelines, voices, frames and motion presets with the Media Generation Service',
		defaults: { name: 'MediaGen Video' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		webhooks: resumeWebhooks,
		properties: nodeProperties('MediaGenVideo', { video: 'Video', timeline: 'Timeline', motion: 'Motion Preset' }),
	};

	methods = { loadOptions: loadOptionsFor('MediaGenVideo') };

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenVideo');
	}

	/** Deliveries of the service's events to a paused execution of this node (Wait Mode). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumePausedExecution(this, 'MediaGenVideo');
	}
}
