import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { fileNameFromUrl, mimeTypeForExtension } from '../media/mime';
import { outputFiles } from '../outputs/output-files';
import { listPrices, priceLabel, type ModelPrice } from '../models/model-catalog';
import type { PreparedCall } from '../runs/call';
import { isRun, isTerminal, type Run } from '../runs/run';
import type { ApiClient } from '../transport/request';

/**
 * What an AI agent gets back when a MediaGen node is its tool: compact JSON a model can act on.
 * n8n hands the model `JSON.stringify` of every item's `json` and drops binaries (see the README,
 * "Using MediaGen from an AI agent"), so a 40-field run or a list of 100 models only costs tokens.
 */

/** Items, string length, array length and depth an answer keeps of non-run JSON (lists, objects). */
export const TOOL_ANSWER_LIMITS = {
	items: 20,
	stringChars: 500,
	arrayEntries: 10,
	depth: 4,
} as const;

/** How much of a transcription's text the answer carries. */
const MAX_TEXT_CHARS = 4000;

/** Text outputs and page links of a run that a model can use as they are (not files). */
const RUN_OUTPUT_VALUES = ['text', 'play_url', 'live_url', 'draft_cache_url'];

/** Error item fields (see error-item.ts) worth a model's attention besides the message. */
const ERROR_FIELDS = ['code', 'param', 'required_scope', 'run_id', 'batch_id'];

/** What a model is told to do about a job still going when the tool answers. */
function checkLater(id: string, what: 'run' | 'batch'): string {
	const tool =
		what === 'run'
			? 'the MediaGen Run tool (Wait for Completion, or Get) with run_id'
			: 'the MediaGen Batch tool (Wait for Completion) with batch_id';
	return `The job goes on at the service and is charged once, when it completes. For its result, call ${tool} "${id}". Calling this tool again with the same inputs returns this same job: it does not start (or charge) another.`;
}

/** What a tool answer adds to a run still going: what it will cost (`credits_quoted`, `price`). */
export type RunNotes = IDataObject;

/**
 * Whether the node runs as an AI agent's tool. n8n gives every `usableAsTool` node a tool variant
 * whose type ends in `Tool` (`…mediaGenImageTool`); n8n 2.41's AI Agent v3 runs it through the
 * workflow engine, where `isToolExecution()` answers false, so the type is the signal that holds
 * for every agent version (`isToolExecution()` covers the older supply-data path too).
 */
export function runsAsTool(
	ctx: Pick<IExecuteFunctions, 'getNode'> & Partial<Pick<IExecuteFunctions, 'isToolExecution'>>,
): boolean {
	if (typeof ctx.isToolExecution === 'function' && ctx.isToolExecution()) return true;
	return ctx.getNode().type.endsWith('Tool');
}

/**
 * Whether a failed item becomes an answer to the model instead of an error. n8n itself answers a
 * failing tool with `{error: message}` unless the node's On Error is "Stop Workflow"; we do the same,
 * with the code and the hint the message alone lacks.
 */
export function toolAnswersFailures(ctx: IExecuteFunctions): boolean {
	return runsAsTool(ctx) && ctx.getNode().onError !== 'stopWorkflow';
}

function mimeTypeOf(
	file: { url: string; format?: string },
	binary: IBinaryData | undefined,
): string | undefined {
	if (binary?.mimeType) return binary.mimeType;
	const extension = file.format ?? fileNameFromUrl(file.url)?.split('.').pop();
	return extension ? mimeTypeForExtension(extension) : undefined;
}

