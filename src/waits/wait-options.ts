import { NodeOperationError, type IDataObject, type INodeProperties } from 'n8n-workflow';

import {
	IN_EXECUTION,
	IN_EXECUTION_WAIT_TIMEOUT,
	PAUSE,
	pausedWaitTimeoutOf,
	type Endpoint,
	type WaitMode,
} from '../catalog';
import { BooleanOption, NumberOption, type RefusalContext } from '../options/option';

// How a node waits for the runs it sent: whether at all (Wait for Completion), where (Wait Mode: in
// the execution, or with the execution paused) and for how long (Wait Timeout). Each field and its
// reader are defined here; the node's description places them.

/** A parameter read for one item: its value, or `fallback` when it is not set. */
export type ParameterGetter = (name: string, fallback: unknown) => unknown;

export const waitForCompletion = new BooleanOption({
	name: 'waitForCompletion',
	displayName: 'Wait for Completion',
	description:
		'Whether to wait until the run completes and return its output; otherwise the queued run is returned',
	default: true,
	changesRequest: false,
});

/** Wait Mode: where the wait happens (its values are the catalog's IN_EXECUTION and PAUSE). */
export const waitMode = {
	name: 'waitMode',
	displayName: 'Wait Mode',
	changesRequest: false,
	property(e: Endpoint, displayOptions: INodeProperties['displayOptions']): INodeProperties {
		return {
			displayName: this.displayName,
			name: this.name,
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'In This Execution',
					value: IN_EXECUTION,
					description:
						'The execution keeps running (and holds its worker) and polls until the runs finish',
				},
				{
					name: 'Pause the Execution Until They Finish',
					value: PAUSE,
					description:
						"Frees the worker while the runs go on; the service's signed event resumes the execution. Needs n8n reachable from the service at its webhook URL and the webhooks:write scope.",
				},
			],
			default: e.defaultWait ?? IN_EXECUTION,
			description: 'How to wait for the runs. Waits longer than a minute or two are better paused.',
			displayOptions,
		};
	},
	/** Wait Mode as set, else the operation's default (catalog `defaultWait`). */
	read(ctx: RefusalContext, itemIndex: number, endpoint: Endpoint, get: ParameterGetter): WaitMode {
		const value = get(this.name, endpoint.defaultWait ?? IN_EXECUTION);
		if (value === PAUSE || value === IN_EXECUTION) return value;
		throw new NodeOperationError(
			ctx.getNode(),
			`${this.displayName} (${this.name}): ${JSON.stringify(value)} is not allowed; allowed: ${PAUSE}, ${IN_EXECUTION}`,
			{
				itemIndex,
				description: 'Nothing was sent to the service.',
			},
		);
	},
};

/**
 * Shown while Wait Mode is "Pause the Execution": what the user will see before they run it (n8n's
 * own panel then reads only "Waiting for input"; the node's output pane says what it waits for).
 */
function pauseNoticeProperty(displayOptions: INodeProperties['displayOptions']): INodeProperties {
	return {
		displayName:
			"This node pauses the execution until MediaGen has finished: meanwhile the execution is listed as Waiting under Executions, this panel reads \"Waiting for input\" above a note naming the runs, and no worker is held. It continues by itself when the service reports the runs finished, at the latest at Wait Timeout. Where it cannot pause, it waits in the execution (holding a worker) and says why in the execution's hints: among others where n8n's webhook address is one the service cannot reach — a loopback, private, link-local or local-network address or name, or one where the service's latest delivery got no answer.",
		name: 'pauseNotice',
		type: 'notice',
		default: '',
		displayOptions,
	};
}

/** Longest wait the node accepts, in seconds (7 days, the service's draft and asset windows). */
export const MAX_WAIT_SECONDS = 7 * 24 * 3600;

/**
 * Wait Timeout: one option for both Wait Modes, so a value set in one mode stays when the mode
 * changes; each mode shows its own default (src/catalog/wait-timeouts.ts): a wait in the execution
 * holds a worker, a paused one holds nothing and may last hours.
 */
export const waitTimeout = new NumberOption({
	name: 'waitTimeout',
	displayName: 'Wait Timeout (Seconds)',
	description: 'Stop waiting after this long',
	default: IN_EXECUTION_WAIT_TIMEOUT,
	min: 1,
	max: MAX_WAIT_SECONDS,
	changesRequest: false,
});

