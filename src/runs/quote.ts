import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { problemOf } from '../transport/problem';
import { apiRequest, unexpectedResponse, type ApiClient } from '../transport/request';
import type { PreparedCall, QuotedPrice } from './call';

// A call's quote (POST /models/estimate-cost): estimated once per call, bound to the submit when Max
// Credits asks for it, and replaced by the fresh quote of a 409 quote_expired / quote_mismatch
// answer while that still fits Max Credits. Max Credits itself is read in src/spend/cost.ts.

const QUOTE_CODES = new Set(['quote_expired', 'quote_mismatch']);

export interface Quote extends IDataObject {
	credits: number;
	quote_token: string;
}

/** A price of 0 credits or more: a negative or unreadable one is an unexpected answer, never a discount. */
export const isPrice = (credits: unknown): credits is number =>
	typeof credits === 'number' && Number.isFinite(credits) && credits >= 0;

function isQuote(value: unknown): value is Quote {
	return (
		typeof value === 'object' &&
		value !== null &&
		isPrice((value as Quote).credits) &&
		typeof (value as Quote).quote_token === 'string'
	);
}

/** Parameters that do not belong in an estimate (they do not change the price). */
export const NOT_PRICED = ['quote_token', 'team_id', 'project_id'];

async function estimateOf(
	client: ApiClient,
	call: PreparedCall,
	model: string | undefined,
	sent: IDataObject = call.body,
): Promise<Quote> {
	const body: IDataObject = { ...sent };
	for (const key of NOT_PRICED) delete body[key];
	if (model) body.model = model;
	const { body: quote } = await apiRequest<unknown>(client, {
		method: 'POST',
		path: '/models/estimate-cost',
		body,
		itemIndex: call.itemIndex,
	});
	if (!isQuote(quote))
		throw unexpectedResponse(
			client,
			'POST /models/estimate-cost did not return credits (0 or more) and a quote_token',
			quote,
			call.itemIndex,
		);
	return quote;
}