function clip(text: string, max: number): string {
	return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/** A run as a model needs it: id, status, files with their types, credits, and what to do next. */
export function compactRun(
	run: Run,
	binaries: IBinaryData[] = [],
	notes: RunNotes = {},
): IDataObject {
	const answer: IDataObject = { run_id: run.id, status: run.status };
	if (run.model) answer.model = run.model;
	const outputs = outputFiles(run.output).map((file, index) => {
		const mimeType = mimeTypeOf(file, binaries[index]);
		return mimeType ? { url: file.url, mime_type: mimeType } : { url: file.url };
	});
	if (outputs.length) answer.outputs = outputs;
	for (const key of RUN_OUTPUT_VALUES) {
		const value = run.output?.[key];
		if (typeof value === 'string' && value) answer[key] = clip(value, MAX_TEXT_CHARS);
	}
	const credits = run.usage?.credits;
	// a run's credits are reserved at submit and charged when it completes (decisions.md)
	if (typeof credits === 'number')
		answer[isTerminal(run) ? 'credits_spent' : 'credits_reserved'] = credits;
	if (run.status === 'failed') {
		answer.error = run.error?.message ?? 'The run failed';
		if (run.error?.code) answer.code = run.error.code;
	} else if (!isTerminal(run)) {
		answer.still_running = true;
		Object.assign(answer, notes);
		answer.next = checkLater(run.id, 'run');
	}
	return answer;
}

/**
 * A Continue On Fail error item (error-item.ts) as a model needs it. A run that outlived Wait
 * Timeout is not a failure for the agent: it is told the run id and status, to check later.
 */
export function compactFailure(json: IDataObject): IDataObject {
	if (json.code === 'wait_timeout' && typeof json.run_id === 'string') {
		const status = json.run_status === undefined ? {} : { status: json.run_status };
		return {
			run_id: json.run_id,
			...status,
			still_running: true,
			next: checkLater(json.run_id, 'run'),
		};
	}
	if (json.code === 'wait_timeout' && typeof json.batch_id === 'string') {
		return {
			batch_id: json.batch_id,
			still_running: true,
			next: checkLater(json.batch_id, 'batch'),
		};
	}
	const answer: IDataObject = { status: 'error', error: json.error };
	for (const key of ERROR_FIELDS) if (json[key] !== undefined) answer[key] = json[key];
	const hint = json.hint ?? json.description;
	if (hint) answer.hint = hint;
	return answer;
}

/** Any other JSON, bounded: empty values dropped, long strings and arrays cut, deep objects summarised. */
export function trimForModel(value: unknown, depth = 0): unknown {
	const { stringChars, arrayEntries, depth: maxDepth } = TOOL_ANSWER_LIMITS;
	if (typeof value === 'string') return clip(value, stringChars);
	if (value === null || typeof value !== 'object') return value;
	if (depth >= maxDepth) return Array.isArray(value) ? `[${value.length} entries]` : '{…}';
	if (Array.isArray(value)) {
		const kept = value.slice(0, arrayEntries).map((entry) => trimForModel(entry, depth + 1));
		return value.length > arrayEntries ? [...kept, `… ${value.length - arrayEntries} more`] : kept;
	}
	const trimmed: IDataObject = {};
	for (const [key, entry] of Object.entries(value)) {
		if (
			entry === null ||
			entry === undefined ||
			entry === '' ||
			(Array.isArray(entry) && entry.length === 0)
		)
			continue;
		trimmed[key] = trimForModel(entry, depth + 1) as IDataObject[string];
	}
	return trimmed;
}

/** A run, or a run's output (GET /runs/{id}/output: MediaGen Run → Download Outputs), which a model reads the same way. */
const isRunJson = (json: IDataObject): json is Run =>
	isRun(json) &&
	(json.object === undefined || json.object === 'run' || json.object === 'run_output');

function answerOf(item: INodeExecutionData, notes: RunNotes): IDataObject {
	const { json } = item;
	if (typeof json.error === 'string') return compactFailure(json);
	if (isRunJson(json)) return compactRun(json, Object.values(item.binary ?? {}), notes);
	if (json.object === 'cost_estimate')
		return { ...(trimForModel(json) as IDataObject), next: PRICE_ONLY };
	return trimForModel(json) as IDataObject;
}

/** What a model is told with a price (Estimate Only, or an Estimate Cost tool). */
const PRICE_ONLY =
	'Nothing was made or charged. To make it at this price, call the generating tool with the same inputs (estimate_only false), and quote_token where it takes one.';

/**
 * The node's output items as an agent's tool answers: compact JSON, never binary. At most
 * `TOOL_ANSWER_LIMITS.items` items; a last item then says how many there were. `notesOf` adds what
 * a run still going will cost.
 */
export function toolAnswer(
	items: INodeExecutionData[],
	notesOf: (item: INodeExecutionData) => RunNotes = () => ({}),
): INodeExecutionData[] {
	const { items: maxItems } = TOOL_ANSWER_LIMITS;
	const answers: INodeExecutionData[] = items
		.slice(0, maxItems)
		.map((item) => ({ json: answerOf(item, notesOf(item)), pairedItem: item.pairedItem }));
	if (items.length > maxItems) {
		answers.push({
			json: {
				truncated: true,
				shown: maxItems,
				total: items.length,
				next: 'Ask for fewer results (Limit, filters) to see the others.',
			},
			pairedItem: items[maxItems].pairedItem,
		});
	}
	return answers;
}

const stillRunning = (item: INodeExecutionData) => isRunJson(item.json) && !isTerminal(item.json);

function pairedIndex(item: INodeExecutionData): number | undefined {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof paired === 'number' ? paired : paired?.item;
}

/**
 * What a run still going will cost, for the model to tell its user: the credits the node quoted
 * before sending it (Max Credits, budgets), and the model's price from GET /models/pricing.
 */
async function costNotes(
	client: ApiClient,
	calls: PreparedCall[],
	items: INodeExecutionData[],
): Promise<(item: INodeExecutionData) => RunNotes> {
	if (!items.some(stillRunning)) return () => ({});
	// the price list decorates the answer; a credential that cannot read it still gets the run
	const prices = await listPrices(client).catch((): ModelPrice[] => []);
	return (item) => {
		const run = item.json as Run;
		const notes: RunNotes = {};
		const quoted = calls.find((c) => c.itemIndex === pairedIndex(item))?.quote?.credits;
		if (quoted !== undefined) notes.credits_quoted = quoted;
		const row = prices.find(
			(p) =>
				p.model === run.model &&
				(!run.capability || !p.capability || p.capability === run.capability),
		);
		const price = row && priceLabel(row);
		if (price) notes.price = `${price} (${row.model})`;
		return notes;
	};
}

/** The executor's output as it leaves the node: unchanged in a workflow, compact for an agent. */
export async function outputFor(
	ctx: IExecuteFunctions,
	client: ApiClient,
	calls: PreparedCall[],
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	if (!runsAsTool(ctx)) return items;
	return toolAnswer(items, await costNotes(client, calls, items));
}
