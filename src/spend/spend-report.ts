import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { creditsOf } from '../outputs/simplify';
import type { PreparedCall } from '../runs/call';
import { spelledItems } from './jobs';
import { budgetView, type BudgetState } from './admit';

const round = (credits: number) => Math.round(credits * 100) / 100;

/**
 * The quote fields of a run's output item, where the node quoted the submit: `quoted_credits` and
 * `quote` (without its token: it is spent). What the run was charged is on the item already:
 * `credits` with Simplify, `usage.credits` without.
 */
export function quoteFields(call: PreparedCall): IDataObject {
	if (!call.quote) return {};
	const { credits, model, currency, expires_at } = call.quote;
	return {
		quoted_credits: credits,
		quote: {
			credits,
			...(model ? { model } : {}),
			...(currency ? { currency } : {}),
			...(expires_at ? { expires_at } : {}),
		},
	};
}

/** What the run of an output item was charged: a variant item names the whole run's in `run_credits`. */
function chargedOf(json: IDataObject): number | undefined {
	const status = json.run_status ?? json.status;
	if (status !== 'completed' && status !== undefined) return undefined;
	return typeof json.run_credits === 'number' ? json.run_credits : creditsOf(json);
}

/** One line per budget: what is left of it. */
function budgetLines(budgets: BudgetState): string[] {
	const view = budgetView(budgets);
	const names: Record<string, string> = {
		per_execution: 'Max Credits per Execution',
		per_day: 'Credit Limit per Day',
		per_month: 'Credit Limit per Month',
	};
	return Object.entries(view).map(([budget, figures]) => {
		const { limit, remaining } = figures as IDataObject;
		return `${names[budget]}: ${String(remaining)} of ${String(limit)} credits left`;
	});
}

/**
 * After a node run: each output item of an admitted submit shows what remains of the budgets
 * (`budget`), and the execution's hints sum what the node spent, say what is left and name the
 * items sent as new jobs because the node was edited since the execution this one retries.
 * `results` is undefined while the execution is paused (only the quotes are known then).
 */
export function reportSpend(
	ctx: IExecuteFunctions,
	calls: PreparedCall[],
	results: INodeExecutionData[][] | undefined,
	budgets: BudgetState | undefined,
	editedItems: Set<number>,
): void {
	const spending = calls.filter(
		(c) =>
			c.endpoint.method === 'POST' &&
			(c.endpoint.output === 'run' || c.endpoint.output === 'batch'),
	);
	const lines: string[] = [];
	if (results) {
		const charged = new Map<string, number>();
		for (const call of spending) {
			for (const item of results[call.itemIndex] ?? []) {
				const id = (item.json.run_id ?? item.json.id) as string | undefined;
				const credits = chargedOf(item.json);
				if (credits !== undefined && typeof id === 'string') charged.set(id, credits);
				// an error item carries its message in `error`; a run's own `error` field is null or an object
				if (budgets && typeof item.json.error !== 'string') item.json.budget = budgetView(budgets);
			}
		}
		const quoted = new Set(spending.filter((c) => c.quote && c.sharesRunOf === undefined));
		const quotedSum = round([...quoted].reduce((sum, c) => sum + c.quote!.credits, 0));
		if (charged.size || quoted.size) {
			const total = round([...charged.values()].reduce((a, b) => a + b, 0));
			lines.push(
				`Charged ${total} credits for ${charged.size} run${charged.size === 1 ? '' : 's'}${quoted.size ? ` (quoted before sending: ${quotedSum} for ${quoted.size})` : ''}.`,
			);
		}
	} else {
		const quoted = spending.filter((c) => c.quote && c.sharesRunOf === undefined);
		if (quoted.length)
			lines.push(
				`Quoted ${round(quoted.reduce((sum, c) => sum + c.quote!.credits, 0))} credits for ${quoted.length} submit${quoted.length === 1 ? '' : 's'}; what each run was charged is on its item when the execution resumes.`,
			);
	}
	if (budgets) lines.push(...budgetLines(budgets));
	const edited = [...editedItems].sort((a, b) => a - b);
	if (edited.length) {
		lines.push(
			`${edited.length === 1 ? 'Item' : 'Items'} ${spelledItems(edited)}: the node's parameters were edited since the execution this one retries and ${edited.length === 1 ? 'its request changed' : 'their requests changed'}, so ${edited.length === 1 ? 'it was' : 'they were'} sent as new jobs (new requests, new idempotency keys); the earlier runs were not reused.`,
		);
	}
	if (spending.some((c) => c.run?.useBatchApi && c.job)) {
		lines.push(
			'Use Batch API: each job named by Options → Idempotency Key was sent as its own submit under its own key (POST /batches takes one key for all its items, so a re-run with other jobs would pay again).',
		);
	}
	if (lines.length && typeof ctx.addExecutionHints === 'function') {
		ctx.addExecutionHints(
			...lines.map((message) => ({
				message,
				type: 'info' as const,
				location: 'outputPane' as const,
			})),
		);
	}
}
