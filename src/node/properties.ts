import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { endpointsOfNode, type Endpoint, type FieldSpec, type NodeName } from '../catalog';
import { DEFAULT_MAX_OUTPUT_MB } from '../media/download';
import { estimateOperationOf, estimateOperationOption, offersEstimate } from '../runs/cost';
import { BEARER_CREDENTIAL_TYPE, CLIENT_CREDENTIALS_TYPE } from '../transport/credentials';
import { binaryParam, choicesMethod, DYNAMIC_OPTIONS_DESCRIPTION, listMethod, paramName, sourceParam } from './names';

/** The Authentication option every node has: its values are the credential type names. */
export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'API Key', value: BEARER_CREDENTIAL_TYPE },
		{ name: 'OAuth2 (Client Credentials)', value: CLIENT_CREDENTIALS_TYPE },
	],
	default: BEARER_CREDENTIAL_TYPE,
};

export const credentialsOfNodes = [
	{ name: BEARER_CREDENTIAL_TYPE, required: true, displayOptions: { show: { authentication: [BEARER_CREDENTIAL_TYPE] } } },
	{ name: CLIENT_CREDENTIALS_TYPE, required: true, displayOptions: { show: { authentication: [CLIENT_CREDENTIALS_TYPE] } } },
];

/** The operations that show an endpoint's fields: its own, and its Estimate Cost where offered. */
const operationsOf = (e: Endpoint): string[] => (offersEstimate(e) ? [e.operation, estimateOperationOf(e)] : [e.operation]);

const show = (e: Endpoint, extra: Record<string, unknown[]> = {}) => ({
	show: { resource: [e.resource], operation: operationsOf(e), ...extra },
});

/** displayOptions of what only the endpoint's own operation shows (waiting, options, paging). */
const showOwn = (e: Endpoint, extra: Record<string, unknown[]> = {}) => ({
	show: { resource: [e.resource], operation: [e.operation], ...extra },
});

function titleCase(value: string): string {
	return value.replace(/(^|[_\s-])([a-z])/g, (_, sep: string, c: string) => (sep ? ' ' : '') + c.toUpperCase());
}

/** One field as an n8n parameter (without displayOptions). */
function fieldProperty(field: FieldSpec, inCollection: boolean): INodeProperties {
	const base = {
		displayName: field.displayName,
		name: paramName(field),
		description: field.description,
		placeholder: field.placeholder,
		required: inCollection ? undefined : field.required,
	};
	switch (field.type) {
		case 'string':
			return { ...base, type: 'string', default: field.default ?? '' };
		case 'text':
			return { ...base, type: 'string', typeOptions: { rows: 3 }, default: field.default ?? '' };
		case 'number':
		case 'integer':
			return {
				...base,
				type: 'number',
				default: field.default ?? 0,
				typeOptions: { minValue: field.min, maxValue: field.max, numberPrecision: field.type === 'integer' ? 0 : 2 },
			};
		case 'boolean':
			return { ...base, type: 'boolean', default: field.default ?? false };
		case 'json':
			return { ...base, type: 'json', default: field.default ?? '{}' };
		case 'objectList':
			return {
				...base,
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: `Add ${field.itemName ?? 'Entry'}`,
				default: {},
				options: [{ name: 'values', displayName: field.itemName ?? 'Entry', values: (field.items ?? []).map((item) => fieldProperty(item, false)) }],
			};
		case 'stringList':
			return { ...base, type: 'string', typeOptions: { multipleValues: true }, default: [] };
		case 'mediaList':
			return {
				...base,
				displayName: `${field.displayName} URLs`,
				type: 'string',
				typeOptions: { multipleValues: true },
				default: [],
			};
		case 'media':
			return { ...base, displayName: `${field.displayName} URL`, type: 'string', default: '' };
		case 'options':
		case 'multiOptions':
			if (field.loadOptions) {
				return {
					...base,
					displayName: `${field.displayName} Name or ID`,
					type: field.type,
					typeOptions: { loadOptionsMethod: field.loadOptions },
					default: field.type === 'options' ? '' : [],
					description: DYNAMIC_OPTIONS_DESCRIPTION,
					hint: field.description,
				};
			}
			if (field.optionsFrom) {
				return {
					...base,
					displayName: `${field.displayName} Name or ID`,
					type: field.type,
					typeOptions: { loadOptionsMethod: listMethod(field.optionsFrom.path) },
					default: field.type === 'options' ? '' : [],
					description: DYNAMIC_OPTIONS_DESCRIPTION,
					hint: field.description,
				};
			}
			if (field.limit?.kind === 'oneOf') {
				return {
					...base,
					displayName: `${field.displayName} Name or ID`,
					type: field.type,
					typeOptions: { loadOptionsMethod: choicesMethod(field.limit.keys), loadOptionsDependsOn: ['model'] },
					default: field.type === 'options' ? '' : [],
					description: DYNAMIC_OPTIONS_DESCRIPTION,
					hint: field.description,
				};
			}
			return {
				...base,
				type: field.type,
				options: (field.options ?? []).map((o) => ({ name: titleCase(String(o.name)), value: o.value, description: o.description })),
				default: field.default ?? (field.type === 'options' ? (field.options?.[0]?.value ?? '') : []),
			};
	}
}

