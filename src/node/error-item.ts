import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { problemOf } from '../transport/problem';

/** The item Continue On Fail emits: the message plus the problem's code, status and request id. */
export function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const problem = problemOf(error);
	const json: IDataObject = { error: error instanceof Error ? error.message : String(error) };
	if (problem) {
		for (const key of ['code', 'status', 'title', 'detail', 'request_id', 'param', 'required_scope', 'run_id']) {
			if (problem[key] !== undefined) json[key] = problem[key] as IDataObject[string];
		}
	}
	const description = (error as { description?: unknown })?.description;
	if (typeof description === 'string' && description) json.description = description;
	return { json, pairedItem: { item: itemIndex } };
}
