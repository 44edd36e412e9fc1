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
import {
	credentialsOfNodes,
	nodeProperties,
	type EarlierShape,
} from '../../src/node/description/properties';
import { resumePausedExecution, resumeWebhooks } from '../../src/waits/resume';

const RESOURCES = {
	workflow: 'Workflow',
	preset: 'Preset',
	userWorkflow: 'User Workflow',
	ad: 'Ad',
	marketing: 'Marketing',
};

/**
 * Version 1.1 puts Product Name, Product Description and Tone of Product Ad Variants up front and
 * turns One Item per Variant on by default; workflows saved with version 1 keep what they had.
 * Version 2, like the other nodes' version 2, turns Simplify on (src/outputs/simplify-option.ts).
 */
const BEFORE_1_1: EarlierShape = {
	changedIn: 1.1,
	resource: 'workflow',
	operation: 'generateProductAdVariants',
	fields: {
		product_name: { primary: false },
		product_description: { primary: false },
		tone: { primary: false },
		split_variants: { default: false },
	},
};

export class MediaGenWorkflow implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'MediaGen Workflow',
		name: 'mediaGenWorkflow',
		icon: { light: 'file:../../icons/workflow.svg', dark: 'file:../../icons/workflow.dark.svg' },
		group: ['transform'],
		version: [1, 1.1, 2],
		defaultVersion: 2,
		subtitle: operationSubtitle('MediaGenWorkflow', RESOURCES),
		description:
			'Run workflows, presets and editor workflows, analyze ads and read marketing catalogs with the Media Generation Service',
		documentationUrl: 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#mediagen-workflow',
		defaults: { name: 'MediaGen Workflow' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: credentialsOfNodes,
		webhooks: resumeWebhooks,
		properties: nodeProperties('MediaGenWorkflow', RESOURCES, [BEFORE_1_1]),
	};

	methods = methodsOf('MediaGenWorkflow');

	async execute(this: IExecuteFunctions) {
		return await executeCatalogNode(this, 'MediaGenWorkflow');
	}

	/** Deliveries of the service's events to a paused execution of this node (Wait Mode). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumePausedExecution(this, 'MediaGenWorkflow');
	}
}
