import type { FieldSpec } from '../../catalog';

const camelCased = new Map<string, string>();

/** n8n parameter name of an API field: image_url -> imageUrl. */
export function paramName(field: Pick<FieldSpec, 'name' | 'param'>): string {
	if (field.param) return field.param;
	// read for every field of every item: memoized, the regex showed in profiles of many items
	let name = camelCased.get(field.name);
	if (name === undefined) {
		name = field.name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
		camelCased.set(field.name, name);
	}
	return name;
}

export const binaryParam = (field: FieldSpec): string => `${paramName(field)}BinaryProperty`;
export const sourceParam = (field: FieldSpec): string => `${paramName(field)}Source`;

/**
 * loadOptions method that lists a field's choices from the selected model's limits, e.g.
 * choicesFor_aspectRatio. One method per parameter, so it knows which value to re-check.
 */
export function choicesMethod(field: Pick<FieldSpec, 'name'>): string {
	return `choicesFor_${paramName(field)}`;
}

/** listSearch method that lists the elements of a list endpoint, e.g. listFrom_audio_voices. */
export function listMethod(path: string): string {
	return `listFrom${path.replace(/[^a-z0-9]+/gi, '_')}`;
}

/** listSearch method of the Model resource locator. */
export const MODEL_SEARCH_METHOD = 'searchModels';

/** What a dropdown of values says it offers: the list, or any value through an expression. */
export const DYNAMIC_CHOICES_DESCRIPTION =
	'Choose from the list, or set a value with an <a href="https://docs.n8n.io/code/expressions/">expression</a>';
