import type { DisplayCondition, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import {
	endpointKey,
	endpointsOfNode,
	estimateOperation,
	IN_EXECUTION_WAIT_TIMEOUT,
	offersEstimate,
	pausedWaitTimeoutOf,
	type Capability,
	type Endpoint,
	type FieldSpec,
	type NodeName,
	type WaitMode,
} from '../catalog';
import { DEFAULT_MAX_OUTPUT_MB } from '../media/download';
import { DEFAULT_SUBMIT_CONCURRENCY, MAX_SUBMIT_CONCURRENCY } from '../runs/call';
import { binaryParam, choicesMethod, DYNAMIC_CHOICES_DESCRIPTION, listMethod, MODEL_SEARCH_METHOD, paramName, sourceParam } from './names';
import { authenticationProperty, credentialsOfNodes } from './authentication';
import { simplifyProperty } from './simplify-option';
import { toolOnlyProperties } from './tool-call';
import { estimateToolDescriptionOf, toolDescriptionOf } from './tool-description';

/** The operations that show an endpoint's fields: its own, and its Estimate Cost where offered. */
const operationsOf = (e: Endpoint): string[] => (offersEstimate(e) ? [e.operation, estimateOperation(e).operation] : [e.operation]);

const show = (e: Endpoint, extra: Record<string, unknown[]> = {}) => ({
	show: { resource: [e.resource], operation: operationsOf(e), ...extra },
});

/** displayOptions of what only the endpoint's own operation shows (waiting, options, paging). */
const showOwn = (e: Endpoint, extra: Record<string, unknown[]> = {}) => ({
	show: { resource: [e.resource], operation: [e.operation], ...extra },
});

/**
 * Alphabetical order of option names, without `localeCompare`: its first call loads ICU's collation
 * data, 7–29 ms of the package's load in n8n (Node 24), where the budget is 50 ms. The names are
 * plain English, so a case-insensitive comparison orders them the same.
 */
function alphabetical(a: string, b: string): number {
	const x = a.toLowerCase();
	const y = b.toLowerCase();
	return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

function titleCase(value: string): string {
	return value.replace(/(^|[_\s-])([a-z])/g, (_, sep: string, c: string) => (sep ? ' ' : '') + c.toUpperCase());
}

/**
 * A number the chosen model bounds (Count, Duration, Target Polycount…). The field itself cannot
 * show the bound: n8n 2.41 loads model-dependent text only for choice lists (loadOptions, list
 * search); a number's bounds, hints and notices are fixed in the description. The Model list's
 * lines carry each model's bounds (numberBounds), and the tooltip says where to look.
 */
const MODEL_BOUND_CHECK =
	'Each model’s line in the Model list gives its limit for this field where the model reports one (e.g. "Count 1–4"). The node checks the value against the chosen model before sending: a value the model does not allow stops the item, and nothing is charged.';

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
				description: field.limit ? [field.description?.replace(/\.?$/, '.'), MODEL_BOUND_CHECK].filter(Boolean).join(' ') : field.description,
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
					type: field.type,
					typeOptions: { loadOptionsMethod: field.loadOptions },
					default: field.type === 'options' ? '' : [],
					description: DYNAMIC_CHOICES_DESCRIPTION,
					hint: field.description,
				};
			}
			if (field.optionsFrom) return listLocator(base, field);
			if (field.limit?.kind === 'oneOf') {
				return {
					...base,
					type: field.type,
					typeOptions: { loadOptionsMethod: choicesMethod(field), loadOptionsDependsOn: ['model.value'] },
					default: field.type === 'options' ? '' : [],
					description: DYNAMIC_CHOICES_DESCRIPTION,
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

/**
 * A field whose values a list endpoint gives (e.g. voices): a resource locator, searchable "From
 * List" or "By ID", as n8n's own nodes pick records. The request carries the ID either way.
 */
function listLocator(base: Partial<INodeProperties>, field: FieldSpec): INodeProperties {
	return {
		...base,
		displayName: field.displayName,
		name: paramName(field),
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description: field.description,
		modes: [
			{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod: listMethod(field.optionsFrom!.path), searchable: true } },
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: `${field.displayName} ID` },
		],
	};
}

