import type { Endpoint, FieldSpec } from './types';

/** The five workflows of the API document, with their input and output fields. */
export const WORKFLOW_KEYS = ['storyboard', 'hook_pack', 'ugc_ad', 'creative_pack', 'product_ad_variants'] as const;
export type WorkflowKey = (typeof WORKFLOW_KEYS)[number];

/** Output fields each workflow declares (the Workflow table of the API document). */
export const WORKFLOW_OUTPUT_FIELDS: Record<WorkflowKey, string[]> = {
	storyboard: ['project_id', 'status', 'current_stage', 'next_action'],
	hook_pack: ['hooks', 'body', 'call_to_action', 'full_script'],
	ugc_ad: ['hooks', 'body', 'call_to_action', 'full_script'],
	creative_pack: ['product', 'analysis', 'hooks', 'body', 'call_to_action', 'full_script'],
	product_ad_variants: ['variant_count', 'variants'],
};

export const WORKFLOW_NAMES: Record<WorkflowKey, string> = {
	storyboard: 'Storyboard',
	hook_pack: 'Hook Pack',
	ugc_ad: 'UGC Ad',
	creative_pack: 'Creative Pack',
	product_ad_variants: 'Product Ad Variants',
};

const workflowNode = { node: 'MediaGenWorkflow', auth: 'bearer' } as const;

const choice = (values: string[]) => [{ name: 'Service Default', value: '' }, ...values.map((v) => ({ name: v, value: v }))];

const prompt = (required: boolean): FieldSpec => ({
	name: 'prompt',
	displayName: 'Prompt',
	type: 'text',
	required,
	primary: true,
	default: '',
	description: required ? 'What the workflow is about' : 'What the workflow is about (optional)',
});
const text = (name: string, displayName: string, description?: string): FieldSpec => ({ name, displayName, type: 'string', default: '', description });
const tone: FieldSpec = {
	name: 'tone',
	displayName: 'Tone',
	type: 'options',
	default: '',
	options: choice(['casual', 'professional', 'humorous', 'educational', 'persuasive', 'emotional']),
};
const length: FieldSpec = { name: 'length', displayName: 'Length', type: 'options', default: '', options: choice(['short', 'medium', 'long']) };
const audience = text('audience', 'Audience', 'Who the ad speaks to');
const additionalRequirements: FieldSpec = { name: 'additional_requirements', displayName: 'Additional Requirements', type: 'text', default: '' };
const productName = text('product_name', 'Product Name');
const productDescription: FieldSpec = { name: 'product_description', displayName: 'Product Description', type: 'text', default: '' };

/** Input fields of each workflow, as the API document's Workflow table lists them. */
export const WORKFLOW_INPUT_FIELDS: Record<WorkflowKey, FieldSpec[]> = {
	storyboard: [
		prompt(true),
		text('title', 'Title'),
		{ name: 'aspect_ratio', displayName: 'Aspect Ratio', type: 'options', default: '', options: choice(['16:9', '9:16', '1:1']) },
	],
	hook_pack: [
		prompt(true),
		audience,
		tone,
		length,
		{ name: 'target_duration', displayName: 'Target Duration (Seconds)', type: 'number', default: 0, min: 0, description: 'Length of the spoken script; 0 leaves it to the service' },
		{ name: 'keywords', displayName: 'Keywords', type: 'stringList', default: [], description: 'Words the script should use' },
		additionalRequirements,
	],
	ugc_ad: [],
	creative_pack: [
		prompt(false),
		{ ...text('product_url', 'Product URL', 'Page of the product; the workflow reads it'), format: 'url' },
		productName,
		productDescription,
		text('category', 'Category'),
		audience,
		tone,
		length,
		{ name: 'image_urls', displayName: 'Product Images', type: 'mediaList', default: [], description: 'Images of the product (URLs or binary fields)' },
		additionalRequirements,
	],
	product_ad_variants: [
		{
			...prompt(false),
			description: 'The brief the ads follow: offer, channel, season or anything they must say',
			placeholder: 'e.g. Summer sale: 20% off our trail runner, for Instagram and TikTok',
		},
		{ ...productName, primary: true, placeholder: 'e.g. AirStride Runner' },
		{ ...productDescription, primary: true, description: 'What the product is and why people buy it' },
		{ ...tone, primary: true },
		audience,
		length,
		{
			name: 'variant_count',
			displayName: 'Variant Count',
			type: 'integer',
			primary: true,
			default: 3,
			min: 1,
			max: 5,
			description: 'How many ad variants to write (1 to 5)',
		},
		additionalRequirements,
		{
			name: 'split_variants',
			displayName: 'One Item per Variant',
			type: 'boolean',
			in: 'node',
			primary: true,
			default: true,
			description:
				'Whether to output each variant as its own item (ready for one image per variant) instead of one item with all variants. Each item carries the run’s cost as run_credits; credits is on the first item only, so a sum over the items is the real cost.',
		},
	],
};
WORKFLOW_INPUT_FIELDS.ugc_ad = WORKFLOW_INPUT_FIELDS.hook_pack;

