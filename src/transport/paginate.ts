import type { IDataObject } from 'n8n-workflow';

import { apiRequest, type ApiClient, type ApiRequest } from './request';

const PAGE_SIZE = 100;

/**
 * Reads a list endpoint page by page (`limit` + `starting_after`, per decisions.md) until it has
 * `limit` elements or `has_more` is false. Tolerates a list without `has_more` (one page).
 */
export async function listAll(
	client: ApiClient,
	request: Omit<ApiRequest, 'method'>,
	options: { returnAll: boolean; limit: number },
): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	let startingAfter: string | undefined;
	for (;;) {
		const wanted = options.returnAll
			? PAGE_SIZE
			: Math.min(PAGE_SIZE, options.limit - results.length);
		const { body } = await apiRequest<{ data?: IDataObject[]; has_more?: boolean } | IDataObject[]>(
			client,
			{
				...request,
				method: 'GET',
				qs: {
					...request.qs,
					limit: wanted,
					...(startingAfter ? { starting_after: startingAfter } : {}),
				},
			},
		);
		const data = Array.isArray(body) ? body : Array.isArray(body.data) ? body.data : [];
		results.push(...data);
		if (!options.returnAll && results.length >= options.limit)
			return results.slice(0, options.limit);
		const hasMore = !Array.isArray(body) && body.has_more === true;
		const lastId = data[data.length - 1]?.id;
		if (!hasMore || data.length === 0 || typeof lastId !== 'string') return results;
		startingAfter = lastId;
	}
}
