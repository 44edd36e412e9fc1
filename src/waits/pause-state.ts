import { createHash } from 'node:crypto';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { endpointKey, PAUSE, type Endpoint } from '../catalog';
import { BYTES_PER_MB, DEFAULT_MAX_OUTPUT_MB } from '../media/download';
import type { Batch, Run } from '../runs/run';
import type { PreparedCall } from '../runs/call';
import { customOperationFor } from '../runs/custom-operations';
import type { WaitSet } from './awaited';

/**
 * What a paused execution keeps for its resume, in two places n8n saves with the execution and
 * gives back to the node's webhook:
 * - the node's input items (its execution stack entry): the items it outputs at the deadline —
 *   one per input item, a `wait_timeout` error item naming its run or batch where it waits, as the
 *   in-execution wait gives at its timeout. n8n passes them through unchanged when it resumes at the
 *   deadline (no node code runs then).
 * - the execution's custom data (one key per node): the endpoint, its signing secret sealed with
 *   the credential, and the settings that shape the outputs. Not an item, so never an output.
 */
export interface PausedState {
	endpointId: string;
	sealedSecret: string;
	/** ms since epoch */
	deadline: number;
	/** the settings of the held calls that shape their outputs; `shapeOf[k]` is the shape of held slot k (all 0 when omitted) */
	shapes: CallShape[];
	shapeOf?: number[];
}

/** What of a call decides its outputs once its run or batch finished. */
export interface CallShape {
	/** the request path, where the outputs depend on it (a workflow's declared fields) */
	p?: string;
	/** settings of the node that shape the outputs (split variants, only failed) */
	s?: IDataObject;
	/** Return URLs Only */
	u?: true;
	/** Binary Field Name, when not `data` */
	b?: string;
	/** Max Output Size in bytes, when not the default */
	m?: number;
	/** Simplify */
	f?: true;
}

/** n8n keeps at most this many characters of a custom data value. */
export const STATE_MAX_LENGTH = 512;
const VERSION = 'v1';

/** The custom data key of a node's paused state: letters, digits and underscores only (n8n's rule). */
export function stateKey(nodeName: string): string {
	return `mediagen_wait_${createHash('sha256').update(nodeName).digest('hex').slice(0, 16)}`;
}

export function shapeOf(call: PreparedCall): CallShape {
	const shape: CallShape = {};
	if (customOperationFor(call.endpoint)?.completedRun) shape.p = call.path;
	if (Object.keys(call.settings).length) shape.s = call.settings;
	if (call.run!.returnUrlsOnly) shape.u = true;
	if (call.run!.binaryPropertyName !== 'data') shape.b = call.run!.binaryPropertyName;
	if (call.run!.maxOutputBytes !== DEFAULT_MAX_OUTPUT_MB * BYTES_PER_MB)
		shape.m = call.run!.maxOutputBytes;
	if (call.run!.simplify) shape.f = true;
	return shape;
}

/** The state for custom data: compact JSON, shapes listed once each. */
export function encodeState(
	endpointId: string,
	sealedSecret: string,
	deadline: number,
	heldShapes: CallShape[],
): string {
	const shapes: CallShape[] = [];
	const keys: string[] = [];
	const shapeIndex = heldShapes.map((shape) => {
		const key = JSON.stringify(shape);
		let index = keys.indexOf(key);
		if (index === -1) {
			index = keys.length;
			keys.push(key);
			shapes.push(shape);
		}
		return index;
	});
	const state: PausedState = {
		endpointId,
		sealedSecret,
		deadline,
		shapes,
		...(shapes.length > 1 ? { shapeOf: shapeIndex } : {}),
	};
	return `${VERSION}:${JSON.stringify(state)}`;
}

export function decodeState(value: unknown): PausedState | undefined {
	if (typeof value !== 'string' || !value.startsWith(`${VERSION}:`)) return undefined;
	try {
		const state = JSON.parse(value.slice(VERSION.length + 1)) as PausedState;
		return typeof state.endpointId === 'string' &&
			typeof state.sealedSecret === 'string' &&
			Array.isArray(state.shapes) &&
			state.shapes.length > 0
			? state
			: undefined;
	} catch {
		return undefined;
	}
}

/** A stored item that stands for a wait: its run or batch. */
function heldSubject(item: INodeExecutionData): { runId?: string; batchId?: string } | undefined {
	const json = item.json ?? {};
	if (json.code !== 'wait_timeout') return undefined;
	if (typeof json.run_id === 'string') return { runId: json.run_id };
	if (typeof json.batch_id === 'string') return { batchId: json.batch_id };
	return undefined;
}

function pairedIndex(item: INodeExecutionData, position: number): number {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof paired === 'number'
		? paired
		: typeof paired?.item === 'number'
			? paired.item
			: position;
}

function callOf(endpoint: Endpoint, itemIndex: number, shape: CallShape): PreparedCall {
	return {
		itemIndex,
		endpoint,
		path: shape.p ?? endpoint.path,
		qs: {},
		body: {},
		settings: shape.s ?? {},
		uploads: [],
		route: endpointKey(endpoint),
		run: {
			wait: true,
			waitMode: PAUSE,
			concurrency: 1,
			requestTimeoutMs: 30_000,
			useBatchApi: false,
			waitTimeoutMs: 0,
			pausedWaitTimeoutMs: 0,
			returnUrlsOnly: shape.u === true,
			binaryPropertyName: shape.b ?? 'data',
			maxOutputBytes: shape.m ?? DEFAULT_MAX_OUTPUT_MB * BYTES_PER_MB,
			simplify: shape.f === true,
		},
	};
}

/**
 * What a resumed node waited for, rebuilt from the items it stored and its state: the held runs and
 * batches (only their ids are known until they are read) with calls that give the same outputs.
 */
export function waitSetFromStored(
	stored: INodeExecutionData[],
	state: PausedState,
	endpoint: Endpoint,
): WaitSet {
	const waitSet: WaitSet = { runs: [], batches: [] };
	let slot = 0;
	for (const [position, item] of stored.entries()) {
		const subject = heldSubject(item);
		if (!subject) continue;
		const shape = state.shapes[state.shapeOf?.[slot] ?? 0] ?? state.shapes[0];
		slot++;
		const call = callOf(endpoint, pairedIndex(item, position), shape);
		// the price quoted before the pause travels on the stored item (pause.ts, deadlineItems)
		if (typeof item.json.quoted_credits === 'number')
			call.quote = { credits: item.json.quoted_credits, bound: false };
		if (subject.runId) {
			waitSet.runs.push({
				call,
				run: { id: subject.runId, object: 'run', status: 'queued' } as Run,
			});
			continue;
		}
		const batchId = subject.batchId!;
		const group =
			endpoint.custom === 'waitForBatch'
				? undefined
				: waitSet.batches.find((b) => b.batch.id === batchId);
		if (group) group.calls.push(call);
		else
			waitSet.batches.push({
				calls: [call],
				batch: { id: batchId, status: 'processing' } as Batch,
				pairing: endpoint.custom === 'waitForBatch' ? 'one' : 'byIndex',
			});
	}
	return waitSet;
}
