import {
	isResourceLocatorValue,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
} from 'n8n-workflow';

import { keyFromToolInputs } from '../agents/tool-call-key';
import { endpointKey, fieldLocation, type Endpoint, type FieldSpec } from '../catalog';
import { describeBinary } from '../media/upload';
import { modelAlias } from '../models/model-catalog';
import {
	binaryField,
	DEFAULT_BINARY_FIELD,
	maxOutputBytesOf,
	returnUrlsOnly,
} from '../outputs/output-options';
import { simplifyOf } from '../outputs/simplify-option';
import type { PendingUpload, PreparedCall } from '../runs/call';
import { listSettingsOf } from '../runs/list-options';
import {
	jobNameOf,
	maxParallelSubmits,
	projectId,
	quoteToken,
	requestTimeout,
	teamId,
	useBatchApi,
} from '../runs/submit-options';
import { editionOf, requestIdentityOf } from '../spend/job-edition';
import { deriveIdempotencyKey, keyFromUserValue } from '../transport/idempotency';
import { waitSettingsOf } from '../waits/wait-options';
import { ADDITIONAL_FIELDS } from './description/fields';
import { MODEL_PARAM } from './description/model';
import { binaryParam, paramName, sourceParam } from './description/param-names';
import { EDITS_THAT_KEEP_THE_JOB, RUN_OPTIONS } from './description/run-options';
import { NodeParameters } from './node-parameters';

function isEmpty(value: unknown): boolean {
	return (
		value === undefined ||
		value === null ||
		value === '' ||
		(Array.isArray(value) && value.length === 0)
	);
}

function invalid(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: FieldSpec,
	message: string,
	description?: string,
): NodeOperationError {
	const notSent = `Nothing was sent to the service, so no credits were spent (API field ${field.name}).`;
	return new NodeOperationError(ctx.getNode(), `${field.displayName}: ${message}`, {
		itemIndex,
		description: description ? `${description} ${notSent}` : notSent,
	});
}

function parseJsonField(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: FieldSpec,
	value: unknown,
): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	try {
		return JSON.parse(value);
	} catch {
		throw invalid(
			ctx,
			itemIndex,
			field,
			'is not valid JSON',
			`Example: ${String(field.default ?? '{}')}`,
		);
	}
}

function splitList(value: unknown): string[] {
	if (Array.isArray(value)) return value.map((v) => String(v).trim()).filter(Boolean);
	if (typeof value === 'string')
		return value
			.split(',')
			.map((v) => v.trim())
			.filter(Boolean);
	return [];
}

/**
 * A fixed collection of entries as the API's array of objects (each entry's parameters under their
 * API names). An array from an expression is taken as it is (and checked like the entries).
 */
