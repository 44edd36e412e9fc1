import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { BooleanOption, NumberOption, type RefusalContext } from '../options/option';

// The paging options of a list operation: everything, or up to a limit.

export const returnAll = new BooleanOption({
	name: 'returnAll',
	displayName: 'Return All',
	description: 'Whether to return all results or only up to a given limit',
	default: false,
	changesRequest: true,
});

export const limit = new NumberOption({
	name: 'limit',
	displayName: 'Limit',
	description: 'Max number of results to return',
	default: 50,
	min: 1,
	max: 1_000_000,
	changesRequest: true,
});

/** Every option this module defines. */
export const LIST_OPTIONS = [returnAll, limit];

/** Return All, then Limit while Return All is off; `own` gives the operation's displayOptions. */
export function listOptionProperties(
	own: (extra?: Record<string, unknown[]>) => INodeProperties['displayOptions'],
): INodeProperties[] {
	return [
		returnAll.property({ displayOptions: own() }),
		limit.property({ displayOptions: own({ [returnAll.name]: [false] }) }),
	];
}

/** How much of a list an item asks for; `get` reads a top-level parameter for the item. */
export function listSettingsOf(
	ctx: RefusalContext,
	itemIndex: number,
	get: (name: string, fallback: unknown) => unknown,
): { returnAll: boolean; limit: number } {
	const values: IDataObject = {
		[returnAll.name]: get(returnAll.name, false) as IDataObject[string],
		[limit.name]: get(limit.name, limit.spec.default) as IDataObject[string],
	};
	return {
		returnAll: returnAll.read(values),
		limit: Math.round(limit.read(ctx, itemIndex, values)),
	};
}
