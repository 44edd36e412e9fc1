import { NodeConnectionTypes, type IExecuteFunctions, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { methodsOf } from '../../src/node/load-options';
import { executeCatalogNode } from '../../src/node/execute';
import { credentialsOfNodes, nodeProperties, operationSubtitle } from '../../src/node/properties';

const RESOURCES = { lipSync: 'Lip Sync' };

export class MediaGenLipSync implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Lip Sync',
		name: 'mediaGenLipSync',
		icon: { light: 'file:../../icons/lipsync.svg', dark: 'file:../../icons/lipsync.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle('MediaGenLipSync', RESOURCES),
		description: 'Lip-sync a face in a video or image to speech with the Media Generation Service',
		documentationUrl: 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#mediagen-lip-sync',
		defaults: { name: 'MediaGen Lip Sync' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		properties: nodeProperties('MediaGenLipSync', RESOURCES),
	};

	methods = methodsOf('MediaGenLipSync');

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenLipSync');
	}
}
