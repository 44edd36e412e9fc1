import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { listAll } from '../transport/paginate';
import { apiRequest, unexpectedResponse, type ApiClient } from '../transport/request';
import { forEachLimited } from '../runs/pool';
import { echoedRequest, estimateEcho, isPrice } from '../runs/quote';
import { creditsPerUnpricedItem } from './spend-options';
import { isBatch, listBatchItems } from '../runs/batches';
import { isRun, type Batch, type Run } from '../runs/run';

/**
 * Spending limits that hold across executions: the credential's Credit Limit per Day / per Month,
 * checked against the service's own ledger. decisions.md: `GET /usage` counts charged credits only
 * (runs by their `created_at`), not what runs still in flight have reserved, so the runs in flight
 * are read too (`GET /runs?status=queued|processing`) and priced, and so are the items of running
 * batches that have no run yet (`GET /batches`, then each one's items).
 */
export type Budget = 'per_execution' | 'per_day' | 'per_month';

/** The figures of one limit at the moment a node checks it. */
export interface BudgetFigures {
	budget: Budget;
	limit: number;
	/** charged by the service in the period (per execution: quoted by earlier runs of the node in this execution) */
	spent: number;
	/** reserved by runs in flight, created in the period (credential limits only) */
	in_flight: number;
	/** start of the period (UTC), for the credential limits */
	since?: string;
	/** runs in flight and queued batch items the node could not price (counted as 0) */
	unpriced_in_flight?: number;
	/** batch items still queued (no run yet) counted in `in_flight` */
	queued_batch_items?: number;
}

