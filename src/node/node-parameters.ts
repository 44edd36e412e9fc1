import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { runsAsTool } from '../agents/tool-output';

/** Whether a raw parameter value (as saved in the workflow) holds an expression anywhere. */
function holdsExpression(raw: unknown): boolean {
	if (typeof raw === 'string') return raw.startsWith('=');
	if (Array.isArray(raw)) return raw.some(holdsExpression);
	if (raw && typeof raw === 'object') return Object.values(raw).some(holdsExpression);
	return false;
}

/**
 * A node's parameters as read for each item. A parameter without an expression has the same value
 * for every item, so it is read from n8n once: n8n resolves each read on its own, which a CPU profile of n8n
 * running the node shows as a visible cost at many items (bench/README.md).
 * Values are shared between items: read them, never change them.
 */
export class NodeParameters {
	private readonly fixed = new Map<string, unknown>();
	/** the node as saved (n8n copies it on every `getNode()`: read once) */
	private readonly node: INode;
	/** whether the node runs as an AI agent's tool */
	readonly asTool: boolean;

	constructor(private readonly ctx: IExecuteFunctions) {
		this.node = ctx.getNode();
		this.asTool = runsAsTool(ctx);
	}

	get(name: string, itemIndex: number, fallback?: unknown): unknown {
		if (this.fixed.has(name)) return this.fixed.get(name);
		const value: unknown = this.ctx.getNodeParameter(name, itemIndex, fallback as string);
		if (!holdsExpression(this.node.parameters[name])) this.fixed.set(name, value);
		return value;
	}

	/** whether the workflow saved a value for this parameter */
	saved(name: string): boolean {
		return Object.prototype.hasOwnProperty.call(this.node.parameters, name);
	}
}
