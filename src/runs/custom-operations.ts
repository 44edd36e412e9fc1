import type { IExecuteFunctions, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import type { Endpoint } from '../catalog';
import { describeBinary, uploadBinaryAsset } from '../media/upload';
import { createBatchFromItems, waitForBatchItems } from './batches';
import type { Run } from './run';
import { workflowOutputItems } from './workflow-output';
import type { ApiClient } from '../transport/request';
import type { PreparedCall, WaitList } from './call';
import type { SubmitMemory } from './submit-memory';
import { startPkceSession } from './pkce';

/**
 * Behaviour some operations need beyond the shared executor, named by the catalog's `custom`
 * key. Each hook replaces one step of `executeCatalogNode` for that operation only.
 */
export interface CustomOperation {
	/** replaces sending one item's call: its output items, or a run for the shared waiter (what it gives `waits` is waited for later) */
	send?: (
		ctx: IExecuteFunctions,
		client: ApiClient,
		call: PreparedCall,
		waits: WaitList,
	) => Promise<INodeExecutionData[] | Run>;
	/** replaces sending: all items of the operation become one request; outputs by input item index */
	sendAll?: (
		ctx: IExecuteFunctions,
		client: ApiClient,
		calls: PreparedCall[],
		memory: SubmitMemory,
		waits: WaitList,
	) => Promise<Map<number, INodeExecutionData[]>>;
	/** turns a completed run into output items (instead of the run JSON plus its files), also when a paused execution resumes */
	completedRun?: (
		ctx: IExecuteFunctions | IWebhookFunctions,
		client: ApiClient,
		call: PreparedCall,
		run: Run,
	) => Promise<INodeExecutionData[]>;
}

const customOperations: Record<string, CustomOperation> = {
	batchFromItems: { sendAll: createBatchFromItems },
	waitForBatch: { send: waitForBatchItems },
	workflowOutput: { completedRun: workflowOutputItems },
	pkceStart: { send: async (ctx, client, call) => await startPkceSession(ctx, client, call) },
	uploadBinary: {
		send: async (ctx, client, call) => {
			const described = await describeBinary(
				ctx,
				call.itemIndex,
				String(call.settings.binary_property_name || 'data'),
			);
			const input = {
				...described,
				mimeType:
					typeof call.body.content_type === 'string' && call.body.content_type
						? call.body.content_type
						: described.mimeType,
				fileName:
					typeof call.body.filename === 'string' && call.body.filename
						? call.body.filename
						: described.fileName,
			};
			const asset = await uploadBinaryAsset(client, ctx, input);
			return [
				{
					json: { ...asset, file_name: input.fileName ?? null },
					pairedItem: { item: call.itemIndex },
				},
			];
		},
	},
};

export function customOperationFor(endpoint: Endpoint): CustomOperation | undefined {
	if (!endpoint.custom) return undefined;
	const custom = customOperations[endpoint.custom];
	if (!custom)
		throw new Error(
			`No custom operation "${endpoint.custom}" for ${endpoint.method} ${endpoint.path}`,
		);
	return custom;
}

/** Keys the catalog may name (checked by a unit test). */
export const customOperationKeys = Object.keys(customOperations);
