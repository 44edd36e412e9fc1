import type { FieldSpec } from '../catalog';

/** n8n parameter name of an API field: image_url -> imageUrl. */
export function paramName(field: Pick<FieldSpec, 'name' | 'param'>): string {
	return field.param ?? field.name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export const binaryParam = (field: FieldSpec): string => `${paramName(field)}BinaryProperty`;
export const sourceParam = (field: FieldSpec): string => `${paramName(field)}Source`;

/** loadOptions method that lists a model limit's choices, e.g. choicesFor_aspect_ratios. */
export function choicesMethod(keys: string[]): string {
	return `choicesFor_${keys.join('_or_')}`;
}

/** loadOptions method that lists the elements of a list endpoint, e.g. listFrom_audio_voices. */
export function listMethod(path: string): string {
	return `listFrom${path.replace(/[^a-z0-9]+/gi, '_')}`;
}

export const DYNAMIC_OPTIONS_DESCRIPTION =
	'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>';
