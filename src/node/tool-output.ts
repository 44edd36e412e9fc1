import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { fileNameFromUrl, mimeTypeForExtension } from '../media/mime';
import { outputFiles } from '../media/output-files';
import { isRun, isTerminal, type Run } from '../runs/run';

/**
 * What an AI agent gets back when a MediaGen node is its tool: compact JSON a model can act on.
 * n8n hands the model `JSON.stringify` of every item's `json` and drops binaries (see the README,
 * "Using MediaGen from an AI agent"), so a 40-field run or a list of 100 models only costs tokens.
 */

/** Items, string length, array length and depth an answer keeps of non-run JSON (lists, objects). */
export const TOOL_ANSWER_LIMITS = { items: 20, stringChars: 500, arrayEntries: 10, depth: 4 } as const;

/** How much of a transcription's text the answer carries. */
const MAX_TEXT_CHARS = 4000;

/** Text outputs and page links of a run that a model can use as they are (not files). */
const RUN_OUTPUT_VALUES = ['text', 'play_url', 'live_url', 'draft_cache_url'];

/** Error item fields (see error-item.ts) worth a model's attention besides the message. */
const ERROR_FIELDS = ['code', 'param', 'required_scope', 'run_id', 'batch_id'];

const CHECK_LATER = 'The run goes on at the service: check it later with the MediaGen Run tool (Get, with this run_id).';

/**
 * Whether the node runs as an AI agent's tool. n8n gives every `usableAsTool` node a tool variant
 * whose type ends in `Tool` (`…mediaGenImageTool`); n8n 2.41's AI Agent v3 runs it through the
 * workflow engine, where `isToolExecution()` answers false, so the type is the signal that holds
 * for every agent version (`isToolExecution()` covers the older supply-data path too).
 */
export function runsAsTool(ctx: IExecuteFunctions): boolean {
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

function mimeTypeOf(file: { url: string; format?: string }, binary: IBinaryData | undefined): string | undefined {
	if (binary?.mimeType) return binary.mimeType;
	const extension = file.format ?? fileNameFromUrl(file.url)?.split('.').pop();
	return extension ? mimeTypeForExtension(extension) : undefined;
}

function clip(text: string, max: number): string {
	return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/** A run as a model needs it: id, status, files with their types, credits, and what to do next. */
export function compactRun(run: Run, binaries: IBinaryData[] = []): IDataObject {
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
	if (typeof credits === 'number') answer.credits_spent = credits;
	if (run.status === 'failed') {
		answer.error = run.error?.message ?? 'The run failed';
		if (run.error?.code) answer.code = run.error.code;
	} else if (!isTerminal(run)) {
		answer.still_running = true;
		answer.next = CHECK_LATER;
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
		return { run_id: json.run_id, ...status, still_running: true, next: CHECK_LATER };
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
		if (entry === null || entry === undefined || entry === '' || (Array.isArray(entry) && entry.length === 0)) continue;
		trimmed[key] = trimForModel(entry, depth + 1) as IDataObject[string];
	}
	return trimmed;
}

function answerOf(item: INodeExecutionData): IDataObject {
	const { json } = item;
	if (typeof json.error === 'string') return compactFailure(json);
	if (isRun(json) && (json.object === undefined || json.object === 'run')) return compactRun(json, Object.values(item.binary ?? {}));
	return trimForModel(json) as IDataObject;
}

/**
 * The node's output items as an agent's tool answers: compact JSON, never binary. At most
 * `TOOL_ANSWER_LIMITS.items` items; a last item then says how many there were.
 */
export function toolAnswer(items: INodeExecutionData[]): INodeExecutionData[] {
	const { items: maxItems } = TOOL_ANSWER_LIMITS;
	const answers: INodeExecutionData[] = items.slice(0, maxItems).map((item) => ({ json: answerOf(item), pairedItem: item.pairedItem }));
	if (items.length > maxItems) {
		answers.push({
			json: { truncated: true, shown: maxItems, total: items.length, next: 'Ask for fewer results (Limit, filters) to see the others.' },
			pairedItem: items[maxItems].pairedItem,
		});
	}
	return answers;
}

/** The executor's output as it leaves the node: unchanged in a workflow, compact for an agent. */
export function outputFor(ctx: IExecuteFunctions, items: INodeExecutionData[]): INodeExecutionData[] {
	return runsAsTool(ctx) ? toolAnswer(items) : items;
}
