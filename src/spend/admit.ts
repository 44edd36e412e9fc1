import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	budgetExceeded,
	readCredentialBudgets,
	remainingOf,
	type Budget,
	type BudgetFigures,
} from './budget';
import { spendsCredits } from '../catalog';
import type { PreparedCall } from '../runs/call';
import { isPriceable } from './cost';
import { creditsOption } from './spend-options';
import { bindQuote, quoteBatchItem, quoteCall, quoteRerun } from '../runs/quote';
import { createBatchFromItems } from '../runs/batches';
import { forEachLimited } from '../runs/pool';
import { uploadPending } from '../runs/submit';
import type { SubmitMemory } from '../runs/submit-memory';
import type { ApiClient } from '../transport/request';
import { customOperationFor } from '../runs/custom-operations';
import type { FailItem } from '../outputs/error-item';

/** Whether a call goes out with other items in one request (Use Batch API, Batch → Create From Items). */
export function sendsInOneRequest(call: PreparedCall): boolean {
	// a job named by the user is sent on its own: POST /batches takes one key for all its items
	if (call.run?.useBatchApi && call.endpoint.output === 'run' && !call.job) return true;
	return customOperationFor(call.endpoint)?.sendAll !== undefined;
}

const spends = (call: PreparedCall) => spendsCredits(call.endpoint);

/** Credits each earlier run of this node quoted in this execution (a loop runs it several times), by run index. */
const EXECUTION_CREDITS_KEY = 'mediaGenQuotedCredits';

function executionLedger(ctx: IExecuteFunctions): Record<string, number> {
	const context = ctx.getContext('node');
	if (typeof context[EXECUTION_CREDITS_KEY] !== 'object' || context[EXECUTION_CREDITS_KEY] === null)
		context[EXECUTION_CREDITS_KEY] = {};
	return context[EXECUTION_CREDITS_KEY] as Record<string, number>;
}

/** What a budget counts an item at: its quote, else the Credits per Unpriced Item the user stated. */
const priceOf = (call: PreparedCall): number | undefined =>
	call.quote?.credits ?? call.unpricedCredits;

/**
 * A submit a budget admitted at its quote goes bound to that quote (as with Max Credits), so the
 * service charges what was admitted or refuses the run. Not bound: items sent in one batch request
 * (an item may wait in the batch's queue past the quote's expiry, and would then fail), and a job
 * named by Idempotency Key or by an AI tool's inputs (a re-run must send the same request for the
 * service to replay its run instead of refusing the key; Max Credits binds an own key's, at that
 * cost).
 */
function bindAdmittedQuote(call: PreparedCall): void {
	const quote = call.quote;
	if (!quote?.token || !call.cost || sendsInOneRequest(call) || call.job || call.jobByInputs)
		return;
	call.cost.admittedCredits = quote.credits;
	if (call.body.quote_token) return;
	call.body.quote_token = quote.token;
	quote.bound = true;
}

/** What remains of each limit after this node run, shown on its output items and in its hint. */
export interface BudgetState {
	figures: BudgetFigures[];
	/** credits this node run admitted (new submits, at their quotes) */
	admitted: number;
}

/** A limit as shown on an output item. */
export function budgetView(state: BudgetState): IDataObject {
	const view: IDataObject = {};
	for (const figures of state.figures) {
		view[figures.budget] = {
			limit: figures.limit,
			used: Math.round((figures.limit - remainingOf(figures, state.admitted)) * 100) / 100,
			remaining: remainingOf(figures, state.admitted),
			...(figures.since ? { since: figures.since } : {}),
			...(figures.unpriced_in_flight ? { unpriced_in_flight: figures.unpriced_in_flight } : {}),
			...(figures.queued_batch_items ? { queued_batch_items: figures.queued_batch_items } : {}),
		};
	}
	return view;
}

interface Limits {
	per_execution?: number;
	per_day?: number;
	per_month?: number;
}

function limitsOf(ctx: IExecuteFunctions, client: ApiClient, first: PreparedCall): Limits {
	const limits: Limits = {};
	if (isPriceable(first)) limits.per_execution = first.cost?.executionBudget;
	limits.per_day = creditsOption(
		ctx,
		first.itemIndex,
		client.creditLimits?.per_day,
		'Credit Limit per Day (credential)',
		true,
	);
	limits.per_month = creditsOption(
		ctx,
		first.itemIndex,
		client.creditLimits?.per_month,
		'Credit Limit per Month (credential)',
		true,
	);
	return limits;
}

/** The earlier request of a call in this execution (Retry On Fail, n8n's Retry), if any. */
function earlierRequestOf(call: PreparedCall, calls: PreparedCall[], memory: SubmitMemory) {
	if (!sendsInOneRequest(call)) return memory.recall(call.route, call.itemIndex, call.identity);
	const group = calls.filter((c) => sendsInOneRequest(c) && c.endpoint === call.endpoint);
	return memory.recall('POST /batches', Math.min(...group.map((c) => c.itemIndex)));
}