function readObjectList(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: FieldSpec,
	value: unknown,
): unknown {
	if (typeof value === 'string') return parseJsonField(ctx, itemIndex, field, value);
	if (Array.isArray(value)) return value;
	const entries = (value as { values?: IDataObject[] } | undefined)?.values ?? [];
	return entries.map((entry) => {
		const object: IDataObject = {};
		for (const item of field.items ?? []) {
			const inner = entry[paramName(item)];
			if (inner !== undefined && inner !== '')
				object[item.name] = typeof inner === 'string' ? inner.trim() : inner;
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
		const useBinary = source
			? !isEmpty(source[binaryParam(field)])
			: get(sourceParam(field), 'url') === 'binary';
		if (!useBinary) {
			const urls = get(paramName(field), field.type === 'media' ? '' : []);
			return field.type === 'media'
				? typeof urls === 'string'
					? urls.trim()
					: urls
				: splitList(urls);
		}
		if (source && !isEmpty(source[paramName(field)])) {
			throw invalid(ctx, itemIndex, field, 'set either the URL or the binary field, not both');
		}
		const properties = splitList(get(binaryParam(field), ''));
		if (properties.length === 0)
			throw invalid(ctx, itemIndex, field, 'name the input binary field to upload');
		const placeholders: string[] = [];
		for (const [index, property] of properties.entries()) {
			const input = await describeBinary(ctx, itemIndex, property, field.displayName);
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
	if (
		(field.type === 'number' || field.type === 'integer') &&
		typeof value === 'string' &&
		value.trim() !== '' &&
		Number.isFinite(Number(value))
	) {
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
	/**
	 * the edition of the node's request parameters (src/spend/job-edition.ts): whether the node was
	 * edited since an earlier try, before its items' requests are compared
	 */
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
		edition: editionOf(node, EDITS_THAT_KEEP_THE_JOB),
	};
}

/** Path ids the service could read as another path (`.`, `..`) or as none at all. */
function checkPathId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: FieldSpec,
	value: unknown,
): string {
	const id = String(value).trim();
	if (id === '' || id === '.' || id === '..') {
		throw invalid(
			ctx,
			itemIndex,
			field,
			`${JSON.stringify(id)} is not an ID; allowed: the ID of an existing ${field.displayName.replace(/ ID$/, '').toLowerCase()}`,
			'Nothing was sent to the service.',
		);
	}
	return id;
}

/**
 * Whether an optional field sits at the top of the panel. A node version may have shown it under
 * Additional Fields (e.g. Product Name before MediaGen Workflow 1.1): n8n keeps only the parameters
 * the node's version shows, so a saved older workflow has it there.
 */
function shownUpFront(parameters: NodeParameters, field: FieldSpec): boolean {
	return parameters.saved(
		field.type === 'media' || field.type === 'mediaList' ? sourceParam(field) : paramName(field),
	);
}

/**
 * The key a call gets when the user set none. A tool call is named by what it asks (see
 * keyFromToolInputs, `jobByInputs`): a second call of the tool for the same job is the same request.
 */
function derivedKey(call: PreparedCall, scope: CallScope): string {
	const { itemIndex, route } = call;
	if (call.jobByInputs) {
		return keyFromToolInputs(
			{ workflowId: scope.workflowId, nodeName: scope.nodeName, itemIndex, route },
			call,
		);
	}
	return deriveIdempotencyKey({ ...scope, itemIndex, route });
}

/**
 * Reads an item's parameters into the request the endpoint takes. Media placeholders stand for
 * binaries still to upload. A derived idempotency key depends on where the call happens (execution,
 * node run, item, route), never on the body, so every retry of this item carries the same key —
 * except a tool call's, which is named by what it asks (derivedKey). A key from the Idempotency Key
 * option is named by the value and the request's identity (what is sent, not how the parameters
 * spell it), so an edit that sends the same request keeps the job.
 */
export async function prepareCall(
	ctx: IExecuteFunctions,
	endpoint: Endpoint,
	itemIndex: number,
	scope: CallScope,
	parameters = new NodeParameters(ctx),
): Promise<PreparedCall> {
	const qs: IDataObject = {};
	const body: IDataObject = {};
	const pathValues: IDataObject = {};
	const settings: IDataObject = {};
	const uploads: PendingUpload[] = [];
	const additional = parameters.get(ADDITIONAL_FIELDS, itemIndex, {}) as IDataObject;
	if (endpoint.capability) {
		const model = modelAlias(parameters.get(MODEL_PARAM, itemIndex, ''));
		if (model) body.model = model;
	}
	for (const field of endpoint.fields) {
		const topLevel = field.required || (field.primary && shownUpFront(parameters, field));
		const location = fieldLocation(endpoint, field);
		const target =
			location === 'body'
				? body
				: location === 'query'
					? qs
					: location === 'node'
						? settings
						: pathValues;
		const value = await readField(
			ctx,
			parameters,
			itemIndex,
			field,
			topLevel ? undefined : additional,
			uploads,
			target,
		);
		if (location === 'path') {
			pathValues[field.name] = checkPathId(ctx, itemIndex, field, value ?? '');
			continue;
		}
		if (isEmpty(value)) {
			if (field.required) throw invalid(ctx, itemIndex, field, 'is required');
			continue;
		}
		if (field.spread) {
			if (typeof value !== 'object' || Array.isArray(value))
				throw invalid(ctx, itemIndex, field, 'must be a JSON object');
			Object.assign(target, value);
		} else target[field.name] = value as IDataObject[keyof IDataObject];
	}
	let path = endpoint.path;
	for (const [name, value] of Object.entries(pathValues))
		path = path.replace(`{${name}}`, encodeURIComponent(String(value)));

	const route = endpointKey(endpoint);
	const call: PreparedCall = { itemIndex, endpoint, path, qs, body, settings, uploads, route };
	let ownKey: string | undefined;
	if (endpoint.output === 'run' || endpoint.output === 'batch') {
		const get = (name: string, fallback: unknown) => parameters.get(name, itemIndex, fallback);
		const options = get(RUN_OPTIONS, {}) as IDataObject;
		const team = teamId.read(options);
		if (team) body.team_id = team;
		const project = projectId.read(options);
		if (project) body.project_id = project;
		const quote = quoteToken.read(options);
		if (quote) body.quote_token = quote;
		call.run = {
			...waitSettingsOf(ctx, itemIndex, endpoint, get, options),
			concurrency: Math.round(maxParallelSubmits.read(ctx, itemIndex, options)),
			requestTimeoutMs: requestTimeout.read(ctx, itemIndex, options) * 1000,
			useBatchApi: useBatchApi.read(options),
			// an agent's tool answers with URLs: n8n drops binaries before the model (README)
			returnUrlsOnly: returnUrlsOnly.read(options) || parameters.asTool,
			binaryPropertyName: binaryField.read(options) ?? DEFAULT_BINARY_FIELD,
			maxOutputBytes: maxOutputBytesOf(ctx, itemIndex, options),
			// absent below node version 2 (the full objects); an agent's tool answers are compact already
			simplify: !parameters.asTool && simplifyOf(get),
		};
		ownKey = jobNameOf(ctx, itemIndex, options);
	}
	if (endpoint.output === 'list')
		call.list = listSettingsOf(ctx, itemIndex, (name, fallback) =>
			parameters.get(name, itemIndex, fallback),
		);
	call.identity = requestIdentityOf(call, ctx.getNode());
	if (endpoint.idempotency !== 'none') {
		if (ownKey) call.job = ownKey;
		// a binary upload has no content in the body yet (a placeholder): such a tool call keys by its execution
		else if (parameters.asTool && call.uploads.length === 0) call.jobByInputs = true;
		call.idempotencyKey = ownKey
			? keyFromUserValue(ownKey, {
					workflowId: scope.workflowId,
					nodeId: scope.nodeId,
					route,
					request: call.identity,
				})
			: derivedKey(call, scope);
	}
	return call;
}
