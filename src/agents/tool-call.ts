import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { offersEstimate, type Endpoint } from '../catalog';
import { BooleanOption, NumberOption } from '../options/option';
import { runsAsTool } from './tool-output';

/**
 * What a MediaGen node does differently as a tool (an AI Agent's, or behind n8n's MCP Server
 * Trigger): it answers within a time budget, and it can be asked for the price only.
 */

/**
 * Default of Tool Time Budget, in seconds. MCP clients give up on a call after 60 s unless they set
 * their own limit (`DEFAULT_REQUEST_TIMEOUT_MSEC` of the official TypeScript SDK); the rest leaves
 * room for n8n's own work on the call and the answer's way back.
 */
export const TOOL_TIME_BUDGET_SECONDS = 50;

export const toolTimeBudget = new NumberOption({
	name: 'toolTimeBudget',
	displayName: 'Tool Time Budget (Seconds)',
	description: `The tool answers within this many seconds of being called. A job still running then is answered with its run ID, status and price, to check later with the MediaGen Run tool; it goes on and is charged once. MCP clients give up on a call after 60 s unless set otherwise.`,
	default: TOOL_TIME_BUDGET_SECONDS,
	min: 1,
	// an hour: no client waits longer for one call
	max: 3600,
	changesRequest: false,
});

export const estimateOnly = new BooleanOption({
	name: 'estimateOnly',
	displayName: 'Estimate Only',
	description:
		'Whether to answer with the price of the call (credits and a quote token) instead of making anything; nothing is charged. Let the model set it (✨, or an expression with $fromAI) so it can show the price before spending.',
	default: false,
	// it turns the operation into its Estimate Cost: the job is then another one anyway
	changesRequest: true,
});

/** Every option this module defines. */
export const TOOL_OPTIONS = [toolTimeBudget, estimateOnly];

/**
 * When a tool call must answer: the node's start plus Tool Time Budget; undefined when the node
 * does not run as a tool. A job still running then is answered with its id (the job goes on).
 */
export function toolDeadlineOf(ctx: IExecuteFunctions, startedAt: number): number | undefined {
	if (!runsAsTool(ctx)) return undefined;
	const raw = ctx.getNodeParameter(toolTimeBudget.name, 0, TOOL_TIME_BUDGET_SECONDS) as unknown;
	const seconds = toolTimeBudget.read(ctx, 0, { [toolTimeBudget.name]: raw } as IDataObject);
	return startedAt + seconds * 1000;
}

/** Whether this tool call asks for the price only (Estimate Only, typically filled by the model). */
export function estimateOnlyAsked(
	ctx: IExecuteFunctions,
	endpoint: Endpoint,
	itemIndex: number,
	asTool = runsAsTool(ctx),
): boolean {
	if (!offersEstimate(endpoint) || !asTool) return false;
	return estimateOnly.readStrict(ctx, itemIndex, {
		[estimateOnly.name]: ctx.getNodeParameter(estimateOnly.name, itemIndex, false),
	} as IDataObject);
}

/** The parameters only a tool shows (n8n's `@tool` display condition), for one operation. */
export function toolOnlyProperties(e: Endpoint): INodeProperties[] {
	const show = { '@tool': [true], resource: [e.resource], operation: [e.operation] };
	const props: INodeProperties[] = [];
	if (e.output === 'run' || e.output === 'batch')
		props.push(toolTimeBudget.property({ displayOptions: { show } }));
	if (offersEstimate(e)) props.push(estimateOnly.property({ displayOptions: { show } }));
	return props;
}
