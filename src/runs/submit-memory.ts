import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/**
 * What earlier tries of this node run sent, kept in the node's execution context
 * (`getContext('node')`, part of the execution's data): n8n's Retry On Fail runs the node again with
 * the same context, so a retry resends the very request of the first try — same body (its uploaded
 * asset URLs, its quote token, its expressions as they resolved then) under the same key — and the
 * service replays the original run instead of refusing the key or charging again. Once the service
 * accepted a submit, the retry does not send it at all but waits for the run it created.
 */
export interface SentRequest extends IDataObject {
	key: string;
	path: string;
	qs: IDataObject;
	body: IDataObject;
	/** set once the service answered with the run (or batch) it created */
	createdId?: string;
}

const CONTEXT_KEY = 'mediaGenSentRequests';

export class SubmitMemory {
	private readonly store: Record<string, SentRequest>;

	constructor(
		ctx: Pick<IExecuteFunctions, 'getContext'>,
		private readonly runIndex: number,
	) {
		const context = ctx.getContext('node');
		// assigned once and then mutated: the context object is what n8n keeps between tries
		if (typeof context[CONTEXT_KEY] !== 'object' || context[CONTEXT_KEY] === null) context[CONTEXT_KEY] = {};
		this.store = context[CONTEXT_KEY] as Record<string, SentRequest>;
	}

	private slot(route: string, itemIndex: number): string {
		return `${this.runIndex}|${route}|${itemIndex}`;
	}

	recall(route: string, itemIndex: number): SentRequest | undefined {
		return this.store[this.slot(route, itemIndex)];
	}

	/** Called just before the request leaves, so that a reply lost on the way still finds it. */
	remember(route: string, itemIndex: number, request: Omit<SentRequest, 'createdId'>): void {
		this.store[this.slot(route, itemIndex)] = JSON.parse(JSON.stringify(request)) as SentRequest;
	}

	created(route: string, itemIndex: number, id: string): void {
		const entry = this.store[this.slot(route, itemIndex)];
		if (entry) entry.createdId = id;
	}

	/** The request was refused outright (nothing created): a retry may send a new one. */
	forget(route: string, itemIndex: number): void {
		delete this.store[this.slot(route, itemIndex)];
	}

	/** After a run of the node whose every item succeeded: nothing left to replay. */
	clearRun(): void {
		const prefix = `${this.runIndex}|`;
		for (const slot of Object.keys(this.store)) if (slot.startsWith(prefix)) delete this.store[slot];
	}
}
