import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { fieldLocation, type FieldSpec } from '../catalog';
import {
	checkCapability,
	checkFileLimits,
	checkLimit,
	checkStaticBounds,
	type LimitViolation,
} from '../models/limits';
import { defaultModel, modelName, modelsForCapability, type Model } from '../models/model-catalog';
import type { PreparedCall } from './call';
import { NOTHING_SPENT } from '../options/nothing-spent';
import { checkWorkflowInputs } from './workflow-inputs';

function describeValue(value: unknown): string {
	if (typeof value === 'string') return `"${value}"`;
	return typeof value === 'number' && !Number.isFinite(value)
		? String(value)
		: JSON.stringify(value);
}

/** The API names behind a message, for people who read the API document. */
const apiNames = (fields: FieldSpec[], modelLimit?: string) =>
	`API field ${fields.map((f) => f.name).join(', ')}${modelLimit ? `; model ${modelLimit.startsWith('capability ') ? modelLimit : `limit ${modelLimit}`}` : ''}.`;

function violationError(
	ctx: IExecuteFunctions,
	call: PreparedCall,
	v: LimitViolation,
	model?: Model,
): NodeOperationError {
	const by =
		model && v.modelLimit
			? ` by the model ${modelName(model) === model.id ? model.id : `${modelName(model)} (${model.id})`}`
			: '';
	return new NodeOperationError(
		ctx.getNode(),
		`${v.field.displayName}: ${describeValue(v.value)} is not allowed${by}; allowed: ${v.allowed}`,
		{
			itemIndex: call.itemIndex,
			description: `${NOTHING_SPENT} ${apiNames([v.field], v.modelLimit)}`,
		},
	);
}

/**
 * Checks a prepared call against the catalog's fixed bounds and the selected model's `limits`
 * (the default model of the capability when none is chosen). Throws before anything is sent.
 */
export function validateCall(
	ctx: IExecuteFunctions,
	call: PreparedCall,
	models: Model[] | undefined,
): Model | undefined {
	const { endpoint } = call;
	let model: Model | undefined;
	if (endpoint.capability && models) {
		const candidates = modelsForCapability(models, endpoint.capability);
		const requested = call.body.model as string | undefined;
		model = requested
			? candidates.find((m) => m.id === requested)
			: defaultModel(models, endpoint.capability);
		// An alias the list does not show may be a superseded one pinned by the user, which the service
		// still accepts (document, Versioning): it is sent, unchecked. One the list knows for another
		// capability is refused here.
		const elsewhere = requested && !model ? models.find((m) => m.id === requested) : undefined;
		if (elsewhere) {
			const allowed = candidates.map((m) => m.id).join(', ') || 'none offered to this credential';
			const kind = endpoint.capability.replace(/_/g, ' ');
			throw new NodeOperationError(
				ctx.getNode(),
				`Model: "${requested}" is a ${elsewhere.capability.replace(/_/g, ' ')} model, not ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} model; allowed: ${allowed}`,
				{
					itemIndex: call.itemIndex,
					description: `Choose one from the Model list. ${NOTHING_SPENT} (API field model: an alias from GET /models.)`,
				},
			);
		}
	}
	if (endpoint.requireOneOf) {
		const fields = endpoint.fields.filter((f) => endpoint.requireOneOf!.includes(f.name));
		const present = fields.some((f) => {
			const value = (fieldLocation(endpoint, f) === 'query' ? call.qs : call.body)[f.name];
			return (
				value !== undefined &&
				value !== null &&
				value !== '' &&
				!(Array.isArray(value) && value.length === 0)
			);
		});
		if (!present) {
			const names = fields.map((f) => f.displayName).join(' or ');
			throw new NodeOperationError(ctx.getNode(), `${names}: one of them is required`, {
				itemIndex: call.itemIndex,
				description: `${NOTHING_SPENT} ${apiNames(fields)}`,
			});
		}
	}
	const workflowRun = /^\/workflows\/([^/]+)\/runs$/.exec(call.path);
	if (workflowRun && endpoint.fields.some((f) => f.spread))
		checkWorkflowInputs(ctx, call.itemIndex, decodeURIComponent(workflowRun[1]), call.body);
	for (const field of endpoint.fields) {
		const location = fieldLocation(endpoint, field);
		const source: IDataObject =
			location === 'query' ? call.qs : location === 'node' ? call.settings : call.body;
		const value = source[field.name];
		const violation =
			checkStaticBounds(field, value) ??
			checkCapability(field, value, model?.capabilities) ??
			checkLimit(field, value, model?.limits);
		if (violation) throw violationError(ctx, call, violation, model);
		if (field.fileLimits) {
			for (const placeholder of Array.isArray(value) ? value : [value]) {
				const input = call.uploads.find((u) => u.placeholder === placeholder)?.input;
				const tooBig = input && checkFileLimits(field, input, model?.limits);
				if (tooBig) throw violationError(ctx, call, tooBig, model);
			}
		}
	}
	return model;
}
