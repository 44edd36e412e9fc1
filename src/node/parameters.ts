import { isResourceLocatorValue, NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { fieldLocation, type Endpoint, type FieldSpec } from '../catalog';
import { describeBinary, type BinaryInput } from '../media/upload';
import { modelAlias } from '../models/model-catalog';
import { deriveIdempotencyKey } from '../transport/idempotency';
import { binaryParam, paramName, sourceParam } from './names';

/** A binary that must be uploaded before the call; `assign` puts its asset URL into the body. */
export interface PendingUpload {
	input: BinaryInput;
	assign: (assetUrl: string) => void;
}

export interface RunSettings {
	wait: boolean;
	concurrency: number;
	requestTimeoutMs: number;
	/** send all items as one POST /batches instead of one submit each */
	useBatchApi: boolean;
	waitTimeoutMs: number;
	returnUrlsOnly: boolean;
	binaryPropertyName: string;
}

/** Everything needed to send one item's request, read and checked before anything is sent. */
export interface PreparedCall {
	itemIndex: number;
	endpoint: Endpoint;
	path: string;
	qs: IDataObject;
	body: IDataObject;
	/** values of fields that are settings of the node (`in: 'node'`), never sent */
	settings: IDataObject;
	uploads: PendingUpload[];
	idempotencyKey?: string;
	run?: RunSettings;
	list?: { returnAll: boolean; limit: number };
}

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

/** Reads one field's value (URL or uploaded binary for media fields). */
async function readField(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: FieldSpec,
	source: IDataObject | undefined,
	uploads: PendingUpload[],
	target: IDataObject,
): Promise<unknown> {
	const get = (name: string, fallback: unknown) =>
		source ? source[name] : ctx.getNodeParameter(name, itemIndex, fallback as string);
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
			placeholders.push(`binary:sha256:${input.sha256}`);
			uploads.push({
				input,
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
	if (field.type === 'stringList') return splitList(value);
	if (typeof value === 'string') return value.trim();
	return value;
}

/**
 * Whether an optional field sits at the top of the panel. A node version may have shown it under
 * Additional Fields (e.g. Product Name before MediaGen Workflow 1.1): n8n keeps only the parameters
 * the node's version shows, so a saved older workflow has it there.
 */
function shownUpFront(ctx: IExecuteFunctions, field: FieldSpec): boolean {
	const name = field.type === 'media' || field.type === 'mediaList' ? sourceParam(field) : paramName(field);
	return Object.prototype.hasOwnProperty.call(ctx.getNode().parameters, name);
}

/**
 * Reads an item's parameters into the request the endpoint takes. Media placeholders stand for
 * binaries still to upload; the idempotency key is derived from this logical request, so a retry
 * that uploads the same bytes again still carries the same key.
 */
export async function prepareCall(ctx: IExecuteFunctions, endpoint: Endpoint, itemIndex: number): Promise<PreparedCall> {
	const qs: IDataObject = {};
	const body: IDataObject = {};
	const pathValues: IDataObject = {};
	const settings: IDataObject = {};
	const uploads: PendingUpload[] = [];
	const additional = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	if (endpoint.capability) {
		const model = modelAlias(ctx.getNodeParameter('model', itemIndex, ''));
		if (model) body.model = model;
	}
	for (const field of endpoint.fields) {
		const topLevel = field.required || (field.primary && shownUpFront(ctx, field));
		const location = fieldLocation(endpoint, field);
		const target = location === 'body' ? body : location === 'query' ? qs : location === 'node' ? settings : pathValues;
		const value = await readField(ctx, itemIndex, field, topLevel ? undefined : additional, uploads, target);
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

	const call: PreparedCall = { itemIndex, endpoint, path, qs, body, settings, uploads };
	if (endpoint.output === 'run' || endpoint.output === 'batch') {
		const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
		if (options.teamId) body.team_id = String(options.teamId);
		if (options.projectId) body.project_id = String(options.projectId);
		if (options.quoteToken) body.quote_token = String(options.quoteToken);
		call.run = {
			wait: endpoint.alwaysWaits === true || (ctx.getNodeParameter('waitForCompletion', itemIndex, true) as boolean),
			concurrency: Math.max(1, Number(options.concurrency ?? 5) || 5),
			requestTimeoutMs: Math.max(1, Number(options.requestTimeout ?? 30) || 30) * 1000,
			useBatchApi: options.useBatchApi === true,
			waitTimeoutMs: Number(options.waitTimeout ?? 600) * 1000,
			returnUrlsOnly: Boolean(options.returnUrlsOnly),
			binaryPropertyName: String(options.binaryPropertyName || 'data'),
		};
		if (options.idempotencyKey) call.idempotencyKey = String(options.idempotencyKey);
	}
	if (endpoint.output === 'list') {
		call.list = {
			returnAll: ctx.getNodeParameter('returnAll', itemIndex, false) as boolean,
			limit: ctx.getNodeParameter('limit', itemIndex, 50) as number,
		};
	}
	if (endpoint.idempotency !== 'none' && !call.idempotencyKey) {
		call.idempotencyKey = deriveIdempotencyKey(
			{
				workflowId: String(ctx.getWorkflow().id ?? ''),
				executionId: String(ctx.getExecutionId() ?? ''),
				nodeName: ctx.getNode().name,
				itemIndex,
				route: `${endpoint.method} ${path}`,
			},
			{ qs, body },
		);
	}
	return call;
}
