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

export class MediaGenModel3D implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen 3D',
		name: 'mediaGenModel3D',
		icon: { light: 'file:../../icons/mediagen.svg', dark: 'file:../../icons/mediagen.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Generate 3D models (GLB, FBX, OBJ, USDZ, BLEND, STL) from images with the Media Generation Service',
		defaults: { name: 'MediaGen 3D' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		webhooks: resumeWebhooks,
		properties: nodeProperties('MediaGenModel3D', { model3d: '3D Model' }),
	};

	methods = { loadOptions: loadOptionsFor('MediaGenModel3D') };

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenModel3D');
	}

	/** Deliveries of the service's events to a paused execution of this node (Wait Mode). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumePausedExecution(this, 'MediaGenModel3D');
	}
}
