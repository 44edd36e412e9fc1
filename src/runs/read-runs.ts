import type { IDataObject } from 'n8n-workflow';

import { apiRequest, type ApiClient } from '../transport/request';
import { isRun, type Run } from './run';

/** `GET /runs` page size (decisions.md: limit 1..100). */
const PAGE = 100;
/** Pages read before the runs not seen yet are read one by one (other traffic pushed them back). */
const MAX_PAGES = 10;
/** Runs read one by one at most in one call; the rest count as unread. */
const MAX_OWN_READS = 10;

/**
 * The current state of some runs, read once: pages of `GET /runs` (newest first) until every one
 * was seen, then the few still unseen one by one. Runs it could not read are missing from the
 * answer. No waiting: a paused execution reads its runs this way when an event arrives.
 */
export async function readRunsOnce(client: ApiClient, ids: string[]): Promise<Map<string, Run>> {
	const wanted = new Set(ids);
	const found = new Map<string, Run>();
	let after: string | undefined;
	for (let page = 0; page < MAX_PAGES && found.size < wanted.size; page++) {
		const { body } = await apiRequest<{ data?: unknown[]; has_more?: boolean }>(client, {
			method: 'GET',
			path: '/runs',
			qs: { limit: PAGE, ...(after ? { starting_after: after } : {}) } as IDataObject,
		});
		const rows = Array.isArray(body.data) ? body.data.filter(isRun) : [];
		for (const run of rows) if (wanted.has(run.id)) found.set(run.id, run);
		if (body.has_more !== true || rows.length === 0) break;
		after = rows[rows.length - 1].id;
	}
	const unseen = [...wanted].filter((id) => !found.has(id)).slice(0, MAX_OWN_READS);
	for (const id of unseen) {
		const { body } = await apiRequest<unknown>(client, {
			method: 'GET',
			path: `/runs/${encodeURIComponent(id)}`,
		});
		if (isRun(body)) found.set(id, body);
	}
	return found;
}
