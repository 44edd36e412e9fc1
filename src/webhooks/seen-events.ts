import type { IDataObject } from 'n8n-workflow';

/**
 * "Ignore Repeated Events": which event ids already started the workflow.
 *
 * Time, not a count, decides how long an id is kept: an event older than Reject Events Older Than
 * is refused as stale anyway, so an id is remembered until its signed `created_at` is that old
 * (plus a minute), and no id inside that window is ever dropped to make room: every replay is then
 * either stale or remembered, whatever the traffic. The memory is bounded all the same (the static
 * data n8n saves with every delivery): when the window holds MAX_REMEMBERED_EVENTS ids, a new event
 * is refused, not remembered at the cost of an older one (the receiver answers 503 and the service
 * delivers it again later, when ids have aged out). With no age limit (0) nothing ever goes stale:
 * the last MAX_REMEMBERED_EVENTS ids are kept, the first to come dropped first, and a replay of an
 * older one is accepted (docs/security.md says so).
 *
 * n8n loads a workflow's static data for each webhook request and saves it whole after the node
 * answered (n8n 2.41.1: LiveWebhooks.executeWebhook → WorkflowStaticDataService.saveStaticData),
 * so two deliveries handled at the same time each save their own copy and the later one drops the
 * id the earlier one added. The ids are therefore also kept in this process: a delivery checks
 * both, claims its id here before anything it awaits (a second copy arriving while the first still
 * downloads finds it), and writes everything this process knows into the static data it saves.
 */

/**
 * About 40 bytes each in the static data (~200 kB when full), reached at the default 5-minute window
 * only above ~14 events a second. Each delivery reads and writes the whole memory (the static data
 * is one object n8n saves whole): measured on this 2-core machine under load, ~9 ms per pass at
 * 10,000 ids, two passes a delivery; the bound keeps that near 10 ms.
 */
export const MAX_REMEMBERED_EVENTS = 5_000;
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

/** Keeps this process's ids of a place (at most PLACES_KEPT places, the first to come dropped first). */
function keepHere(place: string, seen: Seen): void {
	if (!seenHere.has(place) && seenHere.size >= PLACES_KEPT)
		seenHere.delete(seenHere.keys().next().value!);
	seenHere.set(place, seen);
}

/**
 * The ids in the static data and in this process, in the order they came: every id of the age
 * window (never cut to a count), or with no age limit the last MAX_REMEMBERED_EVENTS. Ids of the
 * earlier layout count as seen now. One pass over each source: it runs for every delivery.
 */
function remembered(data: SeenEventsData, place: string, window: SeenWindow): Seen {
	const oldest =
		window.maxAgeMinutes > 0 ? window.now - window.maxAgeMinutes * 60_000 - MARGIN_MS : -Infinity;
	const all: Seen = new Map();
	if (Array.isArray(data.recentEventIds))
		for (const id of data.recentEventIds) if (typeof id === 'string') all.set(id, window.now);
	const stored = data.seenEvents;
	if (stored && typeof stored === 'object' && !Array.isArray(stored)) {
		for (const id of Object.keys(stored)) {
			const at = stored[id];
			if (typeof at === 'number' && Number.isFinite(at) && at >= oldest && !all.has(id))
				all.set(id, at);
		}
	}
	for (const [id, at] of seenHere.get(place) ?? [])
		if (at >= oldest && !all.has(id)) all.set(id, at);
	if (window.maxAgeMinutes <= 0)
		for (const id of all.keys()) {
			if (all.size <= MAX_REMEMBERED_EVENTS) break;
			all.delete(id);
		}
	return all;
}

/** Keeps `seen` here and writes it into the static data n8n saves after this delivery (a new object, so n8n sees the change). */
function write(data: SeenEventsData, place: string, seen: Seen): void {
	keepHere(place, seen);
	data.seenEvents = Object.fromEntries(seen);
	if (data.recentEventIds !== undefined) delete data.recentEventIds;
}

/** Writes what is remembered into the static data n8n saves after this delivery. */
export function saveSeenEvents(data: SeenEventsData, place: string, window: SeenWindow): void {
	write(data, place, remembered(data, place, window));
}

/**
 * What became of a delivery's claim: `claimed` (a new event: start the workflow), `repeated` (seen
 * in the static data or by this process) or `full` (the age window holds MAX_REMEMBERED_EVENTS ids:
 * refused, so that no remembered id is dropped).
 */
export type EventClaim = 'claimed' | 'repeated' | 'full';

/**
 * Claims an event id for the delivery in hand. Synchronous on purpose: nothing can run between the
 * check and the claim.
 */
export function claimEvent(
	data: SeenEventsData,
	place: string,
	eventId: string,
	createdAt: string,
	window: SeenWindow,
): EventClaim {
	const seen = remembered(data, place, window);
	if (seen.has(eventId)) return 'repeated';
	if (window.maxAgeMinutes > 0 && seen.size >= MAX_REMEMBERED_EVENTS) return 'full';
	const at = Date.parse(createdAt);
	seen.set(eventId, Number.isFinite(at) ? at : window.now);
	write(data, place, seen);
	return 'claimed';
}
