import type { IDataObject } from 'n8n-workflow';

import {
	WORKFLOW_KEYS,
	WORKFLOW_OUTPUT_FIELDS,
	type WorkflowKey,
} from '../catalog/workflow-outputs';
import { outputFiles } from './output-files';
import { productFields } from './simplify-product';
import { firstOf, isObject, numeric, objectOr, put, text } from './simplify-values';

/**
 * Simplify (n8n's convention, on by default from node version 2): a run, a batch item or a run event
 * as one flat item of what a user chains on, chosen by what made the run — a generation (the files,
 * the prompt, the output's values), a product extraction (the product's fields) or a workflow (its
 * declared output fields, or one item per ad variant). The API document names only some output
 * keys; the rest are read defensively (docs/outputs.md). Pure JSON: the callers attach the binaries
 * they downloaded (in binary-key order, the order of `output_urls`) and the pairing.
 *
 * It sits beside output-files.ts, which reads the files a run output names, so that the executor
 * (node, runs) and the trigger (webhooks) share it.
 */

export type SimplifiedKind = 'generation' | 'product' | 'workflow';

export interface RunKind {
	kind: SimplifiedKind;
	/** the workflow, where known: its declared output fields are the item's */
	workflow?: WorkflowKey;
}

/** What the caller knows about the run beyond the run itself. */
export interface SimplifyContext {
	/** the operation that made or read it: a request path, an operation name ("POST /products/extract") or a batch target (a workflow key) */
	operation?: string;
	/** the body the node sent, where it knows it (the prompt that made the run) */
	sent?: IDataObject;
	/** a workflow's output fields as read (src/runs/workflow-output.ts: `run.output`, or the JSON document at its `output_url`) */
	fields?: IDataObject;
}

/** Keys every simplified run item may set itself: a run output value of the same name moves to `output_<key>`. */
const RUN_KEYS = new Set([
	'output_url',
	'output_urls',
	'prompt',
	'model',
	'credits',
	'run_id',
	'status',
	'error',
	'error_code',
	'workflow',
]);

const isWorkflowKey = (value: string): value is WorkflowKey =>
	(WORKFLOW_KEYS as readonly string[]).includes(value);

/**
 * The kind an operation makes: a product extraction, a workflow run (by path or by a batch's
 * workflow key) or an ad analysis (a workflow the node knows no fields of); undefined for the
 * rest, which are generations. A method before the path is ignored.
 */
export function kindOfOperation(operation: unknown): RunKind | undefined {
	const value = text(operation)?.trim();
	if (!value) return undefined;
	if (isWorkflowKey(value)) return { kind: 'workflow', workflow: value };
	const path = value.replace(/^[A-Z]+\s+/, '').replace(/^\/v1(?=\/)/, '');
	if (path === '/products/extract') return { kind: 'product' };
	if (path === '/ads/analyze') return { kind: 'workflow' };
	const workflow = /^\/workflows\/([^/]+)\/runs$/.exec(path);
	if (!workflow) return undefined;
	const key = decodeURIComponent(workflow[1]);
	return { kind: 'workflow', ...(isWorkflowKey(key) ? { workflow: key } : {}) };
}

/** The kind of a run: by the operation of the call, else by the run's own `endpoint` (a run read by its ID). */
export function kindOfRun(run: IDataObject, operation?: string): RunKind {
	const kind = kindOfOperation(operation) ??
		kindOfOperation(run.endpoint) ?? { kind: 'generation' };
	if (kind.kind !== 'workflow' || kind.workflow) return kind;
	const summary = objectOr(run.input_summary);
	const named = firstOf(summary, ['workflow', 'workflow_key'], text);
	return named && isWorkflowKey(named) ? { kind: 'workflow', workflow: named } : kind;
}

/** What the run was charged: `usage.credits` (a number, or a numeric string), else the run's own `credits`. */
export function creditsOf(run: IDataObject): number | undefined {
	return (
		firstOf(objectOr(run.usage), ['credits', 'credits_charged', 'credits_spent'], numeric) ??
		numeric(run.credits)
	);
}

/** The text that made the run: what the node sent (`prompt`, else `text`, for speech), else the service's echo. */
function promptOf(run: IDataObject, sent: IDataObject | undefined): string | undefined {
	return firstOf(sent ?? {}, ['prompt', 'text'], text) ?? text(objectOr(run.input_summary).prompt);
}

function modelOf(run: IDataObject, sent: IDataObject | undefined): string | undefined {
	return text(run.model) ?? text(objectOr(run.input_summary).model) ?? text(sent?.model);
}

/**
 * The run's own facts at the end of every item: credits, run_id, status, and why it failed. A key
 * the item already has (a workflow's own `status`) keeps it; the run's value goes to `run_<key>`.
 */
function withRunFacts(item: IDataObject, run: IDataObject): IDataObject {
	const facts: Array<[string, unknown]> = [
		['credits', creditsOf(run)],
		['run_id', text(run.id)],
		['status', text(run.status)],
	];
	const error = run.error;
	if (isObject(error))
		facts.push(
			['error', text(error.message) ?? text(error.code)],
			['error_code', text(error.code)],
		);
	else facts.push(['error', text(error)]);
	for (const [key, value] of facts) put(item, key in item ? `run_${key}` : key, value);
	return item;
}

function generationItem(run: IDataObject, context: SimplifyContext): IDataObject {
	const output = objectOr(run.output);
	const files = outputFiles(output).map((file) => file.url);
	const item: IDataObject = {};
	put(item, 'prompt', promptOf(run, context.sent));
	for (const [key, value] of Object.entries(output)) {
		if (key === 'output_url' || key === 'images') continue;
		put(item, RUN_KEYS.has(key) ? `output_${key}` : key, value);
	}
	put(item, 'model', modelOf(run, context.sent));
	withRunFacts(item, run);
	// last: long signed addresses would push what a user reads first (the prompt, the price) out of n8n's table
	put(item, 'output_url', text(output.output_url) ?? files[0]);
	put(item, 'output_urls', files);
	return item;
}

