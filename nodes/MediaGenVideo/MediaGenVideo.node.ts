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

const RESOURCES = { video: 'Video', timeline: 'Timeline', motion: 'Motion Preset' };

export class MediaGenVideo implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Video',
		name: 'mediaGenVideo',
		icon: { light: 'file:../../icons/video.svg', dark: 'file:../../icons/video.dark.svg' },
		group: ['transform'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: operationSubtitle('MediaGenVideo', RESOURCES),
		description:
			'Generate, finalize, upscale, compose and analyze videos; timelines, voices, frames and motion presets with the Media Generation Service',
		documentationUrl: 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#mediagen-video',
		defaults: { name: 'MediaGen Video' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		webhooks: resumeWebhooks,
		properties: nodeProperties('MediaGenVideo', RESOURCES),
	};

	methods = methodsOf('MediaGenVideo');

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenVideo');
	}

	/** Deliveries of the service's events to a paused execution of this node (Wait Mode). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumePausedExecution(this, 'MediaGenVideo');
	}
}
