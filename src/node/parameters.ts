import { isResourceLocatorValue, NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { endpointKey, fieldLocation, IN_EXECUTION_WAIT_TIMEOUT, pausedWaitTimeoutOf, type Endpoint, type FieldSpec, type WaitMode } from '../catalog';
import { BYTES_PER_MB, DEFAULT_MAX_OUTPUT_MB, MAX_OUTPUT_MB } from '../media/download';
import { describeBinary } from '../media/upload';
import { modelAlias } from '../models/model-catalog';
import { DEFAULT_SUBMIT_CONCURRENCY, MAX_SUBMIT_CONCURRENCY, type PendingUpload, type PreparedCall, type RunSettings } from '../runs/call';
import { NOTHING_SPENT } from '../runs/nothing-spent';
import { deriveIdempotencyKey, keyFromUserValue } from '../transport/idempotency';
import { keyFromToolInputs } from '../transport/tool-call-key';
import { binaryParam, paramName, sourceParam } from './names';
import { editionOf } from './node-edition';
import { NodeParameters } from './node-parameters';

function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

function invalid(ctx: IExecuteFunctions, itemIndex: number, field: FieldSpec, message: string, description?: string): NodeOperationError {
	const notSent = `Nothing was sent to the service, so no credits were spent (API field ${field.name}).`;
	return new NodeOperationError(ctx.getNode(), `${field.displayName}: ${message}`, { itemIndex, description: description ? `${description} ${notSent}` : notSent });
}

function parseJsonField(ctx: IExecuteFunctions, itemIndex: number, field: FieldSpec, value: unknown): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	try {
		return JSON.parse(value);
	} catch {
		throw invalid(ctx, itemIndex, field, 'is not valid JSON', `Example: ${String(field.default ?? '{}')}`);
	}
}

function splitList(value: unknown): string[] {
	if (Array.isArray(value)) return value.map((v) => String(v).trim()).filter(Boolean);
	if (typeof value === 'string') return value.split(',').map((v) => v.trim()).filter(Boolean);
	return [];
}

/**
 * A fixed collection of entries as the API's array of objects (each entry's parameters under their
 * API names). An array from an expression is taken as it is (and checked like the entries).
 */
function readObjectList(ctx: IExecuteFunctions, itemIndex: number, field: FieldSpec, value: unknown): unknown {
	if (typeof value === 'string') return parseJsonField(ctx, itemIndex, field, value);
	if (Array.isArray(value)) return value;
	const entries = (value as { values?: IDataObject[] } | undefined)?.values ?? [];
	return entries.map((entry) => {
		const object: IDataObject = {};
		for (const item of field.items ?? []) {
			const inner = entry[paramName(item)];
			if (inner !== undefined && inner !== '') object[item.name] = typeof inner === 'string' ? inner.trim() : inner;
		}
		return object;
	});
}

