import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { methodsOf } from '../../src/node/methods/load-options';
import { executeCatalogNode } from '../../src/node/execute';
import { operationSubtitle } from '../../src/node/description/operations';
import { credentialsOfNodes, nodeProperties } from '../../src/node/description/properties';

const RESOURCES = {
	account: 'Account',
	model: 'Model',
	upload: 'File',
	cliSession: 'CLI Sign-In Session',
	webhook: 'Webhook',
};

export class MediaGenAccount implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Account',
		name: 'mediaGenAccount',
		icon: { light: 'file:../../icons/account.svg', dark: 'file:../../icons/account.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle('MediaGenAccount', RESOURCES),
		description:
			'Account, credits, usage, models, pricing, uploads, webhook endpoints and command-line sign-in of the Media Generation Service',
		documentationUrl: 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#mediagen-account',
		defaults: { name: 'MediaGen Account' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		properties: nodeProperties('MediaGenAccount', RESOURCES),
	};

	methods = methodsOf('MediaGenAccount');

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenAccount');
	}
}
