import type { IDataObject } from 'n8n-workflow';

import type { Endpoint } from '../catalog';
import type { BinaryInput } from '../media/upload';

/** A binary that must be uploaded before the call; `assign` puts its asset URL into the body. */
export interface PendingUpload {
	input: BinaryInput;
	/** what stands in the body for the upload until it is made (`binary:<property>`) */
	placeholder: string;
	assign: (assetUrl: string) => void;
}

export interface RunSettings {
	wait: boolean;
	concurrency: number;
	requestTimeoutMs: number;
	/** send all items as one POST /batches instead of one submit each */
	useBatchApi: boolean;
	waitTimeoutMs: number;
	returnUrlsOnly: boolean;
	binaryPropertyName: string;
	/** largest output file downloaded (Max Output Size) */
	maxOutputBytes: number;
}

/** Max Credits of a submit: estimate first, refuse above it, submit bound to the quote. */
export interface CostLimit {
	maxCredits: number;
	/** the model the estimate prices (the one the checks resolved) */
	model?: string;
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
	run?: RunSettings;
	list?: { returnAll: boolean; limit: number };
	cost?: CostLimit;
}
