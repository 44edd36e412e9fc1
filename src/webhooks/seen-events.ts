import type { IDataObject } from 'n8n-workflow';

/**
 * "Ignore Repeated Events": which event ids already started the workflow.
 *
 * Time, not a count, decides how long an id is kept: an event older than Reject Events Older Than
 * is refused as stale anyway, so an id is remembered until its signed `created_at` is that old
 * (plus a minute): every replay is then either stale or remembered. With no age limit (0) the
 * last MAX_REMEMBERED_EVENTS are kept. At most MAX_REMEMBERED_EVENTS in any case, the first to
 * come dropped first (the static data n8n saves with every delivery stays under ~50 kB).
 *
 * n8n loads a workflow's static data for each webhook request and saves it whole after the node
 * answered (n8n 2.41.1: LiveWebhooks.executeWebhook → WorkflowStaticDataService.saveStaticData),
 * so two deliveries handled at the same time each save their own copy and the later one drops the
 * id the earlier one added. The ids are therefore also kept in this process: a delivery checks
 * both, claims its id here before anything it awaits (a second copy arriving while the first still
 * downloads finds it), and writes everything this process knows into the static data it saves.
 */

export const MAX_REMEMBERED_EVENTS = 1000;
/** How long after an event became stale its id is still kept (clocks read at slightly different times). */
const MARGIN_MS = 60_000;
const PLACES_KEPT = 200;

/** Event id → its signed `created_at` (ms since epoch). */
type Seen = Map<string, number>;

/** What this process remembers, by workflow and node. */
const seenHere = new Map<string, Seen>();

export interface SeenWindow {
	/** Reject Events Older Than, in minutes (0: any age) */
	maxAgeMinutes: number;
	now: number;
}

/** The trigger node's static data fields this module owns. */
export interface SeenEventsData extends IDataObject {
	/** event id → signed created_at in ms, in the order the events came */
	seenEvents?: IDataObject;
	/** what versions before issue 24 kept: the last 200 ids, newest last */
	recentEventIds?: string[];
}

function pruned(seen: Seen, window: SeenWindow): Seen {
	const oldest =
		window.maxAgeMinutes > 0 ? window.now - window.maxAgeMinutes * 60_000 - MARGIN_MS : -Infinity;
	const kept = [...seen].filter(([, at]) => at >= oldest);
	return new Map(kept.slice(-MAX_REMEMBERED_EVENTS));
}

function placeMemory(place: string): Seen {
	let seen = seenHere.get(place);
	if (!seen) {
		if (seenHere.size >= PLACES_KEPT) seenHere.delete(seenHere.keys().next().value!);
		seen = new Map();
		seenHere.set(place, seen);
	}
	return seen;
}

/** The ids in the static data and in this process, in the order they came. Ids of the earlier layout count as seen now. */
function remembered(data: SeenEventsData, place: string, window: SeenWindow): Seen {
	const all: Seen = new Map();
	if (Array.isArray(data.recentEventIds))
		for (const id of data.recentEventIds) if (typeof id === 'string') all.set(id, window.now);
	const stored = data.seenEvents;
	if (stored && typeof stored === 'object' && !Array.isArray(stored)) {
		for (const [id, at] of Object.entries(stored))
			if (typeof at === 'number' && Number.isFinite(at) && !all.has(id)) all.set(id, at);
	}
	for (const [id, at] of seenHere.get(place) ?? []) if (!all.has(id)) all.set(id, at);
	return pruned(all, window);
}

/** Writes what is remembered into the static data n8n saves after this delivery (a new object, so n8n sees the change). */
export function saveSeenEvents(data: SeenEventsData, place: string, window: SeenWindow): void {
	const all = remembered(data, place, window);
	seenHere.set(place, all);
	data.seenEvents = Object.fromEntries(all);
	if (data.recentEventIds !== undefined) delete data.recentEventIds;
}

/**
 * Claims an event id for the delivery in hand: false when it was seen (in the static data or by
 * this process). Synchronous on purpose: nothing can run between the check and the claim.
 */
export function claimEvent(
	data: SeenEventsData,
	place: string,
	eventId: string,
	createdAt: string,
	window: SeenWindow,
): boolean {
	if (remembered(data, place, window).has(eventId)) return false;
	const at = Date.parse(createdAt);
	placeMemory(place).set(eventId, Number.isFinite(at) ? at : window.now);
	saveSeenEvents(data, place, window);
	return true;
}