const SHORTCUT_ACTIONS: Record<WorkflowKey, { operation: string; name: string; action: string; description: string }> = {
	storyboard: { operation: 'createStoryboard', name: 'Create Storyboard', action: 'Create a storyboard', description: 'Plan a video as a storyboard project' },
	hook_pack: { operation: 'generateHookPack', name: 'Generate Hook Pack', action: 'Generate a hook pack', description: 'Hooks, body, call to action and full script' },
	ugc_ad: { operation: 'generateUgcAd', name: 'Generate UGC Ad', action: 'Generate a UGC ad script', description: 'A user-generated-content style ad script' },
	creative_pack: { operation: 'generateCreativePack', name: 'Generate Creative Pack', action: 'Generate a creative pack', description: 'Product analysis with hooks and a script' },
	product_ad_variants: {
		operation: 'generateProductAdVariants',
		name: 'Generate Product Ad Variants',
		action: 'Generate product ad variants',
		description: '1 to 5 ad variants for a product',
	},
};

/**
 * One typed operation per workflow: the same endpoint as Workflow → Run with the key fixed, so
 * the node can show each workflow's own fields. The node waits and outputs the declared fields.
 */
export const workflowShortcuts: Endpoint[] = WORKFLOW_KEYS.map((key) => ({
	...workflowNode,
	...SHORTCUT_ACTIONS[key],
	method: 'POST',
	path: `/workflows/${key}/runs`,
	scope: 'workflows:write',
	idempotency: 'required',
	resource: 'workflow',
	output: 'run',
	custom: 'workflowOutput',
	fields: WORKFLOW_INPUT_FIELDS[key],
}));

const inputs = (description: string): FieldSpec => ({
	name: 'inputs',
	displayName: 'Inputs',
	type: 'json',
	spread: true,
	default: '{}',
	description,
});

const list = (path: string, resource: string, operation: string, name: string, action: string, description: string, scope: string, fields: FieldSpec[] = []): Endpoint => ({
	...workflowNode,
	method: 'GET',
	path,
	scope,
	idempotency: 'none',
	resource,
	operation,
	name,
	action,
	description,
	output: 'list',
	fields,
});

const getOne = (path: string, idField: FieldSpec, resource: string, action: string, description: string, scope: string): Endpoint => ({
	...workflowNode,
	method: 'GET',
	path,
	scope,
	idempotency: 'none',
	resource,
	operation: 'get',
	name: 'Get',
	action,
	description,
	output: 'object',
	fields: [idField],
});

const id = (name: string, displayName: string): FieldSpec => ({ name, displayName, type: 'string', required: true, default: '' });

const marketingList = (path: string, operation: string, name: string, what: string, fields: FieldSpec[] = []): Endpoint =>
	list(path, 'marketing', operation, name, `List marketing ${what}`, `The marketing studio's ${what}`, 'marketing:read', fields);