/** How long a paused wait lasts: the deadline in a friendly unit for the description. */
function spelledSeconds(seconds: number): string {
	if (seconds % 3600 === 0) return `${seconds / 3600} h`;
	if (seconds % 60 === 0) return `${seconds / 60} min`;
	return `${seconds} s`;
}

/** Wait Timeout as each Wait Mode shows it. */
function waitTimeoutProperties(e: Endpoint): INodeProperties[] {
	const paused = pausedWaitTimeoutOf(e) ?? IN_EXECUTION_WAIT_TIMEOUT;
	const inMode = (mode: WaitMode) => ({ show: { [`/${waitMode.name}`]: [mode] } });
	return [
		waitTimeout.property({
			default: IN_EXECUTION_WAIT_TIMEOUT,
			description: `Stop waiting after this long; the item then fails with the run ID (the run goes on). Unset: ${spelledSeconds(IN_EXECUTION_WAIT_TIMEOUT)}, as long as the execution may hold its worker.`,
			displayOptions: inMode(IN_EXECUTION),
		}),
		waitTimeout.property({
			default: paused,
			description: `When n8n resumes the paused execution if no event came; the items still waiting then fail with their run IDs (the runs go on). Unset: ${spelledSeconds(paused)} for this operation, and ${spelledSeconds(IN_EXECUTION_WAIT_TIMEOUT)} where the node cannot pause and waits in the execution instead.`,
			displayOptions: inMode(PAUSE),
		}),
	];
}

/** The wait options inside an operation's Options collection. */
export const waitOptionProperties = (e: Endpoint): INodeProperties[] => waitTimeoutProperties(e);

/**
 * The wait parameters above the Options collection: Wait for Completion (unless the operation is
 * itself a wait), Wait Mode and the pause notice. `own` gives an operation's displayOptions with
 * extra conditions.
 */
export function waitProperties(
	e: Endpoint,
	own: (extra?: Record<string, unknown[]>) => INodeProperties['displayOptions'],
): INodeProperties[] {
	const paused = { [waitMode.name]: [PAUSE] };
	if (e.alwaysWaits) return [waitMode.property(e, own()), pauseNoticeProperty(own(paused))];
	const waiting = { [waitForCompletion.name]: [true] };
	const batch = e.output === 'batch';
	return [
		waitForCompletion.property({
			description: `Whether to wait until the ${batch ? 'batch finishes and return one item per batch item' : 'run completes and return its output'}; otherwise the queued ${batch ? 'batch' : 'run'} is returned`,
			displayOptions: own(),
		}),
		waitMode.property(e, own(waiting)),
		pauseNoticeProperty(own({ ...waiting, ...paused })),
	];
}

export interface WaitSettings {
	wait: boolean;
	waitMode: WaitMode;
	/** how long a wait in the execution lasts (Wait Timeout, else the in-execution default) */
	waitTimeoutMs: number;
	/** the deadline of a paused wait (Wait Timeout, else the operation's paused default) */
	pausedWaitTimeoutMs: number;
}

/**
 * An item's wait: Wait for Completion, Wait Mode, and Wait Timeout as set (the same in either
 * mode), else each mode's default. Both deadlines are kept: a node set to pause may have to wait in
 * the execution instead (src/waits/pause.ts, whyNotPause).
 */
export function waitSettingsOf(
	ctx: RefusalContext,
	itemIndex: number,
	endpoint: Endpoint,
	get: ParameterGetter,
	options: IDataObject,
): WaitSettings {
	const seconds = (fallback: number) => waitTimeout.read(ctx, itemIndex, options, fallback) * 1000;
	return {
		wait:
			endpoint.alwaysWaits === true ||
			waitForCompletion.read({
				[waitForCompletion.name]: get(waitForCompletion.name, true),
			} as IDataObject),
		waitMode: waitMode.read(ctx, itemIndex, endpoint, get),
		waitTimeoutMs: seconds(IN_EXECUTION_WAIT_TIMEOUT),
		pausedWaitTimeoutMs: seconds(pausedWaitTimeoutOf(endpoint) ?? IN_EXECUTION_WAIT_TIMEOUT),
	};
}

/** Every option this module defines that the bounds checks cover (Wait Mode is a fixed choice). */
export const WAIT_OPTIONS = [waitForCompletion, waitTimeout];
