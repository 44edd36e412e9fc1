import type { INodeProperties } from 'n8n-workflow';

import type { Endpoint, FieldSpec } from '../../catalog';
import { DEFAULT_BINARY_FIELD } from '../../outputs/output-options';
import { show, titleCase } from './display';
import {
	binaryParam,
	choicesMethod,
	DYNAMIC_CHOICES_DESCRIPTION,
	listMethod,
	paramName,
	sourceParam,
} from './param-names';

// An operation's API fields as n8n parameters: the required and primary ones at the top, the rest
// in Additional Fields; a media field as a URL or an input binary field to upload.

/** The collection that holds an operation's optional API fields. */
export const ADDITIONAL_FIELDS = 'additionalFields';

/**
 * A number the chosen model bounds (Count, Duration, Target Polycount…). The field itself cannot
 * show the bound: n8n 2.41 loads model-dependent text only for choice lists (loadOptions, list
 * search); a number's bounds, hints and notices are fixed in the description. The Model list's
 * lines carry each model's bounds (numberBounds), and the tooltip says where to look.
 */
const MODEL_BOUND_CHECK =
	'Each model’s line in the Model list gives its limit for this field where the model reports one (e.g. "Count 1–4"). The node checks the value against the chosen model before sending: a value the model does not allow stops the item, and nothing is charged.';

/** One field as an n8n parameter (without displayOptions). */
export function fieldProperty(field: FieldSpec, inCollection: boolean): INodeProperties {
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
				description: field.limit
					? [field.description?.replace(/\.?$/, '.'), MODEL_BOUND_CHECK].filter(Boolean).join(' ')
					: field.description,
				type: 'number',
				default: field.default ?? 0,
				typeOptions: {
					minValue: field.min,
					maxValue: field.max,
					numberPrecision: field.type === 'integer' ? 0 : 2,
				},
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
				options: [
					{
						name: 'values',
						displayName: field.itemName ?? 'Entry',
						values: (field.items ?? []).map((item) => fieldProperty(item, false)),
					},
				],
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
					typeOptions: {
						loadOptionsMethod: choicesMethod(field),
						loadOptionsDependsOn: ['model.value'],
					},
					default: field.type === 'options' ? '' : [],
					description: DYNAMIC_CHOICES_DESCRIPTION,
					hint: field.description,
				};
			}
			return {
				...base,
				type: field.type,
				options: (field.options ?? []).map((o) => ({
					name: titleCase(String(o.name)),
					value: o.value,
					description: o.description,
				})),
				default:
					field.default ?? (field.type === 'options' ? (field.options?.[0]?.value ?? '') : []),
			};
	}
}

/** Parameters of a media field: URL or input binary property (uploaded through /uploads). */
export function mediaProperties(
	field: FieldSpec,
	e: Endpoint,
	inCollection: boolean,
): INodeProperties[] {
	const binary: INodeProperties = {
		displayName: `${field.displayName} Binary Field${field.type === 'mediaList' ? 's' : ''}`,
		name: binaryParam(field),
		type: 'string',
		default: inCollection ? '' : DEFAULT_BINARY_FIELD,
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
		{
			...binary,
			required: field.required,
			displayOptions: show(e, { [sourceParam(field)]: ['binary'] }),
		},
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
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: listMethod(field.optionsFrom!.path), searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: `${field.displayName} ID` },
		],
	};
}

/** Additional Fields: an operation's optional API fields, alphabetically. */
export function additionalFieldsProperty(
	e: Endpoint,
	optional: FieldSpec[],
	displayOptions: INodeProperties['displayOptions'],
	order: (a: string, b: string) => number,
): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: ADDITIONAL_FIELDS,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions,
		options: optional
			.flatMap((f) =>
				f.type === 'media' || f.type === 'mediaList'
					? mediaProperties(f, e, true)
					: [fieldProperty(f, true)],
			)
			.sort((a, b) => order(a.displayName, b.displayName)),
	};
}
