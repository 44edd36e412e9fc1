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

const RESOURCES = { audio: 'Audio', voice: 'Voice' };

/** The audio operations are named by what they make ("Speech"); the canvas says what the node does. */
const SUBTITLES = {
	'audio:speech': 'Generate: Speech',
	'audio:music': 'Generate: Music',
	'audio:soundEffect': 'Generate: Sound Effect',
	'audio:convertVoice': 'Convert: Voice',
	'audio:transcribe': 'Transcribe: Audio',
};

export class MediaGenAudio implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Audio',
		name: 'mediaGenAudio',
		icon: { light: 'file:../../icons/audio.svg', dark: 'file:../../icons/audio.dark.svg' },
		group: ['transform'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: operationSubtitle('MediaGenAudio', RESOURCES, SUBTITLES),
		description:
			'Generate speech, dialogue, music and sound effects, convert voices and transcribe with the Media Generation Service',
		documentationUrl: 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#mediagen-audio',
		defaults: { name: 'MediaGen Audio' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		webhooks: resumeWebhooks,
		properties: nodeProperties('MediaGenAudio', RESOURCES),
	};

	methods = methodsOf('MediaGenAudio');

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenAudio');
	}

	/** Deliveries of the service's events to a paused execution of this node (Wait Mode). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumePausedExecution(this, 'MediaGenAudio');
	}
}