/** Reads one field's value (URL or uploaded binary for media fields). */
async function readField(
	ctx: IExecuteFunctions,
	parameters: NodeParameters,
	itemIndex: number,
	field: FieldSpec,
	source: IDataObject | undefined,
	uploads: PendingUpload[],
	target: IDataObject,
): Promise<unknown> {
	const get = (name: string, fallback: unknown) =>
		source ? source[name] : parameters.get(name, itemIndex, fallback);
	if (field.type === 'media' || field.type === 'mediaList') {
		const useBinary = source ? !isEmpty(source[binaryParam(field)]) : get(sourceParam(field), 'url') === 'binary';
		if (!useBinary) {
			const urls = get(paramName(field), field.type === 'media' ? '' : []);
			return field.type === 'media' ? (typeof urls === 'string' ? urls.trim() : urls) : splitList(urls);
		}
		if (source && !isEmpty(source[paramName(field)])) {
			throw invalid(ctx, itemIndex, field, 'set either the URL or the binary field, not both');
		}
		const properties = splitList(get(binaryParam(field), ''));
		if (properties.length === 0) throw invalid(ctx, itemIndex, field, 'name the input binary field to upload');
		const placeholders: string[] = [];
		for (const [index, property] of properties.entries()) {
			const input = await describeBinary(ctx, itemIndex, property);
			const placeholder = `binary:${property}`;
			placeholders.push(placeholder);
			uploads.push({
				input,
				placeholder,
				assign: (url) => {
					if (field.type === 'media') target[field.name] = url;
					else (target[field.name] as string[])[index] = url;
				},
			});
		}
		return field.type === 'media' ? placeholders[0] : placeholders;
	}
	const raw = get(paramName(field), field.default);
	// a list read from the API (e.g. Voice) is a resource locator: From List or By ID, the ID either way
	const value = isResourceLocatorValue(raw) ? raw.value : raw;
	if (field.type === 'json') return parseJsonField(ctx, itemIndex, field, value);
	if (field.type === 'objectList') return readObjectList(ctx, itemIndex, field, value);
	// an expression gives a number field a string: read it as the number it spells (checked later)
	if ((field.type === 'number' || field.type === 'integer') && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
		return Number(value);
	}
	if (field.type === 'stringList') return splitList(value);
	if (typeof value === 'string') return value.trim();
	return value;
}

/** Where the calls of one node run happen: the same for every item and every try. */
export interface CallScope {
	workflowId: string;
	executionId: string;
	nodeName: string;
	/** n8n's node id (kept across renames); the name where a node has none */
	nodeId: string;
	runIndex: number;
	/** the edition of the node's request parameters (node-edition.ts) */
	edition: string;
}

export function callScopeOf(ctx: IExecuteFunctions): CallScope {
	const node = ctx.getNode();
	return {
		workflowId: String(ctx.getWorkflow().id ?? ''),
		executionId: String(ctx.getExecutionId() ?? ''),
		nodeName: node.name,
		nodeId: node.id || node.name,
		// n8n's Retry On Fail re-runs the node with the same run index; a loop gives each pass its own
		runIndex: Number(ctx.getWorkflowDataProxy(0).$runIndex ?? 0),
		edition: editionOf(node),
	};
}

/** A number option: finite and within bounds, else an error naming the field and the range. */
export function numberOption(ctx: IExecuteFunctions, itemIndex: number, options: IDataObject, name: string, label: string, fallback: number, min: number, max: number): number {
	const raw = options[name];
	if (raw === undefined || raw === null || raw === '') return fallback;
	const value = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw.trim()) : NaN;
	if (!Number.isFinite(value) || value < min || value > max) {
		const shown = typeof raw === 'number' ? String(raw) : JSON.stringify(raw);
		throw new NodeOperationError(ctx.getNode(), `${label}: ${shown} is not allowed; allowed: a number from ${min} to ${max}`, {
			itemIndex,
			description: NOTHING_SPENT,
		});
	}
	return value;
}

/**
 * The job an item names through Options → Idempotency Key: a number from an expression counts as
 * its text; a blank value means none (the node derives a key); anything else is refused.
 */
function jobNameOf(ctx: IExecuteFunctions, itemIndex: number, raw: unknown): string | undefined {
	if (raw === undefined || raw === null) return undefined;
	if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
	if (typeof raw !== 'string') {
		throw new NodeOperationError(ctx.getNode(), `Idempotency Key: ${JSON.stringify(raw) ?? String(raw)} is not allowed; allowed: text that names the job, e.g. {{ $json.sku }}`, {
			itemIndex,
			description: NOTHING_SPENT,
		});
	}
	return raw.trim() || undefined;
}

/** Path ids the service could read as another path (`.`, `..`) or as none at all. */
function checkPathId(ctx: IExecuteFunctions, itemIndex: number, field: FieldSpec, value: unknown): string {
	const id = String(value).trim();
	if (id === '' || id === '.' || id === '..') {
		throw invalid(ctx, itemIndex, field, `${JSON.stringify(id)} is not an ID; allowed: the ID of an existing ${field.displayName.replace(/ ID$/, '').toLowerCase()}`, 'Nothing was sent to the service.');
	}
	return id;
}