/** Parameters of a media field: URL or input binary property (uploaded through /uploads). */
function mediaProperties(field: FieldSpec, e: Endpoint, inCollection: boolean): INodeProperties[] {
	const binary: INodeProperties = {
		displayName: `${field.displayName} Binary Field${field.type === 'mediaList' ? 's' : ''}`,
		name: binaryParam(field),
		type: 'string',
		default: inCollection ? '' : 'data',
		hint: 'Name of the input binary field; the node uploads it first',
		description:
			field.type === 'mediaList'
				? `Comma-separated input binary fields to upload and use as ${field.displayName}`
				: `Input binary field to upload and use as ${field.displayName}`,
	};
	if (inCollection) return [fieldProperty(field, true), binary];
	const source: INodeProperties = {
		displayName: `${field.displayName} Source`,
		name: sourceParam(field),
		type: 'options',
		options: [
			{ name: 'URL', value: 'url' },
			{ name: 'Binary Field', value: 'binary' },
		],
		default: 'url',
		displayOptions: show(e),
	};
	return [
		source,
		{ ...fieldProperty(field, false), displayOptions: show(e, { [sourceParam(field)]: ['url'] }) },
		{ ...binary, required: field.required, displayOptions: show(e, { [sourceParam(field)]: ['binary'] }) },
	];
}

function modelProperty(e: Endpoint): INodeProperties {
	return {
		displayName: 'Model Name or ID',
		name: 'model',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getModels' },
		default: '',
		description: DYNAMIC_OPTIONS_DESCRIPTION,
		hint: 'Aliases of this capability from GET /models; empty uses the default model',
		displayOptions: show(e),
	};
}