function productItem(run: IDataObject, context: SimplifyContext): IDataObject {
	return withRunFacts(productFields(run.output, context.sent?.url, RUN_KEYS), run);
}

/** The workflow's fields: the declared ones where the workflow is known, else every output field. */
function workflowFields(run: IDataObject, kind: RunKind, context: SimplifyContext): IDataObject {
	const output = context.fields ?? objectOr(run.output);
	const names = kind.workflow ? WORKFLOW_OUTPUT_FIELDS[kind.workflow] : Object.keys(output);
	const fields: IDataObject = {};
	for (const name of names) put(fields, name, output[name]);
	return fields;
}

function workflowItem(run: IDataObject, kind: RunKind, context: SimplifyContext): IDataObject {
	const item = workflowFields(run, kind, context);
	put(item, 'workflow' in item ? 'run_workflow' : 'workflow', kind.workflow);
	return withRunFacts(item, run);
}

/** A run (or a run output, or a batch item's run) as one simplified item's JSON, by the kind of run. */
export function simplifiedRun(run: IDataObject, context: SimplifyContext = {}): IDataObject {
	const kind = kindOfRun(run, context.operation);
	if (kind.kind === 'product') return productItem(run, context);
	if (kind.kind === 'workflow') return workflowItem(run, kind, context);
	return generationItem(run, context);
}

/** Credits in ten-thousandths: what the run's credits are shared in, so the shares add up to the charge. */
const CREDIT_UNITS = 10_000;

/**
 * Each variant's credits: its own where it carries a number, the rest of the run's credits shared
 * evenly by the others (the first ones take the odd units), so that the items add up to the run's
 * charge. Undefined where the run names no credits.
 */
export function variantCredits(
	runCredits: number | undefined,
	own: Array<number | undefined>,
): Array<number | undefined> {
	const sharing = own.filter((credits) => credits === undefined).length;
	if (runCredits === undefined || sharing === 0) return own;
	const rest = Math.max(
		0,
		runCredits - own.reduce<number>((sum, credits) => sum + (credits ?? 0), 0),
	);
	const units = Math.round(rest * CREDIT_UNITS);
	const base = Math.floor(units / sharing);
	let odd = units - base * sharing;
	return own.map((credits) => credits ?? (base + (odd-- > 0 ? 1 : 0)) / CREDIT_UNITS);
}

/** Keys a variant item sets itself: a variant field of the same name moves to `variant_<key>`. */
const VARIANT_KEYS = new Set([...RUN_KEYS, 'variant_index', 'variant_count', 'run_credits']);

/**
 * One item per ad variant (Product Ad Variants, One Item per Variant): the variant's fields flat,
 * its place, its own credits and the run's. Undefined when the run holds no variants (the caller
 * then gives the one workflow item, so the run is never lost).
 */
export function simplifiedVariants(
	run: IDataObject,
	context: SimplifyContext = {},
): IDataObject[] | undefined {
	const kind = kindOfRun(run, context.operation);
	const variants = (context.fields ?? objectOr(run.output)).variants;
	if (!Array.isArray(variants) || variants.length === 0) return undefined;
	const runCredits = creditsOf(run);
	const credits = variantCredits(
		runCredits,
		variants.map((variant) => (isObject(variant) ? numeric(variant.credits) : undefined)),
	);
	return variants.map((variant, index) => {
		const item: IDataObject = {};
		const fields = isObject(variant) ? variant : { text: variant };
		for (const [key, value] of Object.entries(fields)) {
			if (key !== 'credits') put(item, VARIANT_KEYS.has(key) ? `variant_${key}` : key, value);
		}
		put(item, 'variant_index', index);
		put(item, 'variant_count', variants.length);
		put(item, 'credits', credits[index]);
		put(item, 'run_credits', runCredits);
		put(item, 'workflow', kind.workflow);
		put(item, 'run_id', text(run.id));
		put(item, 'status', text(run.status));
		return item;
	});
}

/**
 * A batch item as the simplified item of its kind (by the item's or the batch's target), plus
 * where it sits: `batch_id`, `batch_item_index`, `batch_item_id` (for a retry of the item).
 */
export function simplifiedBatchItem(
	item: IDataObject,
	batch: IDataObject,
	context: Omit<SimplifyContext, 'operation'> = {},
): IDataObject {
	const run: IDataObject = { ...item, id: text(item.run_id) };
	const json = simplifiedRun(run, {
		...context,
		operation: text(item.target) ?? text(batch.target),
	});
	put(json, 'batch_id', text(item.batch_id) ?? text(batch.id));
	put(json, 'batch_item_index', numeric(item.index));
	put(json, 'batch_item_id', text(item.id));
	return json;
}

/** A batch (a batch event's subject) as one flat item: its id, status, target and counts. */
export function simplifiedBatch(batch: IDataObject): IDataObject {
	const item: IDataObject = {};
	put(item, 'batch_id', text(batch.id));
	put(item, 'status', text(batch.status));
	for (const key of ['mode', 'target']) put(item, key, text(batch[key]));
	for (const key of ['total_items', 'completed_items', 'failed_items'])
		put(item, key, numeric(batch[key]));
	put(item, 'credits', creditsOf(batch));
	const error = objectOr(batch.error);
	put(item, 'error', text(error.message) ?? text(error.code));
	put(item, 'error_code', text(error.code));
	return item;
}