/** Family prefix of each capability's aliases (the API document's id prefixes). */
const ALIAS_FAMILY: Partial<Record<Capability, string>> = {
	image_generation: 'image',
	video_generation: 'video',
	speech_generation: 'speech',
	music_generation: 'music',
	sound_effect_generation: 'sfx',
	transcription: 'transcription',
	image_editing: 'image_edit',
	video_upscaling: 'video_upscale',
	image_upscaling: 'image_upscale',
	lipsync_generation: 'lipsync',
	model_3d_generation: '3d',
	game_generation: 'game',
	app_generation: 'app',
};

const aliasPlaceholder = (capability?: Capability) => (capability && ALIAS_FAMILY[capability] ? `An alias such as ${ALIAS_FAMILY[capability]}.…` : 'A model alias');

/**
 * The model: a resource locator like n8n's OpenAI node, a searchable list of the operation's models
 * (price and status on each line) or an alias typed "By ID". Workflows saved while it was a plain
 * dropdown hold a string; both forms are read (see modelAlias).
 */
function modelProperty(e: Endpoint): INodeProperties {
	return {
		displayName: 'Model',
		name: 'model',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description: 'The model that does the work. Aspect ratios, durations, resolutions and other choices below follow it.',
		hint: 'Leave empty to use the service default model for this operation',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Service default (choose a model to change it)',
				typeOptions: { searchListMethod: MODEL_SEARCH_METHOD, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: aliasPlaceholder(e.capability),
				validation: [
					{
						type: 'regex',
						properties: { regex: '^[a-z0-9_]+\\.[A-Za-z0-9._-]+$', errorMessage: 'A model ID is an alias such as image.aurora-2 (family, dot, name)' },
					},
				],
			},
		],
		displayOptions: show(e),
	};
}

/** How to wait: in this execution, or with the execution paused until the service's events arrive. */
function waitModeProperty(e: Endpoint, displayOptions: INodeProperties['displayOptions']): INodeProperties {
	return {
		displayName: 'Wait Mode',
		name: 'waitMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'In This Execution',
				value: 'inExecution',
				description: 'The execution keeps running (and holds its worker) and polls until the runs finish',
			},
			{
				name: 'Pause the Execution Until They Finish',
				value: 'parked',
				description:
					"Frees the worker while the runs go on; the service's signed event resumes the execution. Needs n8n reachable from the service at its webhook URL and the webhooks:write scope.",
			},
		],
		default: e.defaultWait ?? 'inExecution',
		description: 'How to wait for the runs. Waits longer than a minute or two are better paused.',
		displayOptions,
	};
}

/**
 * Shown while Wait Mode is "Pause the Execution": what the user will see before they run it (n8n's
 * own panel then reads only "Waiting for input"; the node's output pane says what it waits for).
 */
function pauseNoticeProperty(displayOptions: INodeProperties['displayOptions']): INodeProperties {
	return {
		displayName:
			'This node pauses the execution until MediaGen has finished: meanwhile the execution is listed as Waiting under Executions, this panel reads "Waiting for input" above a note naming the runs, and no worker is held. It continues by itself when the service reports the runs finished, at the latest at Wait Timeout. Where it cannot pause, it waits in the execution (holding a worker) and says why in the execution\'s hints: among others where n8n\'s webhook address is one the service cannot reach — a loopback, private, link-local or local-network address or name, or one where the service\'s latest delivery got no answer.',
		name: 'pauseNotice',
		type: 'notice',
		default: '',
		displayOptions,
	};
}

