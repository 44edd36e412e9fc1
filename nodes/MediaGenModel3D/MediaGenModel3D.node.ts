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

const RESOURCES = { model3d: '3D Model' };

export class MediaGenModel3D implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen 3D',
		name: 'mediaGenModel3D',
		icon: { light: 'file:../../icons/model3d.svg', dark: 'file:../../icons/model3d.dark.svg' },
		group: ['transform'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: operationSubtitle('MediaGenModel3D', RESOURCES),
		description:
			'Generate 3D models (GLB, FBX, OBJ, USDZ, BLEND, STL) from images with the Media Generation Service',
		documentationUrl: 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#mediagen-3d',
		defaults: { name: 'MediaGen 3D' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		webhooks: resumeWebhooks,
		properties: nodeProperties('MediaGenModel3D', RESOURCES),
	};

	methods = methodsOf('MediaGenModel3D');

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenModel3D');
	}

	/** Deliveries of the service's events to a paused execution of this node (Wait Mode). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumePausedExecution(this, 'MediaGenModel3D');
	}
}
