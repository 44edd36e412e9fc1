import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { hintFor } from '../transport/hints';
import { problemOf } from '../transport/problem';
import type { SecretValues } from '../transport/redact';

/** What the node does with an item's error: throw it, or an error item (Continue On Fail). */
export type FailItem = (itemIndex: number, error: unknown) => void;

const PROBLEM_FIELDS = [
	'code',
	'status',
	'title',
	'detail',
	'request_id',
	'param',
	'required_scope',
	'run_id',
	'run_status',
	'batch_id',
	'quote',
];
/** The figures of a refusal on money grounds: Max Credits, a budget, a job named twice. */
const SPEND_FIELDS = [
	'credits',
	'max_credits',
	'budget',
	'limit',
	'spent',
	'in_flight',
	'admitted',
	'quoted',
	'remaining',
	'since',
	'unpriced_in_flight',
	'queued_batch_items',
	'job',
	'items',
];

/**
 * The item Continue On Fail emits: the message plus the problem's code, status, request id, what to
 * do about it (hint) and, after a stale quote, the fresh quote the service offered — with every
 * secret of the credential in use redacted (whatever the service echoed).
 */
export function errorItem(
	error: unknown,
	itemIndex: number,
	secrets: SecretValues,
): INodeExecutionData {
	const problem = problemOf(error);
	const json: IDataObject = { error: error instanceof Error ? error.message : String(error) };
	if (problem) {
		for (const key of [...PROBLEM_FIELDS, ...SPEND_FIELDS]) {
			if (problem[key] !== undefined) json[key] = problem[key] as IDataObject[string];
		}
		const hint = hintFor(problem.code);
		if (hint) json.hint = hint;
	}
	const description = (error as { description?: unknown })?.description;
	if (typeof description === 'string' && description) json.description = description;
	return { json: secrets.value(json), pairedItem: { item: itemIndex } };
}
