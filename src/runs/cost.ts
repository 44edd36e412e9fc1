import { NodeOperationError, type IDataObject, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import { offersEstimate } from '../catalog';
import type { Model } from '../models/model-catalog';
import type { PreparedCall, QuotedPrice } from './call';
import { NOTHING_SPENT } from './nothing-spent';
import { problemOf } from '../transport/problem';
import { apiRequest, unexpectedResponse, type ApiClient } from '../transport/request';

/**
 * Cost control of the generating operations:
 * - every model-aware run endpoint also offers an "Estimate Cost" operation (catalog data,
 *   `catalog/estimates.ts`): the same parameters and the resolved model go to
 *   POST /models/estimate-cost, and the quote is the output;
 * - option Max Credits: estimate first, refuse (no run) when the price is higher, else submit bound
 *   to the quote — also when a Quote Token is set (it is then re-estimated, and sent when it fits);
 * - a submit answered 409 quote_expired / quote_mismatch is sent once more with the fresh quote of
 *   the answer when that quote still fits Max Credits; otherwise the item fails with the code.
 */

const QUOTE_CODES = new Set(['quote_expired', 'quote_mismatch']);

export interface Quote extends IDataObject {
	credits: number;
	quote_token: string;
}

function isQuote(value: unknown): value is Quote {
	return typeof value === 'object' && value !== null && typeof (value as Quote).credits === 'number' && typeof (value as Quote).quote_token === 'string';
}

/** Parameters that do not belong in an estimate (they do not change the price). */
const NOT_PRICED = ['quote_token', 'team_id', 'project_id'];

/**
 * A money limit as the user wrote it; undefined when it is not set at all (an option not added, a
 * credential field left empty: `blankIsUnset`). A limit that is set must be a number of 0 or more.
 */
export function creditsOption(ctx: IExecuteFunctions, itemIndex: number, raw: unknown, label: string, blankIsUnset = false): number | undefined {
	if (raw === undefined || (blankIsUnset && (raw === null || (typeof raw === 'string' && raw.trim() === '')))) return undefined;
	const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : NaN;
	if (Number.isFinite(value) && value >= 0) return value;
	// a cap that is set but blank (an expression that resolved to nothing) must not silently lift the cap
	const empty = raw === null || (typeof raw === 'string' && raw.trim() === '');
	const shown = typeof raw === 'number' ? String(raw) : empty ? 'an empty value' : (JSON.stringify(raw) ?? String(raw));
	throw new NodeOperationError(ctx.getNode(), `${label}: ${shown} is not allowed; allowed: a number of credits of 0 or more`, {
		itemIndex,
		description: `${NOTHING_SPENT} ${blankIsUnset ? 'Leave the field empty' : 'Remove the option'} for no limit.`,
	});
}

/** Max Credits per Execution of a node (its first item's value: the budget covers all items). */
export function executionBudgetOf(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return creditsOption(ctx, itemIndex, options.maxCreditsPerExecution, 'Max Credits per Execution');
}

/**
 * Called once per item after its parameters are read and checked against the model: turns an
 * Estimate Cost operation into its POST /models/estimate-cost, and notes what prices a submit
 * (its model) and Max Credits.
 */
export function planCost(ctx: IExecuteFunctions, call: PreparedCall, model: Model | undefined, estimate: boolean): void {
	const { endpoint, itemIndex } = call;
	if (estimate) {
		for (const key of NOT_PRICED) delete call.body[key];
		// the resolved model: the quote binds it, and the submit that uses the quote resolves the same one
		if (model) call.body.model = model.id;
		return;
	}
	if (endpoint.output !== 'run' || !offersEstimate(endpoint)) return;
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const maxCredits = creditsOption(ctx, itemIndex, options.maxCredits, 'Max Credits');
	if (maxCredits !== undefined && options.useBatchApi === true) {
		throw new NodeOperationError(ctx.getNode(), 'Max Credits cannot be combined with Use Batch API: a batch is not quoted; allowed: one of the two', {
			itemIndex,
			description: 'Turn off Use Batch API to keep the per-item price check, or remove Max Credits. Nothing was sent.',
		});
	}
	call.cost = { maxCredits, model: model?.id };
}

async function estimateOf(client: ApiClient, call: PreparedCall, model: string | undefined): Promise<Quote> {
	const body: IDataObject = { ...call.body };
	for (const key of NOT_PRICED) delete body[key];
	if (model) body.model = model;
	const { body: quote } = await apiRequest<unknown>(client, { method: 'POST', path: '/models/estimate-cost', body, itemIndex: call.itemIndex });
	if (!isQuote(quote)) throw unexpectedResponse(client, 'POST /models/estimate-cost did not return credits and a quote_token', quote, call.itemIndex);
	return quote;
}

function overBudget(ctx: IExecuteFunctions, call: PreparedCall, quote: QuotedPrice, maxCredits: number): NodeOperationError {
	const error = new NodeOperationError(
		ctx.getNode(),
		`Max Credits: ${call.endpoint.name} costs ${quote.credits} credits${quote.model ? ` on model ${String(quote.model)}` : ''}, above the maximum of ${maxCredits}`,
		{
			itemIndex: call.itemIndex,
			description: 'Nothing was submitted: no run was created and no credits were spent. Raise Max Credits or choose cheaper parameters.',
		},
	);
	error.context.problem = { code: 'max_credits_exceeded', credits: quote.credits, max_credits: maxCredits } as JsonObject;
	return error;
}

function priceOfQuote(quote: Quote, bound: boolean): QuotedPrice {
	return {
		credits: quote.credits,
		model: typeof quote.model === 'string' ? quote.model : null,
		...(typeof quote.currency === 'string' ? { currency: quote.currency } : {}),
		...(typeof quote.expires_at === 'string' ? { expires_at: quote.expires_at } : {}),
		token: quote.quote_token,
		bound,
	};
}

/** Whether a submit can be priced before it is sent (a model-aware generating operation). */
export function isPriceable(call: PreparedCall): boolean {
	return call.cost !== undefined;
}

/**
 * The price of a call as it will be sent (binaries already uploaded: the quote binds their URLs),
 * estimated once per call: Max Credits and the budgets read the same figure.
 */
export async function quoteCall(client: ApiClient, call: PreparedCall): Promise<QuotedPrice> {
	call.quote ??= priceOfQuote(await estimateOf(client, call, call.cost?.model), false);
	return call.quote;
}

/**
 * With Max Credits: refuses a call priced above the maximum, and binds the submit to the quote the
 * node read. A Quote Token the user set is re-estimated too and, when it fits, sent as it is: the
 * service binds the run to the token's price only while the inputs and the price still match the
 * quote (else 409 quote_mismatch, whose fresh quote is accepted only within Max Credits), so the
 * run is charged the price just checked.
 */
export async function bindQuote(ctx: IExecuteFunctions, client: ApiClient, call: PreparedCall): Promise<void> {
	const maxCredits = call.cost?.maxCredits;
	if (maxCredits === undefined) return;
	const quote = await quoteCall(client, call);
	if (quote.credits > maxCredits) throw overBudget(ctx, call, quote, maxCredits);
	if (!call.body.quote_token) {
		call.body.quote_token = quote.token;
		quote.bound = true;
	}
}

/**
 * After a submit refused with 409 quote_expired / quote_mismatch: the fresh quote of the answer
 * when Max Credits allows it, otherwise undefined with the reason added to the error.
 */
export function acceptableFreshQuote(call: PreparedCall, error: unknown): Quote | undefined {
	const problem = problemOf(error);
	if (!problem?.code || !QUOTE_CODES.has(problem.code)) return undefined;
	const fresh = problem.quote;
	const maxCredits = call.cost?.maxCredits;
	if (maxCredits !== undefined && isQuote(fresh) && fresh.credits <= maxCredits) {
		call.quote = priceOfQuote(fresh, true);
		return fresh;
	}
	const why =
		maxCredits === undefined
			? 'Set Max Credits to let the node accept a fresh quote within that price.'
			: isQuote(fresh)
				? `The fresh quote (${fresh.credits} credits) is above Max Credits (${maxCredits}); nothing was submitted.`
				: 'The answer carried no fresh quote.';
	const described = error as { description?: string };
	described.description = [described.description, why].filter(Boolean).join(' · ');
	return undefined;
}
