import {
	all,
	isArrayOf,
	isNumber,
	isOneOf,
	isString,
	isUri,
	type Check,
	type Param,
	type ParamSet,
} from './parameters/checks';

/**
 * The five workflows of the API document's Workflow table: their input fields (with the allowed
 * values of `tone`, `length`, `aspect_ratio` and the 1 to 5 of `variant_count`) and output fields.
 * One description per field gives both the check of a run's input and the JSON Schema that
 * GET /workflows publishes as input_schema.
 */

type FieldType = 'string' | 'number' | 'uri' | 'string[]' | 'uri[]';

interface InputField {
	type: FieldType;
	required?: true;
	enum?: string[];
	minimum?: number;
	maximum?: number;
}

const TONES = ['casual', 'professional', 'humorous', 'educational', 'persuasive', 'emotional'];
const LENGTHS = ['short', 'medium', 'long'];

const text: InputField = { type: 'string' };
const tone: InputField = { type: 'string', enum: TONES };
const length: InputField = { type: 'string', enum: LENGTHS };

const scriptInputs: Record<string, InputField> = {
	prompt: { type: 'string', required: true },
	audience: text,
	tone,
	length,
	target_duration: { type: 'number' },
	keywords: { type: 'string[]' },
	additional_requirements: text,
};

const scriptOutputs = {
	hooks: { type: 'array', items: { type: 'string' } },
	body: { type: 'string' },
	call_to_action: { type: 'string' },
	full_script: { type: 'string' },
};

export const WORKFLOWS = {
	storyboard: {
		name: 'Storyboard',
		description: 'Plans a video as a storyboard project',
		inputs: {
			prompt: { type: 'string', required: true },
			title: text,
			aspect_ratio: { type: 'string', enum: ['16:9', '9:16', '1:1'] },
		} as Record<string, InputField>,
		outputs: {
			project_id: { type: 'string' },
			status: { type: 'string' },
			current_stage: { type: 'string' },
			next_action: { type: 'string' },
		} as Record<string, object>,
	},
	hook_pack: {
		name: 'Hook Pack',
		description: 'Hooks, body, call to action and full script',
		inputs: scriptInputs,
		outputs: scriptOutputs,
	},
	ugc_ad: {
		name: 'UGC Ad',
		description: 'A user-generated-content style ad script',
		inputs: scriptInputs,
		outputs: scriptOutputs,
	},
	creative_pack: {
		name: 'Creative Pack',
		description: 'Product analysis with hooks and a script',
		inputs: {
			prompt: text,
			product_url: { type: 'uri' },
			product_name: text,
			product_description: text,
			category: text,
			audience: text,
			tone,
			length,
			image_urls: { type: 'uri[]' },
			additional_requirements: text,
		} as Record<string, InputField>,
		outputs: {
			product: { type: 'object' },
			analysis: { type: 'object' },
			...scriptOutputs,
		} as Record<string, object>,
	},
	product_ad_variants: {
		name: 'Product Ad Variants',
		description: '1 to 5 ad variants for a product',
		inputs: {
			prompt: text,
			product_name: text,
			product_description: text,
			audience: text,
			tone,
			length,
			variant_count: { type: 'number', minimum: 1, maximum: 5 },
			additional_requirements: text,
		} as Record<string, InputField>,
		outputs: {
			variant_count: { type: 'number' },
			variants: { type: 'array', items: { type: 'object' } },
		} as Record<string, object>,
	},
};

export type WorkflowKey = keyof typeof WORKFLOWS;
export const WORKFLOW_KEYS = Object.keys(WORKFLOWS) as WorkflowKey[];

export function isWorkflowKey(key: string): key is WorkflowKey {
	return Object.prototype.hasOwnProperty.call(WORKFLOWS, key);
}

function checkOf(field: InputField): Check {
	const base: Record<FieldType, Check> = {
		string: isString,
		number: isNumber({ min: field.minimum, max: field.maximum }),
		uri: isUri,
		'string[]': isArrayOf(isString),
		'uri[]': isArrayOf(isUri),
	};
	return field.enum ? all(base[field.type], isOneOf(...field.enum)) : base[field.type];
}

/** The checks of a workflow's input (a missing prompt is 400 invalid_prompt, as for every prompt). */
export function workflowInputChecks(key: WorkflowKey): ParamSet {
	return Object.fromEntries(
		Object.entries(WORKFLOWS[key].inputs).map(([name, field]): [string, Param] => [
			name,
			{
				check: checkOf(field),
				...(field.required ? { required: name === 'prompt' ? 'prompt' : true } : {}),
				...(field.type.startsWith('uri') ? { fetches: true as const } : {}),
			},
		]),
	);
}

function schemaOf(field: InputField): Record<string, unknown> {
	switch (field.type) {
		case 'uri':
			return { type: 'string', format: 'uri' };
		case 'uri[]':
			return { type: 'array', items: { type: 'string', format: 'uri' } };
		case 'string[]':
			return { type: 'array', items: { type: 'string' } };
		case 'number':
			return {
				type: 'number',
				...(field.minimum !== undefined ? { minimum: field.minimum } : {}),
				...(field.maximum !== undefined ? { maximum: field.maximum } : {}),
			};
		default:
			return { type: 'string', ...(field.enum ? { enum: field.enum } : {}) };
	}
}

/** The Workflow resource (API document): input_schema and output_schema as JSON Schema. */
export function workflowResource(key: WorkflowKey): Record<string, unknown> {
	const workflow = WORKFLOWS[key];
	const inputs = Object.entries(workflow.inputs);
	return {
		id: key,
		object: 'workflow',
		name: workflow.name,
		description: workflow.description,
		status: 'available',
		input_schema: {
			type: 'object',
			properties: Object.fromEntries(inputs.map(([name, field]) => [name, schemaOf(field)])),
			required: inputs.filter(([, field]) => field.required).map(([name]) => name),
			additionalProperties: false,
		},
		output_schema: { type: 'object', properties: workflow.outputs },
	};
}
