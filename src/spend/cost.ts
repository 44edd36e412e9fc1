import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { offersEstimate, spendsCredits } from '../catalog';
import type { Model } from '../models/model-catalog';
import type { PreparedCall } from '../runs/call';
import { NOT_PRICED } from '../runs/quote';
import { useBatchApi } from '../runs/submit-options';
import { creditsPerUnpricedItem, maxCredits, maxCreditsPerExecution } from './spend-options';

/**
 * Cost control of the generating operations:
 * - every model-aware run endpoint also offers an "Estimate Cost" operation (catalog data,
 *   `catalog/estimates.ts`): the same parameters and the resolved model go to
 *   POST /models/estimate-cost, and the quote is the output;
 * - option Max Credits: estimate first, refuse (no run) when the price is higher, else submit bound
 *   to the quote — also when a Quote Token is set (it is then re-estimated, and sent when it fits);
 * - a submit answered 409 quote_expired / quote_mismatch is sent once more with the fresh quote of
 *   the answer when that quote still fits Max Credits; otherwise the item fails with the code
 *   (the quote itself: src/runs/quote.ts).
 */

/**
 * Called once per item after its parameters are read and checked against the model: turns an
 * Estimate Cost operation into its POST /models/estimate-cost, and notes what prices a submit
 * (its model) and Max Credits.
 */
export function planCost(
	ctx: IExecuteFunctions,
	call: PreparedCall,
	model: Model | undefined,
	estimate: boolean,
	options: IDataObject,
): void {
	const { endpoint, itemIndex } = call;
	if (estimate) {
		for (const key of NOT_PRICED) delete call.body[key];
		// the resolved model: the quote binds it, and the submit that uses the quote resolves the same one
		if (model) call.body.model = model.id;
		return;
	}
	if (spendsCredits(endpoint) && !offersEstimate(endpoint))
		call.unpricedCredits = creditsPerUnpricedItem.readLimit(ctx, itemIndex, options);
	if (endpoint.output !== 'run' || !offersEstimate(endpoint)) return;
	const limit = maxCredits.readLimit(ctx, itemIndex, options);
	if (limit !== undefined && useBatchApi.read(options)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${maxCredits.displayName} cannot be combined with ${useBatchApi.displayName}: a batch is not quoted; allowed: one of the two`,
			{
				itemIndex,
				description:
					'Turn off Use Batch API to keep the per-item price check, or remove Max Credits. Nothing was sent.',
			},
		);
	}
	call.cost = {
		maxCredits: limit,
		model: model?.id,
		executionBudget: maxCreditsPerExecution.readLimit(ctx, itemIndex, options),
	};
}

/** Whether a submit can be priced before it is sent (a model-aware generating operation). */
export function isPriceable(call: PreparedCall): boolean {
	return call.cost !== undefined;
}