/** How long a paused wait lasts: the deadline in a friendly unit for the description. */
function spelledSeconds(seconds: number): string {
	if (seconds % 3600 === 0) return `${seconds / 3600} h`;
	if (seconds % 60 === 0) return `${seconds / 60} min`;
	return `${seconds} s`;
}

/**
 * Wait Timeout, one per Wait Mode with that mode's default (src/catalog/wait-timeouts.ts): a wait in
 * the execution holds a worker, a paused one holds nothing and may last hours. Both are the one
 * option `waitTimeout`, so a value set in one mode stays when the mode changes.
 */
function waitTimeoutOptions(e: Endpoint): INodeProperties[] {
	const paused = pausedWaitTimeoutOf(e) ?? IN_EXECUTION_WAIT_TIMEOUT;
	const option = (mode: WaitMode, seconds: number, description: string): INodeProperties => ({
		displayName: 'Wait Timeout (Seconds)',
		name: 'waitTimeout',
		type: 'number',
		default: seconds,
		typeOptions: { minValue: 1 },
		description,
		displayOptions: { show: { '/waitMode': [mode] } },
	});
	return [
		option(
			'inExecution',
			IN_EXECUTION_WAIT_TIMEOUT,
			`Stop waiting after this long; the item then fails with the run ID (the run goes on). Unset: ${spelledSeconds(IN_EXECUTION_WAIT_TIMEOUT)}, as long as the execution may hold its worker.`,
		),
		option(
			'parked',
			paused,
			`When n8n resumes the paused execution if no event came; the items still waiting then fail with their run IDs (the runs go on). Unset: ${spelledSeconds(paused)} for this operation, and ${spelledSeconds(IN_EXECUTION_WAIT_TIMEOUT)} where the node cannot pause and waits in the execution instead.`,
		),
	];
}

function runOptions(e: Endpoint): INodeProperties[] {
	const options: INodeProperties[] = [
		...waitTimeoutOptions(e),
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
			description: 'First output file goes to this field, further ones to "data_1", "data_2", …',
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
			default: DEFAULT_SUBMIT_CONCURRENCY,
			typeOptions: { minValue: 1, maxValue: MAX_SUBMIT_CONCURRENCY },
			description: 'How many items are submitted at once; the runs are waited for in one loop as they are sent',
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
				description: 'Whether to send all items as one batch and wait for the batch, instead of one submit per item (API: POST /batches)',
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
				'Names the job, e.g. {{ $json.sku }}: a re-run with the same values (in any order) gets the first runs back instead of paying again. One job per value per node of a workflow. Without it the node derives a key per execution and item, so its own retries never pay twice.',
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
				'Estimate first and refuse (no run is created) when the price is higher; otherwise submit bound to the quote. A fresh quote, after the service finds the quote expired or no longer matching, is accepted once if it still fits.',
		});
		options.push({
			displayName: 'Max Credits per Execution',
			name: 'maxCreditsPerExecution',
			type: 'number',
			default: 100,
			typeOptions: { minValue: 0, numberPrecision: 2 },
			description:
				"Most credits this node may submit in one execution, all items together: every item is estimated first, and an item whose price would pass this is refused before anything of it is sent (error code \"budget_exceeded\"). The first item's value counts.",
		});
	}
	if (e.projectFiling) {
		options.push({ displayName: 'Project ID', name: 'projectId', type: 'string', default: '', description: 'File the output in this project; the key also needs projects:read' });
	}
	const wait: INodeProperties[] = e.alwaysWaits
		? [waitModeProperty(e, showOwn(e)), pauseNoticeProperty(showOwn(e, { waitMode: ['parked'] }))]
		: [
				{
					displayName: 'Wait for Completion',
					name: 'waitForCompletion',
					type: 'boolean',
					default: true,
					description: `Whether to wait until the ${e.output === 'batch' ? 'batch finishes and return one item per batch item' : 'run completes and return its output'}; otherwise the queued ${e.output === 'batch' ? 'batch' : 'run'} is returned`,
					displayOptions: showOwn(e),
				},
				waitModeProperty(e, showOwn(e, { waitForCompletion: [true] })),
				pauseNoticeProperty(showOwn(e, { waitForCompletion: [true], waitMode: ['parked'] })),
			];
	return [
		...wait,
		simplifyProperty(showOwn(e).show),
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: showOwn(e),
			options: options.sort((a, b) => alphabetical(a.displayName, b.displayName)),
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
				.sort((a, b) => alphabetical(a.displayName, b.displayName)),
		});
	}
	if (e.output === 'run' || e.output === 'batch') props.push(...runOptions(e));
	if (e.output === 'list') props.push(...listProperties(e));
	return props;
}

