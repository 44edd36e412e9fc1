import type { DisplayCondition, INodeProperties, NodeParameterValue } from 'n8n-workflow';

/**
 * The node version from which Simplify is offered, on by default (n8n's convention, as in its
 * Notion, Gmail Trigger or Netlify Trigger nodes). Workflows saved with an older version have no
 * such parameter and keep the full objects the service returns.
 */
export const SIMPLIFY_SINCE = 2;

const sinceSimplify: DisplayCondition = { _cnd: { gte: SIMPLIFY_SINCE } };

/**
 * The Simplify switch, shown where `show` holds and from SIMPLIFY_SINCE on. Not on a node that runs
 * as an AI agent's tool: its answers are compact already (src/node/tool-output.ts).
 */
export function simplifyProperty(show: Record<string, Array<NodeParameterValue | DisplayCondition>>): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: 'Whether to return a simplified version of the response instead of the raw data',
		displayOptions: { show: { ...show, '@version': [sinceSimplify] }, hide: { '@tool': [true] } },
	};
}
