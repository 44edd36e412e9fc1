import type { IDataObject } from 'n8n-workflow';

import type { Endpoint, WaitMode } from '../catalog';
import type { BinaryInput } from '../media/upload';
import type { Batch, Run } from './run';

/** A binary that must be uploaded before the call; `assign` puts its asset URL into the body. */
export interface PendingUpload {
	input: BinaryInput;
	/** what stands in the body for the upload until it is made (`binary:<property>`) */
	placeholder: string;
	assign: (assetUrl: string) => void;
}

export interface RunSettings {
	wait: boolean;
	/** where the wait happens when `wait` is on (Wait Mode) */
	waitMode: WaitMode;
	concurrency: number;
	requestTimeoutMs: number;
	/** send all items as one POST /batches instead of one submit each */
	useBatchApi: boolean;
	/** how long a wait in the execution lasts (Wait Timeout, else the in-execution default) */
	waitTimeoutMs: number;
	/** the deadline of a paused wait (Wait Timeout, else the operation's paused default) */
	pausedWaitTimeoutMs: number;
	returnUrlsOnly: boolean;
	binaryPropertyName: string;
	/** largest output file downloaded (Max Output Size) */
	maxOutputBytes: number;
	/** Simplify: flat items of what a user chains on (src/outputs/simplify.ts) instead of the service's objects */
	simplify: boolean;
}

/** How a submit is priced before it is sent: its model, and Max Credits (refuse above it, submit bound to the quote unless the key names the job by its inputs). */
export interface CostLimit {
	maxCredits?: number;
	/** the model the estimate prices (the one the checks resolved) */
	model?: string;
	/** Max Credits per Execution as the item set it (the first priced item's counts for all) */
	executionBudget?: number;
	/** the price a budget admitted the call at: the submit is bound to it, and a fresh quote is accepted up to it */
	admittedCredits?: number;
}

/** The price the node read for a call before sending it (POST /models/estimate-cost). */
export interface QuotedPrice {
	credits: number;
	model?: string | null;
	currency?: string;
	expires_at?: string;
	/** the quote's token (not kept across a pause: the submit is made by then) */
	token?: string;
	/** the submit carries this quote's token, so the run is charged exactly this price */
	bound: boolean;
}

/** Everything needed to send one item's request, read and checked before anything is sent. */
export interface PreparedCall {
	itemIndex: number;
	endpoint: Endpoint;
	path: string;
	qs: IDataObject;
	body: IDataObject;
	/** values of fields that are settings of the node (`in: 'node'`), never sent */
	settings: IDataObject;
	uploads: PendingUpload[];
	idempotencyKey?: string;
	/** the route the key was derived for (method and path template) */
	route: string;
	/** what the request is, whatever its parameters' spelling (src/spend/job-edition.ts requestIdentityOf) */
	identity?: string;
	run?: RunSettings;
	list?: { returnAll: boolean; limit: number };
	cost?: CostLimit;
	/** the job named by Options → Idempotency Key (the user's value), when set */
	job?: string;
	/**
	 * the key names the job by what the call asks (an AI tool's call, src/agents/tool-call-key.ts):
	 * asked again, the tool must send the very same request for the service to answer with the
	 * first run, so no quote the node read is bound to it (each call would read a new one)
	 */
	jobByInputs?: boolean;
	/** what the node quoted before sending (Max Credits, budgets) */
	quote?: QuotedPrice;
	/** Credits per Unpriced Item as the item set it: what budgets count it at when it cannot be quoted */
	unpricedCredits?: number;
	/** another item of this execution names the same job with the same request: this item shares its run */
	sharesRunOf?: number;
	/**
	 * on a retry of the node (Retry On Fail, n8n's Retry): this item's batch item failed at the
	 * service (nothing charged), and runs again (POST /batches/{batchId}/items/{itemId}/retry)
	 */
	rerun?: { batchId: string; itemId: string };
}

/** How a batch's items map to input items: item i to `calls[i]` (a batch made from the items), or all to `calls[0]`. */
export type BatchPairing = 'byIndex' | 'one';

/**
 * Takes the runs and batches a node execution sent and is to wait for. They are waited for once
 * everything is sent: in the execution, or with the execution paused (src/waits/run-waits.ts).
 */
export interface WaitList {
	addRun(call: PreparedCall, run: Run): void;
	addBatch(calls: PreparedCall[], batch: Batch, pairing: BatchPairing): void;
}
