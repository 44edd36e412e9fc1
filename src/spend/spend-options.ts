import { NodeOperationError, type IDataObject, type INodeProperties } from 'n8n-workflow';

import { NOTHING_SPENT } from '../options/nothing-spent';
import { decimalNumber, NumberOption, type RefusalContext } from '../options/option';

// The money options of a priced operation: Max Credits (per item) and Max Credits per Execution
// (all items together). Unlike other numbers, a money limit that is not added means no limit, and
// one that is added but blank is refused: it must never silently lift a cap.

/**
 * A money limit as the user wrote it; undefined when it is not set at all (an option not added, a
 * credential field left empty: `blankIsUnset`). A limit that is set must be a number of 0 or more.
 */
export function creditsOption(
	ctx: RefusalContext,
	itemIndex: number,
	raw: unknown,
	label: string,
	blankIsUnset = false,
): number | undefined {
	if (
		raw === undefined ||
		(blankIsUnset && (raw === null || (typeof raw === 'string' && raw.trim() === '')))
	)
		return undefined;
	const value = decimalNumber(raw);
	if (Number.isFinite(value) && value >= 0) return value;
	// a cap that is set but blank (an expression that resolved to nothing) must not silently lift the cap
	const empty = raw === null || (typeof raw === 'string' && raw.trim() === '');
	const shown =
		typeof raw === 'number'
			? String(raw)
			: empty
				? 'an empty value'
				: (JSON.stringify(raw) ?? String(raw));
	throw new NodeOperationError(
		ctx.getNode(),
		`${label}: ${shown} is not allowed; allowed: a number of credits of 0 or more`,
		{
			itemIndex,
			description: `${NOTHING_SPENT} ${blankIsUnset ? 'Leave the field empty' : 'Remove the option'} for no limit.`,
		},
	);
}

/** A money limit in the Options collection: no maximum, two decimals, absent = no limit. */
class CreditsOption extends NumberOption {
	/** the limit set in `options`, or undefined when the option is not added */
	readLimit(ctx: RefusalContext, itemIndex: number, options: IDataObject): number | undefined {
		return creditsOption(ctx, itemIndex, options[this.name], this.displayName);
	}
}

export const maxCredits = new CreditsOption({
	name: 'maxCredits',
	displayName: 'Max Credits',
	description:
		'Estimate first and refuse (no run is created) when the price is higher; otherwise submit bound to the quote (as an AI tool, not bound: asked again, the tool sends the same request and gets the same run). A fresh quote, after the service finds the quote expired or no longer matching, is accepted once if it still fits.',
	default: 0,
	min: 0,
	max: Infinity,
	precision: 2,
	changesRequest: false,
});

export const maxCreditsPerExecution = new CreditsOption({
	name: 'maxCreditsPerExecution',
	displayName: 'Max Credits per Execution',
	description:
		'Most credits this node may submit in one execution, all items together: every item is estimated first, and an item whose price would pass this is refused before anything of it is sent (error code "budget_exceeded"). The first item\'s value counts.',
	default: 100,
	min: 0,
	max: Infinity,
	precision: 2,
	changesRequest: false,
});

/**
 * What one item of an operation the service cannot price first may cost: under a budget such an
 * item is admitted at this figure, and refused when it is not set (never admitted at 0).
 */
export const creditsPerUnpricedItem = new CreditsOption({
	name: 'creditsPerUnpricedItem',
	displayName: 'Credits per Unpriced Item',
	description:
		'Under a budget (Max Credits per Execution, or the credential\'s Credit Limit per Day / per Month): what one item may cost when the service cannot price it before it is sent (no estimate for the operation, or a batch item body that names no model). Such an item is counted at this figure, and refused when this is not set (error code "budget_exceeded").',
	default: 0,
	min: 0,
	max: Infinity,
	precision: 2,
	changesRequest: false,
});

/** Every option this module defines. */
export const SPEND_OPTIONS = [maxCredits, maxCreditsPerExecution, creditsPerUnpricedItem];

/**
 * The money options of an operation that makes runs or batches: Max Credits and Max Credits per
 * Execution where it can be priced first, Credits per Unpriced Item where it cannot (or, for a
 * batch, where an item body may not name a model).
 */
export const spendOptionProperties = (priced: boolean): INodeProperties[] =>
	(priced ? [maxCredits, maxCreditsPerExecution] : [creditsPerUnpricedItem]).map((option) =>
		option.property(),
	);
