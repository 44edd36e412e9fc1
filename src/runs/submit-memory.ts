import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { QuotedPrice } from './call';

/**
 * What earlier tries of this node run sent, kept in the node's execution context
 * (`getContext('node')`, part of the execution's data): n8n's Retry On Fail runs the node again with
 * the same context, so a retry resends the very request of the first try — same body (its uploaded
 * asset URLs, its quote token, its expressions as they resolved then) under the same key — and the
 * service replays the original run instead of refusing the key or charging again. Once the service
 * accepted a submit, the retry does not send it at all but waits for the run it created.
 *
 * n8n's "Retry" of a failed execution copies this context into the new execution, and — when told
 * to use the saved workflow — runs the node with its current parameters. Each request remembers
 * the edition of the parameters it was made from and the identity of what it asked
 * (src/spend/job-edition.ts): when the node was edited since AND the item's request is no longer
 * the same, the earlier request is not replayed and the item is sent as a new job. An edit that
 * changes only another item's request, or only how the parameters are spelled, replays. The
 * edition gates the comparison because a request may resolve differently on each try without an
 * edit (`{{ $now }}`): Retry On Fail and an unedited Retry must replay it all the same.
 */
export interface SentRequest extends IDataObject {
	key: string;
	path: string;
	qs: IDataObject;
	body: IDataObject;
	/** set once the service answered with the run (or batch) it created */
	createdId?: string;
	/** the edition of the node's parameters the request was made from */
	edition?: string;
	/** the identity of the request as the item resolved it (absent in requests remembered before it was kept) */
	identity?: string;
	/** the price the node quoted for it (counts toward Max Credits per Execution on a retry) */
	quote?: QuotedPrice;
}

const CONTEXT_KEY = 'mediaGenSentRequests';

export class SubmitMemory {
	private readonly store: Record<string, SentRequest>;
	/** items whose earlier request was made before the node was edited (sent again as new jobs) */
	readonly editedItems = new Set<number>();

	constructor(
		ctx: Pick<IExecuteFunctions, 'getContext'>,
		private readonly runIndex: number,
		private readonly edition?: string,
	) {
		const context = ctx.getContext('node');
		// assigned once and then mutated: the context object is what n8n keeps between tries
		if (typeof context[CONTEXT_KEY] !== 'object' || context[CONTEXT_KEY] === null)
			context[CONTEXT_KEY] = {};
		this.store = context[CONTEXT_KEY] as Record<string, SentRequest>;
	}

	private slot(route: string, itemIndex: number): string {
		return `${this.runIndex}|${route}|${itemIndex}`;
	}

	/**
	 * The earlier request of this item, unless the node was edited since it was made and the edit
	 * changed what this item asks. `identity` is the item's request now; a request remembered
	 * without one (an older version of the package, or a batch of several items) counts as changed
	 * by any edit of the node.
	 */
	recall(route: string, itemIndex: number, identity?: string): SentRequest | undefined {
		const slot = this.slot(route, itemIndex);
		const earlier = this.store[slot];
		// requests remembered by a version of the package that kept no edition count as unedited
		const nodeEdited =
			earlier?.edition !== undefined &&
			this.edition !== undefined &&
			earlier.edition !== this.edition;
		const sameRequest =
			earlier?.identity !== undefined && identity !== undefined && earlier.identity === identity;
		if (nodeEdited && !sameRequest) {
			delete this.store[slot];
			this.editedItems.add(itemIndex);
			return undefined;
		}
		return earlier;
	}

	/** Called just before the request leaves, so that a reply lost on the way still finds it. */
	remember(
		route: string,
		itemIndex: number,
		request: Omit<SentRequest, 'createdId' | 'edition'>,
	): void {
		this.store[this.slot(route, itemIndex)] = JSON.parse(
			JSON.stringify({ ...request, edition: this.edition }),
		) as SentRequest;
	}

	created(route: string, itemIndex: number, id: string): void {
		const entry = this.store[this.slot(route, itemIndex)];
		if (entry) entry.createdId = id;
	}

	/** The request was refused outright (nothing created), or its run failed: a retry may send a new one. */
	forget(route: string, itemIndex: number): void {
		delete this.store[this.slot(route, itemIndex)];
	}

	/** After a run of the node whose every item succeeded: nothing left to replay. */
	clearRun(): void {
		const prefix = `${this.runIndex}|`;
		for (const slot of Object.keys(this.store))
			if (slot.startsWith(prefix)) delete this.store[slot];
	}
}
