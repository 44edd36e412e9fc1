import { NodeOperationError, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import type { PreparedCall } from '../runs/call';
import { NOTHING_SPENT } from '../options/nothing-spent';
import type { FailItem } from '../outputs/error-item';

/** Item positions as a sentence says them: "3", "0 and 2", "0, 1 and 2". */
export function spelledItems(indexes: number[]): string {
	return indexes.length < 2
		? indexes.join('')
		: `${indexes.slice(0, -1).join(', ')} and ${indexes[indexes.length - 1]}`;
}

/**
 * The same request: the same identity (what is sent, input files by their bytes — see
 * src/spend/job-edition.ts requestIdentityOf; every prepared call has one).
 */
function sameRequest(a: PreparedCall, b: PreparedCall): boolean {
	return a.identity !== undefined && a.identity === b.identity;
}

/**
 * Items of one node run that name the same job (Options → Idempotency Key gives them one key):
 * when their requests are the same, the first item's run serves them all (one charge, each item
 * gets its output); otherwise none of them is sent — one key must never name two requests, and
 * the service would refuse the second after the first was paid. Returns the calls that are still
 * to be sent; the items served by another's run carry `sharesRunOf`.
 */
export function settleSharedJobs(
	ctx: IExecuteFunctions,
	calls: PreparedCall[],
	fail: FailItem,
): PreparedCall[] {
	const byJob = new Map<string, PreparedCall[]>();
	for (const call of calls) {
		// a batch the items make together (Batch → Create From Items) is one request under one key
		if (!call.job || !call.idempotencyKey || call.endpoint.output !== 'run') continue;
		// by the value, not the key: the key follows the request, so two requests named by one value
		// get two keys, and the value would name two jobs at once
		const job = `${call.route}\n${call.job.normalize('NFC')}`;
		byJob.set(job, [...(byJob.get(job) ?? []), call]);
	}
	const refused = new Set<PreparedCall>();
	for (const group of byJob.values()) {
		if (group.length < 2) continue;
		const [first, ...others] = group;
		if (others.every((other) => sameRequest(first, other))) {
			for (const other of others) other.sharesRunOf = first.itemIndex;
			continue;
		}
		const indexes = group.map((c) => c.itemIndex);
		for (const call of group) {
			const error = new NodeOperationError(
				ctx.getNode(),
				`Idempotency Key: items ${spelledItems(indexes)} name the same job "${call.job}" with different requests; allowed: one value per job`,
				{
					itemIndex: call.itemIndex,
					description: `${NOTHING_SPENT} A value names one job of this node: give each item its own (e.g. {{ $json.sku }}), or make their requests the same (one run then serves them all).`,
				},
			);
			error.context.problem = {
				code: 'job_named_twice',
				job: call.job,
				items: indexes,
			} as JsonObject;
			refused.add(call);
			fail(call.itemIndex, error);
		}
	}
	return calls.filter((call) => !refused.has(call));
}
