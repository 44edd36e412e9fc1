import { NodeConnectionTypes, type IExecuteFunctions, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { methodsOf } from '../../src/models/load-options';
import { executeCatalogNode } from '../../src/node/execute';
import { credentialsOfNodes, nodeProperties, operationSubtitle } from '../../src/node/properties';

const RESOURCES = { workflow: 'Workflow', preset: 'Preset', userWorkflow: 'User Workflow', ad: 'Ad', marketing: 'Marketing' };

export class MediaGenWorkflow implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Workflow',
		name: 'mediaGenWorkflow',
		icon: { light: 'file:../../icons/workflow.svg', dark: 'file:../../icons/workflow.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle('MediaGenWorkflow', RESOURCES),
		description: 'Run workflows, presets and editor workflows, analyze ads and read marketing catalogs with the Media Generation Service',
		documentationUrl: 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#mediagen-workflow',
		defaults: { name: 'MediaGen Workflow' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		properties: nodeProperties('MediaGenWorkflow', RESOURCES),
	};

	methods = methodsOf('MediaGenWorkflow');

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenWorkflow');
	}
}