/**
 * Budgets, before anything is sent: every new submit is priced (uploads first: the quote binds
 * their URLs; Max Credits is checked here too; a Create From Items body at its own estimate), then
 * admitted in input order while it fits Max Credits per Execution (the node's items in this
 * execution, earlier loop runs included) and the credential's Credit Limit per Day / per Month
 * (the service's ledger, runs in flight and queued batch items, plus what this node admitted
 * before it). An item that would pass a limit fails with `budget_exceeded`; one that cannot be
 * priced (no estimate for the operation, a batch item body without a model) counts at Credits per
 * Unpriced Item and is refused when that is not set. An admitted submit is bound to its quote.
 * Requests made by an earlier try (replayed, not paid again) are not priced or refused. Returns
 * the calls to send.
 */
export async function admitWithinBudgets(
	ctx: IExecuteFunctions,
	client: ApiClient,
	calls: PreparedCall[],
	memory: SubmitMemory,
	fail: FailItem,
	runIndex: number,
): Promise<{ calls: PreparedCall[]; budgets?: BudgetState }> {
	const subjects = calls.filter(spends);
	if (subjects.length === 0) return { calls };
	const refused = new Set<PreparedCall>();
	const refuse = (call: PreparedCall, error: unknown) => {
		refused.add(call);
		fail(call.itemIndex, error);
	};
	let limits: Limits;
	try {
		limits = limitsOf(ctx, client, subjects[0]);
	} catch (error) {
		for (const call of subjects) refuse(call, error);
		return { calls: calls.filter((c) => !refused.has(c)) };
	}
	if (
		limits.per_execution === undefined &&
		limits.per_day === undefined &&
		limits.per_month === undefined
	)
		return { calls };

	const replayed = new Map<PreparedCall, number>();
	const fresh: PreparedCall[] = [];
	for (const call of subjects) {
		const earlier = earlierRequestOf(call, calls, memory);
		// a batch item run again is new spending: priced as its first try was
		if (earlier && !call.rerun) replayed.set(call, earlier.quote?.credits ?? 0);
		else fresh.push(call);
	}
	await forEachLimited(fresh, fresh[0]?.run?.concurrency ?? 5, async (call) => {
		try {
			if (isPriceable(call)) {
				await uploadPending(ctx, client, call);
				if (call.cost?.maxCredits !== undefined) await bindQuote(ctx, client, call);
				else await quoteCall(client, call);
			} else if (customOperationFor(call.endpoint)?.sendAll === createBatchFromItems)
				await quoteBatchItem(client, call);
			else if (call.endpoint.rerun) await quoteRerun(client, call);
		} catch (error) {
			refuse(call, error);
		}
	});

	const figures: BudgetFigures[] = [];
	const ledger = executionLedger(ctx);
	if (limits.per_execution !== undefined) {
		const earlierRuns = Object.entries(ledger).reduce(
			(sum, [run, credits]) => (run === String(runIndex) ? sum : sum + credits),
			0,
		);
		figures.push({
			budget: 'per_execution',
			limit: limits.per_execution,
			spent: earlierRuns + [...replayed.values()].reduce((a, b) => a + b, 0),
			in_flight: 0,
		});
	}
	const pending = fresh.filter((call) => !refused.has(call));
	if ((limits.per_day !== undefined || limits.per_month !== undefined) && pending.length > 0) {
		try {
			figures.push(
				...(await readCredentialBudgets(
					client,
					{ per_day: limits.per_day, per_month: limits.per_month },
					new Date(),
					pending[0].itemIndex,
				)),
			);
		} catch (error) {
			// the limit cannot be checked (e.g. the key lacks runs:read): nothing new is sent
			for (const call of pending) refuse(call, error);
		}
	}

	const admittedBy = new Map<Budget, number>(figures.map((f) => [f.budget, 0]));
	for (const call of pending.sort((a, b) => a.itemIndex - b.itemIndex)) {
		if (refused.has(call)) continue;
		const price = priceOf(call);
		// an item nobody can price is never admitted at 0: it would pass any limit unseen
		const over = figures.find(
			(f) => price === undefined || remainingOf(f, admittedBy.get(f.budget)!) < price,
		);
		if (over) {
			refuse(call, budgetExceeded(ctx, call.itemIndex, over, admittedBy.get(over.budget)!, price));
			continue;
		}
		for (const f of figures) admittedBy.set(f.budget, admittedBy.get(f.budget)! + price!);
		bindAdmittedQuote(call);
	}
	const admitted = pending
		.filter((call) => !refused.has(call))
		.reduce((sum, call) => sum + (priceOf(call) ?? 0), 0);
	ledger[String(runIndex)] = admitted + [...replayed.values()].reduce((a, b) => a + b, 0);
	return { calls: calls.filter((c) => !refused.has(c)), budgets: { figures, admitted } };
}
