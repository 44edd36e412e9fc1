import { NodeOperationError, type IDataObject, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import { offersEstimate } from '../catalog';
import type { Model } from '../models/model-catalog';
import type { PreparedCall } from './call';
import { NOTHING_SPENT } from './nothing-spent';
import { problemOf } from '../transport/problem';
import { apiRequest, unexpectedResponse, type ApiClient } from '../transport/request';

/**
 * Cost control of the generating operations:
 * - every model-aware run endpoint also offers an "Estimate Cost" operation (catalog data,
 *   `catalog/estimates.ts`): the same parameters and the resolved model go to
 *   POST /models/estimate-cost, and the quote is the output;
 * - option Max Credits: estimate first, refuse (no run) when the price is higher, else submit bound
 *   to the quote;
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
 * Called once per item after its parameters are read and checked against the model: turns an
 * Estimate Cost operation into its POST /models/estimate-cost, and notes Max Credits of a submit.
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
	const raw = options.maxCredits;
	if (raw === undefined || raw === null || raw === '') return;
	const maxCredits = typeof raw === 'number' ? raw : Number(String(raw).trim());
	if (!Number.isFinite(maxCredits) || maxCredits < 0) {
		throw new NodeOperationError(ctx.getNode(), `Max Credits: ${JSON.stringify(raw)} is not allowed; allowed: a number of credits of 0 or more`, {
			itemIndex,
			description: NOTHING_SPENT,
		});
	}
	if (options.useBatchApi === true) {
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

function overBudget(ctx: IExecuteFunctions, call: PreparedCall, quote: Quote, maxCredits: number): NodeOperationError {
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

/**
 * With Max Credits: estimates the call as it will be sent (binaries already uploaded: the quote
 * binds their URLs), refuses above the maximum, and binds the submit to the quote.
 */
export async function bindQuote(ctx: IExecuteFunctions, client: ApiClient, call: PreparedCall): Promise<void> {
	if (!call.cost || call.body.quote_token) return;
	const quote = await estimateOf(client, call, call.cost.model);
	if (quote.credits > call.cost.maxCredits) throw overBudget(ctx, call, quote, call.cost.maxCredits);
	call.body.quote_token = quote.quote_token;
	call.cost.quotedCredits = quote.credits;
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
	if (maxCredits !== undefined && isQuote(fresh) && fresh.credits <= maxCredits) return fresh;
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