function overBudget(
	ctx: IExecuteFunctions,
	call: PreparedCall,
	quote: QuotedPrice,
	maxCredits: number,
): NodeOperationError {
	const error = new NodeOperationError(
		ctx.getNode(),
		`Max Credits: ${call.endpoint.name} costs ${quote.credits} credits${quote.model ? ` on model ${String(quote.model)}` : ''}, above the maximum of ${maxCredits}`,
		{
			itemIndex: call.itemIndex,
			description:
				'Nothing was submitted: no run was created and no credits were spent. Raise Max Credits or choose cheaper parameters.',
		},
	);
	error.context.problem = {
		code: 'max_credits_exceeded',
		credits: quote.credits,
		max_credits: maxCredits,
	} as JsonObject;
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

/**
 * The price of a call as it will be sent (binaries already uploaded: the quote binds their URLs),
 * estimated once per call: Max Credits and the budgets read the same figure.
 */
export async function quoteCall(client: ApiClient, call: PreparedCall): Promise<QuotedPrice> {
	call.quote ??= priceOfQuote(await estimateOf(client, call, call.cost?.model), false);
	return call.quote;
}

/**
 * The price of a batch item body (Batch → Create From Items) that names its model: the body is what
 * the target operation takes, so it is estimated as that submit would be. A body without a model
 * (or a workflow batch) cannot be priced here: undefined, and budgets count it as unpriced.
 */
export async function quoteBatchItem(
	client: ApiClient,
	call: PreparedCall,
): Promise<QuotedPrice | undefined> {
	const item = call.body.item;
	if (call.body.mode !== 'operation' || typeof item !== 'object' || item === null) return undefined;
	const body = item as IDataObject;
	if (typeof body.model !== 'string' || !body.model) return undefined;
	call.quote ??= priceOfQuote(await estimateOf(client, call, undefined, body), false);
	return call.quote;
}

/**
 * The request a run or batch item echoes (its model and `input_summary`; the `has_…` flags and
 * empty values left out), as an estimate takes it. Undefined without a model: nothing to price.
 */
export function echoedRequest(model: unknown, summary: unknown): IDataObject | undefined {
	if (typeof model !== 'string' || !model) return undefined;
	const echoed = (summary && typeof summary === 'object' ? summary : {}) as IDataObject;
	const inputs = Object.fromEntries(
		Object.entries(echoed).filter(([name, value]) => !name.startsWith('has_') && value !== null),
	);
	return { ...inputs, model };
}

/**
 * The price of an echoed request, or undefined when the service does not price it (an echo is not
 * the whole request, and may not be enough for an estimate): counted as unpriced, never as 0.
 */
export async function estimateEcho(
	client: ApiClient,
	body: IDataObject,
	itemIndex: number,
): Promise<number | undefined> {
	try {
		const { body: quote } = await apiRequest<IDataObject>(client, {
			method: 'POST',
			path: '/models/estimate-cost',
			body,
			itemIndex,
		});
		return isPrice(quote?.credits) ? quote.credits : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The price of running a failed batch item again (Batch Item → Retry): the item is read, and what
 * it echoes is estimated. A failed item has no price of its own on record; one the service cannot
 * price is undefined, and budgets count it at Credits per Unpriced Item.
 */
export async function quoteRerun(
	client: ApiClient,
	call: PreparedCall,
): Promise<QuotedPrice | undefined> {
	const { body: item } = await apiRequest<IDataObject>(client, {
		method: 'GET',
		path: call.path.replace(/\/retry$/, ''),
		itemIndex: call.itemIndex,
	});
	if (typeof item !== 'object' || item === null || typeof item.id !== 'string')
		throw unexpectedResponse(
			client,
			`GET ${call.path} did not return a batch item`,
			item,
			call.itemIndex,
		);
	const summary = item.input_summary as IDataObject | null | undefined;
	const request = echoedRequest(summary?.model, summary);
	const credits = request ? await estimateEcho(client, request, call.itemIndex) : undefined;
	if (credits === undefined) return undefined;
	call.quote = { credits, model: String(request!.model), bound: false };
	return call.quote;
}

/**
 * With Max Credits: refuses a call priced above the maximum, and binds the submit to the quote the
 * node read. A Quote Token the user set is re-estimated too and, when it fits, sent as it is: the
 * service binds the run to the token's price only while the inputs and the price still match the
 * quote (else 409 quote_mismatch, whose fresh quote is accepted only within Max Credits), so the
 * run is charged the price just checked. An AI tool's call is checked but not bound: asked again
 * for the same job it must send the first call's request, and a quote read now would differ.
 */
export async function bindQuote(
	ctx: IExecuteFunctions,
	client: ApiClient,
	call: PreparedCall,
): Promise<void> {
	const maxCredits = call.cost?.maxCredits;
	if (maxCredits === undefined) return;
	const quote = await quoteCall(client, call);
	if (quote.credits > maxCredits) throw overBudget(ctx, call, quote, maxCredits);
	if (!call.body.quote_token && !call.jobByInputs) {
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
	// Max Credits, else the price a budget admitted the call at: a dearer fresh quote was never admitted
	const maxCredits = call.cost?.maxCredits ?? call.cost?.admittedCredits;
	if (maxCredits !== undefined && isQuote(fresh) && fresh.credits <= maxCredits) {
		call.quote = priceOfQuote(fresh, true);
		return fresh;
	}
	const why =
		maxCredits === undefined
			? 'Set Max Credits to let the node accept a fresh quote within that price.'
			: isQuote(fresh)
				? `The fresh quote (${fresh.credits} credits) is above ${call.cost?.maxCredits !== undefined ? 'Max Credits' : 'the price the budget admitted'} (${maxCredits}); nothing was submitted.`
				: 'The answer carried no fresh quote.';
	const described = error as { description?: string };
	described.description = [described.description, why].filter(Boolean).join(' · ');
	return undefined;
}