/** Wait Mode as set, else the operation's default (catalog `defaultWait`). */
function waitModeOf(ctx: IExecuteFunctions, parameters: NodeParameters, endpoint: Endpoint, itemIndex: number): WaitMode {
	const value = parameters.get('waitMode', itemIndex, endpoint.defaultWait ?? 'inExecution');
	if (value === 'parked' || value === 'inExecution') return value;
	throw new NodeOperationError(ctx.getNode(), `Wait Mode (waitMode): ${JSON.stringify(value)} is not allowed; allowed: parked, inExecution`, {
		itemIndex,
		description: 'Nothing was sent to the service.',
	});
}

/**
 * Wait Timeout as set (the same in either Wait Mode), else each mode's default: a paused wait's
 * comes from the catalog (src/catalog/wait-timeouts.ts). Both are kept: a node set to pause may
 * have to wait in the execution instead (src/node/pause.ts, whyNotPause).
 */
function waitTimeoutsOf(ctx: IExecuteFunctions, endpoint: Endpoint, itemIndex: number, options: IDataObject): Pick<RunSettings, 'waitTimeoutMs' | 'pausedWaitTimeoutMs'> {
	const read = (fallback: number) => numberOption(ctx, itemIndex, options, 'waitTimeout', 'Wait Timeout (Seconds)', fallback, 1, MAX_WAIT_SECONDS) * 1000;
	return { waitTimeoutMs: read(IN_EXECUTION_WAIT_TIMEOUT), pausedWaitTimeoutMs: read(pausedWaitTimeoutOf(endpoint) ?? IN_EXECUTION_WAIT_TIMEOUT) };
}

/** Longest wait the node accepts, in seconds (7 days, the service's draft and asset windows). */
export const MAX_WAIT_SECONDS = 7 * 24 * 3600;

/**
 * Whether an optional field sits at the top of the panel. A node version may have shown it under
 * Additional Fields (e.g. Product Name before MediaGen Workflow 1.1): n8n keeps only the parameters
 * the node's version shows, so a saved older workflow has it there.
 */
function shownUpFront(parameters: NodeParameters, field: FieldSpec): boolean {
	return parameters.saved(field.type === 'media' || field.type === 'mediaList' ? sourceParam(field) : paramName(field));
}

/**
 * The key a call gets when the user set none. A tool call is named by what it asks (see
 * keyFromToolInputs): a second call of the tool for the same job is the same request. A binary
 * upload has no content in the body yet (a placeholder), so such a call keys by its execution.
 */
function derivedKey(parameters: NodeParameters, call: PreparedCall, scope: CallScope): string {
	const { itemIndex, route } = call;
	if (parameters.asTool && call.uploads.length === 0) {
		return keyFromToolInputs({ workflowId: scope.workflowId, nodeName: scope.nodeName, itemIndex, route }, call);
	}
	return deriveIdempotencyKey({ ...scope, itemIndex, route });
}

/**
 * Reads an item's parameters into the request the endpoint takes. Media placeholders stand for
 * binaries still to upload. The idempotency key depends on where the call happens (execution, node
 * run, item, route), never on the body, so every retry of this item carries the same key — except
 * a tool call's, which is named by what it asks (derivedKey).
 */