/**
 * The description an AI agent reads, per operation, shown only on the node's tool variant
 * (`@tool`). n8n's own "Set Automatically" text is just the operation's action ("Generate images
 * from a prompt in MediaGen Image"); with this parameter present n8n adds none of its own.
 */
/** What an AI agent reads about the operation as a tool (shown only where the node runs as a tool). */
function toolDescriptionProperty(e: Endpoint): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: e.estimates ? estimateToolDescriptionOf(e, e) : toolDescriptionOf(e),
		description: 'What the AI agent reads about this tool: written for the operation (cost, duration, inputs, answer). Edit it to steer the agent.',
		displayOptions: { show: { '@tool': [true], resource: [e.resource], operation: [e.operation] } },
	};
}

interface OperationChoice {
	option: INodePropertyOptions & { name: string; value: string };
	endpoint: Endpoint;
	estimate: boolean;
}

/** Estimates price an action: the Estimate Cost pseudo-operations and the catalog's own estimate endpoints. */
const isEstimate = (choice: OperationChoice) => choice.estimate || /^Estimate\b/.test(choice.option.name);
/** Operations whose inputs are a raw JSON object (Run Any Workflow, …): after the typed ones. */
const takesRawInputs = (e: Endpoint) => e.fields.some((f) => f.spread);
const makesSomething = (e: Endpoint) => e.output === 'run' || e.output === 'batch';

/**
 * The order of a resource's operations (n8n's node panel lists its actions in this order): what
 * makes something first, typed before raw-JSON ones, in catalog order (its main action leads);
 * then reading and managing, alphabetically; the cost estimates last.
 */
function operationRank(choice: OperationChoice): number {
	if (isEstimate(choice)) return 3;
	if (!makesSomething(choice.endpoint)) return 2;
	return takesRawInputs(choice.endpoint) ? 1 : 0;
}

function operationChoices(endpoints: Endpoint[]): OperationChoice[] {
	const choices = endpoints.map((e) => ({ option: { name: e.name, value: e.operation, action: e.action, description: e.description }, endpoint: e, estimate: e.estimates !== undefined }));
	// an estimate keeps the place of the operation it prices
	const priced = (e: Endpoint) => (e.estimates ? (endpoints.find((p) => endpointKey(p) === e.estimates && p.resource === e.resource) ?? e) : e);
	const catalogOrder = (c: OperationChoice) => endpoints.indexOf(priced(c.endpoint));
	return choices.sort((a, b) => {
		const rank = operationRank(a) - operationRank(b);
		if (rank !== 0) return rank;
		if (operationRank(a) === 2) return alphabetical(a.option.name, b.option.name);
		return catalogOrder(a) - catalogOrder(b) || alphabetical(a.option.name, b.option.name);
	});
}

const resourcesOf = (endpoints: Endpoint[]) => [...new Set(endpoints.map((e) => e.resource))];

/**
 * How an operation looked before a node version changed it: the catalog describes the newest
 * version; workflows saved with an older one keep their shape (n8n omits parameters at their
 * defaults, so a changed default or a field moved out of Additional Fields would change them).
 */
export { credentialsOfNodes };

