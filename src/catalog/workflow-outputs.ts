/**
 * The five workflows of the API document and the output fields each declares (its Workflow table),
 * apart from the workflows' operations (workflows.ts): Simplify reads them in the trigger too, which
 * loads no operation.
 */
export const WORKFLOW_KEYS = [
	'storyboard',
	'hook_pack',
	'ugc_ad',
	'creative_pack',
	'product_ad_variants',
] as const;
export type WorkflowKey = (typeof WORKFLOW_KEYS)[number];

/** Output fields each workflow declares (the Workflow table of the API document). */
export const WORKFLOW_OUTPUT_FIELDS: Record<WorkflowKey, string[]> = {
	storyboard: ['project_id', 'status', 'current_stage', 'next_action'],
	hook_pack: ['hooks', 'body', 'call_to_action', 'full_script'],
	ugc_ad: ['hooks', 'body', 'call_to_action', 'full_script'],
	creative_pack: ['product', 'analysis', 'hooks', 'body', 'call_to_action', 'full_script'],
	product_ad_variants: ['variant_count', 'variants'],
};
