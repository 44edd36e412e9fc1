import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeExecutionData,
	IPollFunctions,
} from 'n8n-workflow';

import { apiRequest, createClient, type ApiClient } from '../transport/request';
import { isEventType, type EventType, type WebhookEvent } from './events';
import { eventItem, ignoredBecause, type TriggerOptions } from './receive';
import { events as startOn, TRIGGER_OPTIONS_COLLECTION } from './trigger-options';
import { triggerCredentialType } from './trigger-secret';

/**
 * Events without inbound connections: the MediaGen Polling Trigger reads the account's runs and
 * batches on n8n's Poll Times and starts the workflow with one item per run or batch that finished
 * since the last poll, shaped as the webhook trigger's event items.
 *
 * The lists are newest first (`GET /runs`, `GET /batches`, by creation; `limit` and `starting_after`,
 * decisions.md). What the node keeps between polls, per kind, in its node static data (n8n saves it
 * with the execution a poll starts; a poll that starts none changes nothing n8n keeps, so after a
 * restart the same window is read again):
 * - `newest`: the id of the newest run it has seen: runs above it on the list are new;
 * - `pending`: the ids of runs it saw unfinished: each is looked for until it finished.
 * A run is passed on when it is first seen finished (new and finished, or pending and now finished),
 * then dropped from the cursor, so it is passed on once.
 */
export interface PollCursor {
	newest?: string;
	pending: string[];
}

export interface PollStaticData extends IDataObject {
	runs?: PollCursor;
	batches?: PollCursor;
}

type Kind = 'run' | 'batch';

const PATHS: Record<Kind, string> = { run: '/runs', batch: '/batches' };
const PAGE_SIZE = 100;
/**
 * Pages read per kind and poll (100 each): the runs made between two polls, then further down for
 * pending runs. A pending run not met by then is read alone (`GET /runs/{id}`), at most
 * SINGLE_READS a poll; the others wait for the next poll.
 */
export const MAX_PAGES = 20;
const SINGLE_READS = 50;
/** Unfinished runs followed at most (the node static data stays small); the oldest are dropped beyond. */
export const MAX_PENDING = 1000;

/** The run or batch states after which nothing changes (a batch that ends partial sends no event). */
function isFinished(kind: Kind, subject: IDataObject): boolean {
	const status = subject.status;
	return (
		status === 'completed' || status === 'failed' || (kind === 'batch' && status === 'partial')
	);
}

/** The event the webhook trigger would have received for a finished subject, or undefined (a partial batch: none). */
function eventTypeOf(kind: Kind, subject: IDataObject): EventType | undefined {
	const type = `${kind}.${String(subject.status)}`;
	return isEventType(type) ? type : undefined;
}

function finishedAt(subject: IDataObject): number {
	const at = Date.parse(
		String(subject.completed_at ?? subject.updated_at ?? subject.created_at ?? ''),
	);
	return Number.isFinite(at) ? at : 0;
}

async function readPage(
	client: ApiClient,
	kind: Kind,
	after: string | undefined,
	pageSize = PAGE_SIZE,
): Promise<{ data: IDataObject[]; hasMore: boolean }> {
	const { body } = await apiRequest<{ data?: IDataObject[]; has_more?: boolean }>(client, {
		method: 'GET',
		path: PATHS[kind],
		qs: { limit: pageSize, ...(after ? { starting_after: after } : {}) },
	});
	const data = Array.isArray(body?.data) ? body.data.filter((s) => typeof s.id === 'string') : [];
	return { data, hasMore: body?.has_more === true };
}

/**
 * One poll of one kind: the subjects that finished since the cursor, oldest finish first, and the
 * cursor to keep (`pageSize`: the list's page size; tests use small pages). Without a cursor (the first poll) nothing is passed on: the unfinished subjects
 * on the first page are followed from now on.
 */
