import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import type { FieldSpec } from '../catalog';
import { WORKFLOW_INPUT_FIELDS, WORKFLOW_KEYS, type WorkflowKey } from '../catalog/workflows';
import { checkStaticBounds } from '../models/limits';
import { NOTHING_SPENT } from '../options/nothing-spent';

function isWorkflowKey(value: string): value is WorkflowKey {
	return (WORKFLOW_KEYS as readonly string[]).includes(value);
}

const isUrl = (v: unknown) => typeof v === 'string' && /^https?:\/\/[^\s/]+/i.test(v);

/** Why one input value does not fit its field, or undefined. */
function misfit(field: FieldSpec, value: unknown): string | undefined {
	switch (field.type) {
		case 'options': {
			const allowed = (field.options ?? []).map((o) => o.value).filter((v) => v !== '');
			return allowed.includes(value as string) ? undefined : `one of ${allowed.join(', ')}`;
		}
		case 'stringList':
			return Array.isArray(value) && value.every((v) => typeof v === 'string')
				? undefined
				: 'a list of strings';
		case 'mediaList':
			return Array.isArray(value) && value.every(isUrl)
				? undefined
				: 'a list of http:// or https:// URLs';
		case 'number':
		case 'integer':
			return checkStaticBounds(field, value)?.allowed;
		default:
			if (typeof value !== 'string') return 'a string';
			return checkStaticBounds(field, value)?.allowed;
	}
}

/**
 * Checks inputs given as JSON (Run Any Workflow, batch items in workflow mode) against the
 * workflow's inputs in the API document's Workflow table, as the typed operations are checked:
 * required fields, enumerations (tone, length, aspect ratio), number ranges (variant_count 1 to 5),
 * URLs; a field the workflow does not take is refused too. Nothing is sent when one does not fit.
 */
export function checkWorkflowInputs(
	ctx: IExecuteFunctions,
	itemIndex: number,
	key: string,
	inputs: IDataObject,
	where = 'Inputs',
): void {
	if (!isWorkflowKey(key)) return;
	const fields = WORKFLOW_INPUT_FIELDS[key].filter((f) => f.in !== 'node');
	const refuse = (message: string) =>
		new NodeOperationError(ctx.getNode(), `${where}: ${message}`, {
			itemIndex,
			description: `Workflow ${key} takes: ${fields.map((f) => f.name).join(', ')}. ${NOTHING_SPENT}`,
		});
	for (const name of Object.keys(inputs)) {
		if (!fields.some((f) => f.name === name))
			throw refuse(
				`"${name}" is not an input of ${key}; allowed: ${fields.map((f) => f.name).join(', ')}`,
			);
	}
	for (const field of fields) {
		const value = inputs[field.name];
		if (value === undefined || value === null || value === '') {
			if (field.required) throw refuse(`${field.name} is required by ${key}`);
			continue;
		}
		const allowed = misfit(field, value);
		if (allowed)
			throw refuse(`${field.name}: ${JSON.stringify(value)} is not allowed; allowed: ${allowed}`);
	}
}
