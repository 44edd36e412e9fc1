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
	facelessReel: 'Faceless Reel',
	reelSubscription: 'Reel Subscription',
	reelEpisode: 'Reel Episode',
	explainer: 'Explainer',
	musicVideo: 'Music Video',
	pictureBook: 'Picture Book',
	coloringBook: 'Coloring Book',
	game: 'Game',
	app: 'App',
	task: 'Scheduled Task',
};

export class MediaGenProducer implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Producer',
		name: 'mediaGenProducer',
		icon: { light: 'file:../../icons/producer.svg', dark: 'file:../../icons/producer.dark.svg' },
		group: ['transform'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: operationSubtitle('MediaGenProducer', RESOURCES),
		description:
			'Produce faceless reels, explainers, music videos, books, browser games and apps, and schedule tasks with the Media Generation Service',
		documentationUrl: 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#mediagen-producer',
		defaults: { name: 'MediaGen Producer' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		webhooks: resumeWebhooks,
		properties: nodeProperties('MediaGenProducer', RESOURCES),
	};

	methods = methodsOf('MediaGenProducer');

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenProducer');
	}

	/** Deliveries of the service's events to a paused execution of this node (Wait Mode). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumePausedExecution(this, 'MediaGenProducer');
	}
}
