import { NodeConnectionTypes, type IExecuteFunctions, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { methodsOf } from '../../src/node/load-options';
import { executeCatalogNode } from '../../src/node/execute';
import { credentialsOfNodes, nodeProperties, operationSubtitle } from '../../src/node/properties';

const RESOURCES = { audio: 'Audio', voice: 'Voice' };

export class MediaGenAudio implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Audio',
		name: 'mediaGenAudio',
		icon: { light: 'file:../../icons/audio.svg', dark: 'file:../../icons/audio.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle('MediaGenAudio', RESOURCES),
		description: 'Generate speech, dialogue, music and sound effects, convert voices and transcribe with the Media Generation Service',
		documentationUrl: 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#mediagen-audio',
		defaults: { name: 'MediaGen Audio' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		properties: nodeProperties('MediaGenAudio', RESOURCES),
	};

	methods = methodsOf('MediaGenAudio');

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenAudio');
	}
}
