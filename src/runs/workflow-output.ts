import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IWebhookFunctions,
} from 'n8n-workflow';

import { WORKFLOW_OUTPUT_FIELDS, type WorkflowKey } from '../catalog/workflows';
import { downloadJson } from '../media/download';
import { simplifiedRun, simplifiedVariants } from '../outputs/simplify';
import type { ApiClient } from '../transport/request';
import type { PreparedCall } from './call';
import type { Run } from './run';

function workflowKeyOf(path: string): WorkflowKey | undefined {
	const match = /^\/workflows\/([^/]+)\/runs$/.exec(path);
	const key = match ? decodeURIComponent(match[1]) : undefined;
	return key && key in WORKFLOW_OUTPUT_FIELDS ? (key as WorkflowKey) : undefined;
}

/**
 * Where a workflow's fields live is not in the API document: in `run.output`, or — when that lacks
 * them — in a JSON document at `output.output_url` (README: Assumptions). Both are read.
 */
async function workflowFields(
	ctx: IExecuteFunctions | IWebhookFunctions,
	client: ApiClient,
	run: Run,
	declared: string[] | undefined,
): Promise<IDataObject> {
	const output: IDataObject = run.output ?? {};
	const missing = declared ? declared.some((name) => output[name] === undefined) : false;
	if (!missing || typeof output.output_url !== 'string') return output;
	const document = await downloadJson(ctx, output.output_url, client.baseUrl, {
		runId: run.id,
		signal: client.signal,
	});
	return document && typeof document === 'object' && !Array.isArray(document)
		? { ...(document as IDataObject), ...output }
		: output;
}

/**
 * A completed workflow (or ad analysis) run as items: its declared output fields as JSON (all
 * output fields where the node does not know the workflow), or one item per variant when asked;
 * simplified (src/outputs/simplify.ts) or, below node version 2, as before.
 */
export async function workflowOutputItems(
	ctx: IExecuteFunctions | IWebhookFunctions,
	client: ApiClient,
	call: PreparedCall,
	run: Run,
): Promise<INodeExecutionData[]> {
	const key = workflowKeyOf(call.path);
	const output = await workflowFields(
		ctx,
		client,
		run,
		key ? WORKFLOW_OUTPUT_FIELDS[key] : undefined,
	);
	const pairedItem = { item: call.itemIndex };
	if (call.run?.simplify) {
		const context = { operation: call.path, fields: output };
		const variants =
			call.settings.split_variants === true ? simplifiedVariants(run, context) : undefined;
		return (variants ?? [simplifiedRun(run, context)]).map((json) => ({ json, pairedItem }));
	}
	const declared = key ? WORKFLOW_OUTPUT_FIELDS[key] : Object.keys(output);
	const fields: IDataObject = {};
	for (const name of declared) if (output[name] !== undefined) fields[name] = output[name];
	const credits = (run.usage?.credits as number | undefined) ?? null;
	const about: IDataObject = { run_id: run.id, ...(key ? { workflow: key } : {}) };
	if (call.settings.split_variants === true && Array.isArray(output.variants)) {
		// One run wrote every variant: each item names what the run cost (run_credits), and only the
		// first carries `credits`, so a sum of credits over the items is what was spent, not n times it.
		const variants = output.variants as IDataObject[];
		return variants.map((variant, index) => ({
			json: {
				...variant,
				variant_index: index,
				variant_count: variants.length,
				...about,
				run_credits: credits,
				...(index === 0 ? { credits } : {}),
			},
			pairedItem,
		}));
	}
	return [{ json: { ...fields, ...about, credits }, pairedItem }];
}