export interface EarlierShape {
	/** the node version that changed it: versions below it keep this shape */
	changedIn: number;
	resource: string;
	operation: string;
	/** per API field name, what it was */
	fields: Record<string, Pick<FieldSpec, 'primary' | 'default'>>;
}

/**
 * The same properties, shown only from (or only below) a node version. A property that names its
 * own versions (Simplify, from SIMPLIFY_SINCE) keeps them above the change, and is left out below
 * it: every shape change so far (1.1) comes before SIMPLIFY_SINCE.
 */
function forVersions(props: INodeProperties[], versions: DisplayCondition, below: boolean): INodeProperties[] {
	return props
		.filter((p) => !(below && p.displayOptions?.show?.['@version']))
		.map((p) => ({ ...p, displayOptions: { ...p.displayOptions, show: { ...p.displayOptions?.show, '@version': p.displayOptions?.show?.['@version'] ?? [versions] } } }));
}

function versionedEndpointProperties(e: Endpoint, earlier: EarlierShape[]): INodeProperties[] {
	const shape = earlier.find((s) => s.resource === e.resource && s.operation === e.operation);
	if (!shape) return endpointProperties(e);
	const before: Endpoint = { ...e, fields: e.fields.map((f) => ({ ...f, ...shape.fields[f.name] })) };
	return [...forVersions(endpointProperties(before), { _cnd: { lt: shape.changedIn } }, true), ...forVersions(endpointProperties(e), { _cnd: { gte: shape.changedIn } }, false)];
}

/** All parameters of a node, derived from its catalog entries (and the shapes older versions keep). */
export function nodeProperties(node: NodeName, resourceNames: Record<string, string>, earlier: EarlierShape[] = []): INodeProperties[] {
	const endpoints = endpointsOfNode(node);
	const resources = resourcesOf(endpoints);
	const props: INodeProperties[] = [
		authenticationProperty,
		{
			displayName: 'Resource',
			name: 'resource',
			// one resource: nothing to choose, so not shown; it still holds the value that routes the
			// operations, and its option names the panel's "<Resource> Actions" group
			type: resources.length === 1 ? 'hidden' : 'options',
			noDataExpression: true,
			options: resources.map((r) => ({ name: resourceNames[r] ?? titleCase(r), value: r })),
			default: resources[0],
		},
	];
	for (const resource of resources) {
		const ops = endpoints.filter((e) => e.resource === resource);
		props.push({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: operationChoices(ops).map((c) => c.option),
			// the first catalog entry, as before: a saved workflow omits a parameter at its default
			default: ops[0].operation,
		});
	}
	for (const e of endpoints) props.push(toolDescriptionProperty(e));
	// an Estimate Cost shows the fields of the operation it prices (operationsOf), not fields of its own
	for (const e of endpoints) if (!e.estimates) props.push(...versionedEndpointProperties(e, earlier), ...toolOnlyProperties(e));
	return props;
}

/**
 * The canvas subtitle: the operation and resource as the user picked them ("Generate: Image"), not
 * their values. An expression looking the pair up in a fixed table, falling back to the value.
 * `worded` gives the subtitle of an operation whose panel name is a noun ("Speech" under Audio),
 * keyed "resource:operation": on the canvas it reads as what the node does ("Generate: Speech").
 */
export function operationSubtitle(node: NodeName, resourceNames: Record<string, string>, worded: Record<string, string> = {}): string {
	const endpoints = endpointsOfNode(node);
	const labels: Record<string, string> = {};
	for (const resource of resourcesOf(endpoints)) {
		for (const { option } of operationChoices(endpoints.filter((e) => e.resource === resource))) {
			const key = `${resource}:${option.value}`;
			labels[key] = worded[key] ?? `${option.name}: ${resourceNames[resource] ?? titleCase(resource)}`;
		}
	}
	return `={{ ${JSON.stringify(labels)}[$parameter["resource"] + ":" + $parameter["operation"]] || $parameter["operation"] }}`;
}