const categoryFilter: FieldSpec = { name: 'category', displayName: 'Category', type: 'string', default: '', description: 'Only entries of this category' };

export const workflowEndpoints: Endpoint[] = [
	list('/workflows', 'workflow', 'list', 'List', 'List workflows', 'The workflows with their input and output schemas', 'workflows:read'),
	getOne(
		'/workflows/{workflowKey}',
		{ name: 'workflowKey', displayName: 'Workflow', type: 'options', required: true, default: 'storyboard', options: WORKFLOW_KEYS.map((k) => ({ name: WORKFLOW_NAMES[k], value: k })) },
		'workflow',
		'Get a workflow',
		'A workflow with its input and output schemas',
		'workflows:read',
	),
	{
		...workflowNode,
		method: 'POST',
		path: '/workflows/{workflowKey}/runs',
		scope: 'workflows:write',
		idempotency: 'required',
		resource: 'workflow',
		operation: 'run',
		name: 'Run Any Workflow',
		action: 'Run a workflow',
		description: 'Run a workflow by key with its inputs as JSON; waits and outputs its output fields',
		output: 'run',
		custom: 'workflowOutput',
		fields: [
			{
				name: 'workflowKey',
				displayName: 'Workflow',
				type: 'options',
				required: true,
				default: 'storyboard',
				options: WORKFLOW_KEYS.map((k) => ({ name: WORKFLOW_NAMES[k], value: k })),
			},
			{ ...inputs('Fields of the workflow\'s input_schema, e.g. {"prompt": "…", "tone": "casual"}'), primary: true },
		],
	},

	list('/presets', 'preset', 'list', 'List', 'List presets', 'Ready-made generation presets', 'workflows:read', [categoryFilter]),
	getOne('/presets/{presetId}', id('presetId', 'Preset ID'), 'preset', 'Get a preset', 'A preset with its inputs and price', 'workflows:read'),
	{
		...workflowNode,
		method: 'POST',
		path: '/presets/{presetId}/estimate',
		scope: 'workflows:write',
		idempotency: 'none',
		resource: 'preset',
		operation: 'estimate',
		name: 'Estimate Cost',
		action: 'Estimate the cost of a preset run',
		description: 'Credits and a quote token for running a preset',
		output: 'object',
		fields: [id('presetId', 'Preset ID'), { name: 'prompt', displayName: 'Prompt', type: 'text', default: '' }, inputs('Further inputs of the preset')],
	},
	{
		...workflowNode,
		method: 'POST',
		path: '/presets/{presetId}/runs',
		scope: 'workflows:write',
		idempotency: 'courtesy',
		resource: 'preset',
		operation: 'run',
		name: 'Run',
		action: 'Run a preset',
		description: 'Generate with a preset; waits and returns its files',
		output: 'run',
		// their outputs are not known to be an image, video or audio a project can hold (document, Errors: project_filing_unsupported)
		fields: [
			id('presetId', 'Preset ID'),
			{ name: 'prompt', displayName: 'Prompt', type: 'text', primary: true, default: '' },
			{ name: 'image_url', displayName: 'Image', type: 'media', default: '', description: 'Source image, for presets that take one' },
			inputs('Further inputs of the preset'),
		],
	},

	list('/user-workflows', 'userWorkflow', 'list', 'List', 'List user workflows', 'Workflows built in the service editor', 'workflows:read'),
	{
		...workflowNode,
		method: 'POST',
		path: '/user-workflows/{workflowId}/runs',
		scope: 'workflows:write',
		idempotency: 'courtesy',
		resource: 'userWorkflow',
		operation: 'run',
		name: 'Run',
		action: 'Run a user workflow',
		description: 'Run an editor workflow; waits and returns its files',
		output: 'run',
		// their outputs are not known to be an image, video or audio a project can hold (document, Errors: project_filing_unsupported)
		fields: [id('workflowId', 'User Workflow ID'), { ...inputs('Inputs the workflow declares, e.g. {"prompt": "…"}'), primary: true }],
	},
	{
		...workflowNode,
		method: 'POST',
		path: '/user-workflows/{workflowId}/estimate',
		scope: 'workflows:write',
		idempotency: 'none',
		resource: 'userWorkflow',
		operation: 'estimate',
		name: 'Estimate Cost',
		action: 'Estimate the cost of a user workflow run',
		description: 'Credits and a quote token for running an editor workflow',
		output: 'object',
		fields: [id('workflowId', 'User Workflow ID'), { ...inputs('Inputs the workflow declares'), primary: true }],
	},
	{
		...workflowNode,
		method: 'GET',
		path: '/user-workflows/{workflowId}/runs/{runId}',
		scope: 'workflows:read',
		idempotency: 'none',
		resource: 'userWorkflow',
		operation: 'getRun',
		name: 'Get Run',
		action: 'Get a user workflow run',
		description: 'A run of an editor workflow',
		output: 'object',
		fields: [id('workflowId', 'User Workflow ID'), id('runId', 'Run ID')],
	},

	{
		...workflowNode,
		method: 'POST',
		path: '/ads/analyze',
		scope: 'workflows:write',
		idempotency: 'courtesy',
		resource: 'ad',
		operation: 'analyze',
		name: 'Analyze',
		action: 'Analyze an ad',
		description: 'Scores an ad (video, image or copy) and suggests improvements; waits and outputs the analysis',
		output: 'run',
		custom: 'workflowOutput',
		fields: [
			{ name: 'video_url', displayName: 'Ad Video', type: 'media', default: '', description: 'The ad as a video (one of video, image or copy is needed)' },
			{ name: 'image_url', displayName: 'Ad Image', type: 'media', default: '', description: 'The ad as an image' },
			{ name: 'ad_copy', displayName: 'Ad Copy', type: 'text', primary: true, default: '', description: 'The ad text' },
			{
				name: 'platform',
				displayName: 'Platform',
				type: 'options',
				default: '',
				options: choice(['tiktok', 'instagram', 'youtube', 'facebook']),
			},
		],
	},

	{
		...workflowNode,
		method: 'POST',
		path: '/marketing/products',
		scope: 'marketing:read',
		idempotency: 'none',
		resource: 'marketing',
		operation: 'createProduct',
		name: 'Create Product',
		action: 'Create a marketing product',
		description: 'A product the marketing studio can make ads for',
		output: 'object',
		fields: [
			{ name: 'name', displayName: 'Name', type: 'string', required: true, default: '' },
			text('product_url', 'Product URL'),
			{ name: 'description', displayName: 'Description', type: 'text', default: '' },
			{ name: 'image_urls', displayName: 'Images', type: 'stringList', default: [], description: 'Image URLs of the product' },
		],
	},
	marketingList('/marketing/products', 'listProducts', 'List Products', 'products'),
	marketingList('/marketing/templates', 'listTemplates', 'List Templates', 'templates', [categoryFilter]),
	{
		...getOne('/marketing/templates/{templateId}', id('templateId', 'Template ID'), 'marketing', 'Get a marketing template', 'A marketing template', 'marketing:read'),
		operation: 'getTemplate',
		name: 'Get Template',
	},
	marketingList('/marketing/ad-formats', 'listAdFormats', 'List Ad Formats', 'ad formats'),
	marketingList('/marketing/formats', 'listFormats', 'List Formats', 'output formats'),
	marketingList('/marketing/hooks', 'listHooks', 'List Hooks', 'hooks', [categoryFilter]),
	{
		...workflowNode,
		method: 'GET',
		path: '/marketing/settings',
		scope: 'marketing:read',
		idempotency: 'none',
		resource: 'marketing',
		operation: 'getSettings',
		name: 'Get Settings',
		action: 'Get marketing settings',
		description: "The account's marketing studio settings",
		output: 'object',
		fields: [],
	},
	marketingList('/marketing/avatars', 'listAvatars', 'List Avatars', 'avatars'),
];