/** The start of the UTC day or month `now` is in. */
export function periodStart(budget: 'per_day' | 'per_month', now: Date): Date {
	return budget === 'per_day'
		? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
		: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** Credits the service charged since `start` (GET /usage; UsageSummary.totals.credits_spent). */
async function chargedSince(client: ApiClient, start: Date, itemIndex: number): Promise<number> {
	const { body } = await apiRequest<IDataObject>(client, {
		method: 'GET',
		path: '/usage',
		qs: { start: start.toISOString(), group_by: 'none' },
		itemIndex,
	});
	const totals = body?.totals as IDataObject | undefined;
	const spent = totals?.credits_spent;
	if (typeof spent !== 'number' || !Number.isFinite(spent))
		throw unexpectedResponse(
			client,
			'GET /usage did not return totals.credits_spent',
			body,
			itemIndex,
		);
	return spent;
}

/** What the service reports a run costs, where it reports it (not shown by the document; read defensively). */
function reportedCredits(run: Run): number | undefined {
	for (const value of [run.usage?.credits, run.usage?.credits_reserved, run.credits])
		if (isPrice(value)) return value;
	return undefined;
}

/**
 * The price of a run in flight: what the service reports on it, else an estimate of its model and
 * the inputs it echoes (`input_summary`) — the document shows no reserved amount on a run.
 */
async function priceInFlight(
	client: ApiClient,
	run: Run,
	itemIndex: number,
	estimates: Map<string, Promise<number | undefined>>,
): Promise<number | undefined> {
	const reported = reportedCredits(run);
	if (reported !== undefined) return reported;
	const body = echoedRequest(run.model, run.input_summary);
	if (!body) return undefined;
	// a batch's queued items often echo the same inputs: one estimate each, not one per item
	const key = JSON.stringify(body);
	if (!estimates.has(key)) estimates.set(key, estimateEcho(client, body, itemIndex));
	return await estimates.get(key)!;
}

const IN_FLIGHT_PRICING_CONCURRENCY = 5;
/** Runs in flight read per status (ten pages): a bound on what one check costs, also where a service ignores the filter. */
const MAX_IN_FLIGHT_READ = 1000;

/**
 * The items of batches still running that have no run yet (`run_id` null: queued in the batch), as
 * runs to price: their model and inputs are what the item echoes (`input_summary`). The service
 * will charge them, yet neither `GET /usage` nor `GET /runs` shows them. Items that have a run are
 * left out: their run is among the runs in flight.
 */
async function queuedBatchItemsSince(
	client: ApiClient,
	start: Date,
	itemIndex: number,
): Promise<Run[]> {
	const rows = await listAll(
		client,
		{ path: '/batches', itemIndex },
		{ returnAll: false, limit: MAX_IN_FLIGHT_READ },
	);
	const running = rows.filter(
		(row): row is Batch =>
			isBatch(row) && (row.status === 'queued' || row.status === 'processing') && since(row, start),
	);
	const queued: Run[] = [];
	for (const batch of running) {
		for (const item of await listBatchItems(client, batch.id, itemIndex)) {
			if (item.run_id || (item.status !== 'queued' && item.status !== 'processing')) continue;
			const summary = (
				item.input_summary && typeof item.input_summary === 'object' ? item.input_summary : {}
			) as IDataObject;
			queued.push({
				id: item.id,
				object: 'batch_item',
				status: item.status,
				model: typeof summary.model === 'string' ? summary.model : null,
				input_summary: summary,
				created_at: String(item.created_at ?? batch.created_at ?? ''),
			});
		}
	}
	return queued;
}

/** Whether a run or batch was created since `start` (one without a readable date counts). */
function since(row: IDataObject, start: Date): boolean {
	const created = Date.parse(String(row.created_at ?? ''));
	return Number.isNaN(created) || created >= start.getTime();
}

/** The runs in flight and the queued batch items created since `start`, and what they will cost. */
async function inFlightSince(
	client: ApiClient,
	start: Date,
	itemIndex: number,
): Promise<Array<{ run: Run; credits?: number }>> {
	const runs: Run[] = [];
	for (const status of ['queued', 'processing']) {
		const rows = await listAll(
			client,
			{ path: '/runs', qs: { status }, itemIndex },
			{ returnAll: false, limit: MAX_IN_FLIGHT_READ },
		);
		// a service that ignores the filter lists every run: keep those still in flight
		for (const row of rows) if (isRun(row) && row.status === status) runs.push(row);
	}
	const recent = [
		...runs.filter((run) => since(run, start)),
		...(await queuedBatchItemsSince(client, start, itemIndex)),
	];
	const priced: Array<{ run: Run; credits?: number }> = recent.map((run) => ({ run }));
	const estimates = new Map<string, Promise<number | undefined>>();
	await forEachLimited(priced, IN_FLIGHT_PRICING_CONCURRENCY, async (entry) => {
		entry.credits = await priceInFlight(client, entry.run, itemIndex, estimates);
	});
	return priced;
}

/**
 * The credential limits' figures now: runs in flight are read BEFORE the ledger, so a run that
 * completes in between is counted twice (never missed).
 */
export async function readCredentialBudgets(
	client: ApiClient,
	limits: { per_day?: number; per_month?: number },
	now: Date,
	itemIndex: number,
): Promise<BudgetFigures[]> {
	const active = (['per_day', 'per_month'] as const).filter(
		(budget) => limits[budget] !== undefined,
	);
	if (active.length === 0) return [];
	const earliest = periodStart(active.includes('per_month') ? 'per_month' : 'per_day', now);
	const inFlight = await inFlightSince(client, earliest, itemIndex);
	const figures: BudgetFigures[] = [];
	for (const budget of active) {
		const start = periodStart(budget, now);
		const inPeriod = inFlight.filter(({ run }) => since(run, start));
		const unpriced = inPeriod.filter((entry) => entry.credits === undefined).length;
		const queuedItems = inPeriod.filter(({ run }) => run.object === 'batch_item').length;
		figures.push({
			budget,
			limit: limits[budget]!,
			spent: await chargedSince(client, start, itemIndex),
			in_flight: inPeriod.reduce((sum, entry) => sum + (entry.credits ?? 0), 0),
			since: start.toISOString(),
			...(unpriced ? { unpriced_in_flight: unpriced } : {}),
			...(queuedItems ? { queued_batch_items: queuedItems } : {}),
		});
	}
	return figures;
}

const LABELS: Record<Budget, string> = {
	per_execution: 'Max Credits per Execution',
	per_day: 'Credit Limit per Day',
	per_month: 'Credit Limit per Month',
};

const round = (credits: number) => Math.round(credits * 100) / 100;

/** What a limit has left once `admitted` more credits are counted. */
export function remainingOf(figures: BudgetFigures, admitted: number): number {
	return round(figures.limit - figures.spent - figures.in_flight - admitted);
}

/**
 * The refusal of an item whose price would take a limit past its value: code `budget_exceeded`,
 * with what was spent, in flight and admitted before it, what it costs and the limit.
 */
export function budgetExceeded(
	ctx: IExecuteFunctions,
	itemIndex: number,
	figures: BudgetFigures,
	admitted: number,
	quoted: number | undefined,
): NodeOperationError {
	const label = LABELS[figures.budget];
	const used = round(figures.spent + figures.in_flight + admitted);
	const where =
		figures.budget === 'per_execution'
			? "this node's items in this execution"
			: `the account since ${figures.since!.slice(0, figures.budget === 'per_day' ? 10 : 7)} (UTC), runs in flight and queued batch items included`;
	const cost =
		quoted === undefined
			? `cannot be priced before it is sent and ${creditsPerUnpricedItem.displayName} is not set`
			: `costs ${quoted} credits`;
	const error = new NodeOperationError(
		ctx.getNode(),
		`${label}: this item ${cost}; ${where} already take ${used} of ${figures.limit}`,
		{
			itemIndex,
			description: `Nothing was submitted for this item: no run was created and no credits were spent. ${quoted === undefined ? `Set ${creditsPerUnpricedItem.displayName} (node option) to the most one such item may cost, so the limit can count it; or raise` : 'Raise'} ${label}${figures.budget === 'per_execution' ? ' (node option)' : ' (in the credential)'}, or wait for the next ${figures.budget === 'per_month' ? 'month' : figures.budget === 'per_day' ? 'day' : 'execution'}.`,
		},
	);
	error.context.problem = {
		code: 'budget_exceeded',
		budget: figures.budget,
		limit: figures.limit,
		spent: round(figures.spent),
		in_flight: round(figures.in_flight),
		admitted: round(admitted),
		quoted: quoted ?? null,
		remaining: remainingOf(figures, admitted),
		...(figures.since ? { since: figures.since } : {}),
		...(figures.unpriced_in_flight ? { unpriced_in_flight: figures.unpriced_in_flight } : {}),
		...(figures.queued_batch_items ? { queued_batch_items: figures.queued_batch_items } : {}),
	} as JsonObject;
	return error;
}
