import { NodeConnectionTypes, type IExecuteFunctions, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { loadOptionsFor } from '../../src/models/load-options';
import { executeCatalogNode } from '../../src/node/execute';
import { credentialsOfNodes, nodeProperties } from '../../src/node/properties';

export class MediaGenAccount implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Account',
		name: 'mediaGenAccount',
		icon: { light: 'file:../../icons/mediagen.svg', dark: 'file:../../icons/mediagen.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Account, credits, usage, models, pricing, uploads, webhook endpoints and command-line sign-in of the Media Generation Service',
		defaults: { name: 'MediaGen Account' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		properties: nodeProperties('MediaGenAccount', { account: 'Account', model: 'Model', upload: 'Upload', cliSession: 'CLI Sign-In Session', webhook: 'Webhook' }),
	};

	methods = { loadOptions: loadOptionsFor('MediaGenAccount') };

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenAccount');
	}
}
