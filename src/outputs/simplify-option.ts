import type { DisplayCondition, INodeProperties, NodeParameterValue } from 'n8n-workflow';

import { BooleanOption } from '../options/option';

/**
 * The node version from which Simplify is offered, on by default (n8n's convention, as in its
 * Notion, Gmail Trigger or Netlify Trigger nodes). Workflows saved with an older version have no
 * such parameter and keep the full objects the service returns.
 */
export const SIMPLIFY_SINCE = 2;

export const simplify = new BooleanOption({
	name: 'simplify',
	displayName: 'Simplify',
	description: 'Whether to return a simplified version of the response instead of the raw data',
	default: true,
	changesRequest: false,
});

const sinceSimplify: DisplayCondition = { _cnd: { gte: SIMPLIFY_SINCE } };

/**
 * The Simplify switch, shown where `show` holds and from SIMPLIFY_SINCE on. Not on a node that runs
 * as an AI agent's tool: its answers are compact already (src/agents/tool-output.ts).
 */
export function simplifyProperty(
	show: Record<string, Array<NodeParameterValue | DisplayCondition>>,
): INodeProperties {
	return simplify.property({
		displayOptions: { show: { ...show, '@version': [sinceSimplify] }, hide: { '@tool': [true] } },
	});
}

/** Whether the node simplifies: off where the parameter is absent (saved below SIMPLIFY_SINCE). */
export function simplifyOf(get: (name: string, fallback: unknown) => unknown): boolean {
	return get(simplify.name, false) === true;
}