function runOptions(e: Endpoint): INodeProperties[] {
	const options: INodeProperties[] = [
		{
			displayName: 'Wait Timeout (Seconds)',
			name: 'waitTimeout',
			type: 'number',
			default: 600,
			typeOptions: { minValue: 1 },
			description: 'Stop waiting after this long; the item then fails with the run ID (the run goes on)',
		},
		{
			displayName: 'Return URLs Only',
			name: 'returnUrlsOnly',
			type: 'boolean',
			default: false,
			description: 'Whether to skip downloading the output files and return their URLs only',
		},
		{
			displayName: 'Binary Field Name',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			description: 'First output file goes to this field, further ones to data_1, data_2, …',
		},
		{
			displayName: 'Max Output Size (MB)',
			name: 'maxOutputSize',
			type: 'number',
			default: DEFAULT_MAX_OUTPUT_MB,
			typeOptions: { minValue: 1 },
			description: 'Largest output file the node downloads; a larger one fails its item, naming the run (checked before and while downloading)',
		},
		{
			displayName: 'Max Parallel Submits',
			name: 'concurrency',
			type: 'number',
			default: 5,
			typeOptions: { minValue: 1, maxValue: 50 },
			description: 'How many items are submitted at once; all runs are then waited for together',
		},
		{
			displayName: 'Request Timeout (Seconds)',
			name: 'requestTimeout',
			type: 'number',
			default: 30,
			typeOptions: { minValue: 1 },
			description: 'A reply slower than this is treated as lost; submits are then resent with the same Idempotency-Key',
		},
	];
	if (e.method !== 'GET') {
		if (e.output === 'run' && e.capability) {
			options.push({
				displayName: 'Use Batch API',
				name: 'useBatchApi',
				type: 'boolean',
				default: false,
				description: 'Whether to send all items as one batch (POST /batches) and wait for the batch, instead of one submit per item',
			});
		}
		if (e.output === 'run') {
			options.push({
				displayName: 'Quote Token',
				name: 'quoteToken',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description: 'From an Estimate Cost: binds the run to the quoted price',
			});
		}
		options.push({
			displayName: 'Idempotency Key',
			name: 'idempotencyKey',
			type: 'string',
			default: '',
			description:
				'Own key for this submit. By default the node derives one from the execution, node, item and parameters, so a retry never pays twice.',
		});
	}
	if (e.teamBilling) {
		options.push({ displayName: 'Team ID', name: 'teamId', type: 'string', default: '', description: 'Bill the workspace (team) pool instead of the personal balance; the key also needs teams:read' });
	}
	if (offersEstimate(e)) {
		options.push({
			displayName: 'Max Credits',
			name: 'maxCredits',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0, numberPrecision: 2 },
			description:
				'Estimate first and refuse (no run is created) when the price is higher; otherwise submit bound to the quote. A fresh quote after quote_expired or quote_mismatch is accepted once if it still fits.',
		});
	}
	if (e.projectFiling) {
		options.push({ displayName: 'Project ID', name: 'projectId', type: 'string', default: '', description: 'File the output in this project; the key also needs projects:read' });
	}
	const wait: INodeProperties[] = e.alwaysWaits
		? []
		: [
				{
					displayName: 'Wait for Completion',
					name: 'waitForCompletion',
					type: 'boolean',
					default: true,
					description: `Whether to wait until the ${e.output === 'batch' ? 'batch finishes and return one item per batch item' : 'run completes and return its output'}; otherwise the queued ${e.output === 'batch' ? 'batch' : 'run'} is returned`,
					displayOptions: showOwn(e),
				},
			];
	return [
		...wait,
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: showOwn(e),
			options: options.sort((a, b) => a.displayName.localeCompare(b.displayName)),
		},
	];
}

function listProperties(e: Endpoint): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: showOwn(e),
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1 },
			description: 'Max number of results to return',
			displayOptions: showOwn(e, { returnAll: [false] }),
		},
	];
}

function endpointProperties(e: Endpoint): INodeProperties[] {
	const props: INodeProperties[] = [];
	if (e.capability) props.push(modelProperty(e));
	const topLevel = e.fields.filter((f) => f.required || f.primary);
	const optional = e.fields.filter((f) => !(f.required || f.primary));
	for (const field of topLevel) {
		if (field.type === 'media' || field.type === 'mediaList') props.push(...mediaProperties(field, e, false));
		else props.push({ ...fieldProperty(field, false), displayOptions: show(e) });
	}
	if (optional.length) {
		props.push({
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: show(e),
			options: optional
				.flatMap((f) => (f.type === 'media' || f.type === 'mediaList' ? mediaProperties(f, e, true) : [fieldProperty(f, true)]))
				.sort((a, b) => a.displayName.localeCompare(b.displayName)),
		});
	}
	if (e.output === 'run' || e.output === 'batch') props.push(...runOptions(e));
	if (e.output === 'list') props.push(...listProperties(e));
	return props;
}

/** All parameters of a node, derived from its catalog entries. */
export function nodeProperties(node: NodeName, resourceNames: Record<string, string>): INodeProperties[] {
	const endpoints = endpointsOfNode(node);
	const resources = [...new Set(endpoints.map((e) => e.resource))];
	const props: INodeProperties[] = [
		authenticationProperty,
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: resources.map((r) => ({ name: resourceNames[r] ?? titleCase(r), value: r })),
			default: resources[0],
		},
	];
	for (const resource of resources) {
		const ops = endpoints.filter((e) => e.resource === resource);
		const options: INodePropertyOptions[] = ops
			.flatMap((e) => [
				{ name: e.name, value: e.operation, action: e.action, description: e.description },
				...(offersEstimate(e) ? [estimateOperationOption(e)] : []),
			])
			.sort((a, b) => a.name.localeCompare(b.name));
		props.push({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options,
			default: ops[0].operation,
		});
	}
	for (const e of endpoints) props.push(...endpointProperties(e));
	return props;
}