export async function pollFinished(
	client: ApiClient,
	kind: Kind,
	cursor: PollCursor | undefined,
	pageSize = PAGE_SIZE,
): Promise<{ finished: IDataObject[]; cursor: PollCursor }> {
	const pending = new Set(cursor?.pending ?? []);
	const finished: IDataObject[] = [];
	let newest: string | undefined;
	// no cursor: the first poll (a baseline); a cursor without newest: the list was empty, all is new
	let pastMarker = cursor === undefined;
	const met = new Set<string>();
	let after: string | undefined;
	for (let page = 0; page < (cursor ? MAX_PAGES : 1); page++) {
		const { data, hasMore } = await readPage(client, kind, after, pageSize);
		for (const subject of data) {
			const id = subject.id as string;
			newest ??= id;
			met.add(id);
			if (id === cursor?.newest) pastMarker = true;
			const done = isFinished(kind, subject);
			if (!pastMarker) {
				// made since the last poll
				if (done) finished.push(subject);
				else pending.add(id);
			} else if (pending.has(id) && done) {
				if (cursor) finished.push(subject);
				pending.delete(id);
			} else if (!cursor && !done) {
				pending.add(id);
			}
		}
		after = data.at(-1)?.id as string | undefined;
		const lookingForPending = cursor?.pending.some((id) => !met.has(id)) ?? false;
		if (!hasMore || !after || !cursor || (pastMarker && !lookingForPending)) break;
	}
	// pending runs the pages did not reach: read one by one
	const unread = cursor ? cursor.pending.filter((id) => !met.has(id)) : [];
	for (const id of unread.slice(0, SINGLE_READS)) {
		const { body } = await apiRequest<IDataObject>(client, {
			method: 'GET',
			path: `${PATHS[kind]}/${encodeURIComponent(id)}`,
		});
		if (body && isFinished(kind, body)) {
			finished.push(body);
			pending.delete(id);
		}
	}
	const kept = [...pending].slice(-MAX_PENDING);
	finished.sort((a, b) => finishedAt(a) - finishedAt(b));
	return { finished, cursor: { newest: newest ?? cursor?.newest, pending: kept } };
}

function pollEvent(kind: Kind, subject: IDataObject): WebhookEvent | undefined {
	const type = eventTypeOf(kind, subject);
	if (!type) return undefined;
	const at = finishedAt(subject);
	return {
		id: '',
		object: 'event',
		type,
		created_at: at ? new Date(at).toISOString() : '',
		data: { object: subject },
	};
}

/** The item of a finished subject, as the webhook trigger gives it; no event exists when polling (event_id null). */
async function itemOf(
	ctx: IPollFunctions,
	event: WebhookEvent,
	options: TriggerOptions,
): Promise<INodeExecutionData> {
	const item = await eventItem(ctx, event, undefined, options, '');
	item.json.event_id = null;
	return item;
}

/**
 * The poll: the workflow starts with one item per run or batch that finished since the last poll
 * and matches Start On and the filters (null when none did). Test runs (Fetch Test Event) pass on
 * the latest finished one and keep no cursor.
 */
export async function pollEvents(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const type = triggerCredentialType(ctx);
	const credentials = await ctx.getCredentials<ICredentialDataDecryptedObject>(type);
	const client = await createClient(ctx, type, credentials);
	const options = ctx.getNodeParameter(TRIGGER_OPTIONS_COLLECTION, {}) as TriggerOptions;
	const selected = startOn
		.read((name, fallback) => ctx.getNodeParameter(name, fallback))
		.filter(isEventType);
	const kinds = (['run', 'batch'] as Kind[]).filter((kind) =>
		selected.some((e) => e.startsWith(`${kind}.`)),
	);
	const wanted = (event: WebhookEvent | undefined): event is WebhookEvent =>
		event !== undefined && ignoredBecause(ctx, event, options) === undefined;

	if (ctx.getMode() === 'manual') {
		const latest: WebhookEvent[] = [];
		for (const kind of kinds) {
			const { data } = await readPage(client, kind, undefined);
			const event = data
				.map((s) => (isFinished(kind, s) ? pollEvent(kind, s) : undefined))
				.find(wanted);
			if (event) latest.push(event);
		}
		const last = latest.sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))[0];
		return last ? [[await itemOf(ctx, last, options)]] : null;
	}

	const data = ctx.getWorkflowStaticData('node') as PollStaticData;
	const events: WebhookEvent[] = [];
	for (const kind of kinds) {
		const key = kind === 'run' ? 'runs' : 'batches';
		const { finished, cursor } = await pollFinished(client, kind, data[key]);
		data[key] = cursor;
		events.push(...finished.map((s) => pollEvent(kind, s)).filter(wanted));
	}
	if (events.length === 0) return null;
	events.sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
	const items: INodeExecutionData[] = [];
	for (const event of events) items.push(await itemOf(ctx, event, options));
	return [items];
}
