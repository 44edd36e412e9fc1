import { PAUSE, type Endpoint, type FieldSpec } from './types';

const batchNode = { node: 'MediaGenBatch', auth: 'bearer', idempotency: 'none' } as const;

const batchId: FieldSpec = {
	name: 'batchId',
	displayName: 'Batch ID',
	type: 'string',
	required: true,
	default: '',
};
const itemId: FieldSpec = {
	name: 'itemId',
	displayName: 'Batch Item ID',
	type: 'string',
	required: true,
	default: '',
};

/** Batch output settings: the node reads them, the service never sees them. */
const onlyFailed: FieldSpec = {
	name: 'only_failed',
	displayName: 'Only Failed Items',
	type: 'boolean',
	in: 'node',
	primary: true,
	default: false,
	description: 'Whether to output only the items that failed (e.g. to retry them)',
};

export const batchEndpoints: Endpoint[] = [
	{
		...batchNode,
		method: 'POST',
		path: '/batches',
		scope: 'batches:write',
		idempotency: 'required',
		resource: 'batch',
		operation: 'create',
		name: 'Create From Items',
		action: 'Create a batch from the input items',
		description:
			'One batch item per input item; waits for the batch and outputs one item per batch item',
		output: 'batch',
		defaultWait: PAUSE,
		custom: 'batchFromItems',
		fields: [
			{
				name: 'mode',
				displayName: 'Mode',
				type: 'options',
				required: true,
				default: 'operation',
				options: [
					{
						name: 'Operation',
						value: 'operation',
						description: 'Each item is the body of one generation operation',
					},
					{
						name: 'Workflow',
						value: 'workflow',
						description: 'Each item is the input of one workflow run',
					},
				],
			},
			{
				name: 'target',
				displayName: 'Target',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'POST /images/generations',
				description:
					'Mode Operation: the operation name — method and path of a generating submit as the API document writes it, e.g. "POST /images/generations" (a path alone is read as POST). Mode Workflow: the workflow key, one of "storyboard", "hook_pack", "ugc_ad", "creative_pack", "product_ad_variants".',
			},
			{
				name: 'item',
				displayName: 'Item Body',
				type: 'json',
				required: true,
				default: '={{ $json }}',
				description:
					"Body of this batch item, as the target would take it. By default the input item's JSON.",
			},
			{
				name: 'concurrency',
				displayName: 'Concurrency',
				type: 'integer',
				primary: true,
				default: 5,
				min: 1,
				max: 20,
				description: 'How many items the service processes at once',
			},
			onlyFailed,
		],
	},
	{
		...batchNode,
		method: 'GET',
		path: '/batches',
		scope: 'batches:read',
		resource: 'batch',
		operation: 'list',
		name: 'List',
		action: 'List batches',
		description: 'Batches, newest first',
		output: 'list',
		fields: [],
	},
	{
		...batchNode,
		method: 'GET',
		path: '/batches/{batchId}',
		scope: 'batches:read',
		resource: 'batch',
		operation: 'get',
		name: 'Get',
		action: 'Get a batch',
		description: 'A batch with its counters',
		output: 'object',
		fields: [batchId],
	},
	{
		...batchNode,
		method: 'GET',
		path: '/batches/{batchId}/items',
		scope: 'batches:read',
		resource: 'batchItem',
		operation: 'list',
		name: 'List',
		action: 'List the items of a batch',
		description: 'Items of a batch in index order',
		output: 'list',
		fields: [batchId],
	},
	{
		...batchNode,
		method: 'GET',
		path: '/batches/{batchId}/items/{itemId}',
		scope: 'batches:read',
		resource: 'batchItem',
		operation: 'get',
		name: 'Get',
		action: 'Get a batch item',
		description: 'One item of a batch with its output or error',
		output: 'object',
		fields: [batchId, itemId],
	},
	{
		...batchNode,
		method: 'POST',
		path: '/batches/{batchId}/items/{itemId}/retry',
		scope: 'batches:write',
		resource: 'batchItem',
		operation: 'retry',
		name: 'Retry',
		action: 'Retry a failed batch item',
		description: 'Runs a failed item again; the batch is re-evaluated when it finishes',
		output: 'object',
		rerun: true,
		fields: [batchId, itemId],
	},
];

/** Waiting for a batch reads GET /batches/{batchId} until it finishes, then its items. */
export const batchExtraOperations: Endpoint[] = [
	{
		...batchNode,
		method: 'GET',
		path: '/batches/{batchId}',
		scope: 'batches:read',
		resource: 'batch',
		operation: 'wait',
		name: 'Wait for Completion',
		action: 'Wait for a batch to finish',
		description:
			'Waits until the batch is completed, failed or partial; outputs one item per batch item',
		output: 'batch',
		defaultWait: PAUSE,
		alwaysWaits: true,
		custom: 'waitForBatch',
		fields: [batchId, onlyFailed],
	},
];
