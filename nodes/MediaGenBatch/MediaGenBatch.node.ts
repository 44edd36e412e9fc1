import { NodeConnectionTypes, type IExecuteFunctions, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { loadOptionsFor } from '../../src/models/load-options';
import { executeCatalogNode } from '../../src/node/execute';
import { credentialsOfNodes, nodeProperties } from '../../src/node/properties';

export class MediaGenBatch implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Batch',
		name: 'mediaGenBatch',
		icon: { light: 'file:../../icons/mediagen.svg', dark: 'file:../../icons/mediagen.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Run many generations or workflows as one batch with the Media Generation Service',
		defaults: { name: 'MediaGen Batch' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		properties: nodeProperties('MediaGenBatch', { batch: 'Batch', batchItem: 'Batch Item' }),
	};

	methods = { loadOptions: loadOptionsFor('MediaGenBatch') };

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenBatch');
	}
}