export async function prepareCall(ctx: IExecuteFunctions, endpoint: Endpoint, itemIndex: number, scope: CallScope, parameters = new NodeParameters(ctx)): Promise<PreparedCall> {
	const qs: IDataObject = {};
	const body: IDataObject = {};
	const pathValues: IDataObject = {};
	const settings: IDataObject = {};
	const uploads: PendingUpload[] = [];
	const additional = parameters.get('additionalFields', itemIndex, {}) as IDataObject;
	if (endpoint.capability) {
		const model = modelAlias(parameters.get('model', itemIndex, ''));
		if (model) body.model = model;
	}
	for (const field of endpoint.fields) {
		const topLevel = field.required || (field.primary && shownUpFront(parameters, field));
		const location = fieldLocation(endpoint, field);
		const target = location === 'body' ? body : location === 'query' ? qs : location === 'node' ? settings : pathValues;
		const value = await readField(ctx, parameters, itemIndex, field, topLevel ? undefined : additional, uploads, target);
		if (location === 'path') {
			pathValues[field.name] = checkPathId(ctx, itemIndex, field, value ?? '');
			continue;
		}
		if (isEmpty(value)) {
			if (field.required) throw invalid(ctx, itemIndex, field, 'is required');
			continue;
		}
		if (field.spread) {
			if (typeof value !== 'object' || Array.isArray(value)) throw invalid(ctx, itemIndex, field, 'must be a JSON object');
			Object.assign(target, value);
		} else target[field.name] = value as IDataObject[keyof IDataObject];
	}
	let path = endpoint.path;
	for (const [name, value] of Object.entries(pathValues)) path = path.replace(`{${name}}`, encodeURIComponent(String(value)));

	const route = endpointKey(endpoint);
	const call: PreparedCall = { itemIndex, endpoint, path, qs, body, settings, uploads, route };
	let ownKey: string | undefined;
	if (endpoint.output === 'run' || endpoint.output === 'batch') {
		const options = parameters.get('options', itemIndex, {}) as IDataObject;
		if (options.teamId) body.team_id = String(options.teamId);
		if (options.projectId) body.project_id = String(options.projectId);
		if (options.quoteToken) body.quote_token = String(options.quoteToken);
		call.run = {
			wait: endpoint.alwaysWaits === true || (parameters.get('waitForCompletion', itemIndex, true) as boolean),
			waitMode: waitModeOf(ctx, parameters, endpoint, itemIndex),
			concurrency: Math.round(numberOption(ctx, itemIndex, options, 'concurrency', 'Max Parallel Submits', DEFAULT_SUBMIT_CONCURRENCY, 1, MAX_SUBMIT_CONCURRENCY)),
			requestTimeoutMs: numberOption(ctx, itemIndex, options, 'requestTimeout', 'Request Timeout (Seconds)', 30, 1, 600) * 1000,
			useBatchApi: options.useBatchApi === true,
			...waitTimeoutsOf(ctx, endpoint, itemIndex, options),
			// an agent's tool answers with URLs: n8n drops binaries before the model (README)
			returnUrlsOnly: Boolean(options.returnUrlsOnly) || parameters.asTool,
			binaryPropertyName: String(options.binaryPropertyName || 'data'),
			maxOutputBytes: numberOption(ctx, itemIndex, options, 'maxOutputSize', 'Max Output Size (MB)', DEFAULT_MAX_OUTPUT_MB, 1, MAX_OUTPUT_MB) * BYTES_PER_MB,
			// absent below node version 2 (the full objects); an agent's tool answers are compact already
			simplify: !parameters.asTool && parameters.get('simplify', itemIndex, false) === true,
		};
		ownKey = jobNameOf(ctx, itemIndex, options.idempotencyKey);
	}
	if (endpoint.output === 'list') {
		const limits: IDataObject = { limit: parameters.get('limit', itemIndex, 50) as IDataObject[string] };
		call.list = {
			returnAll: parameters.get('returnAll', itemIndex, false) as boolean,
			limit: Math.round(numberOption(ctx, itemIndex, limits, 'limit', 'Limit', 50, 1, 1_000_000)),
		};
	}
	if (endpoint.idempotency !== 'none') {
		if (ownKey) call.job = ownKey;
		call.idempotencyKey = ownKey ? keyFromUserValue(ownKey, { workflowId: scope.workflowId, nodeId: scope.nodeId, route, edition: scope.edition }) : derivedKey(parameters, call, scope);
	}
	return call;
}
