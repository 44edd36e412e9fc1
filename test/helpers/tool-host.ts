import { WorkflowExecute } from 'n8n-core';
import {
	NodeConnectionTypes,
	Workflow,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeType,
} from 'n8n-workflow';

import {
	buildWorkflow,
	ensureBinaryData,
	startingData,
	TestNodeTypes,
	type RunNodeOptions,
} from './n8n-harness';

/**
 * A MediaGen node as n8n hands it to an AI agent or the MCP Server Trigger: n8n registers
 * `<name>Tool` for every usableAsTool node, with an `ai_tool` output (`connected`: as a caller
 * reaches it through that connection; otherwise run on its own, as n8n 2.41's AI Agent v3 runs it
 * through the workflow engine, isToolExecution() false).
 */
export function asTool(node: INodeType, { connected = false } = {}): INodeType {
	return {
		description: {
			...node.description,
			name: `${node.description.name}Tool`,
			...(connected ? { outputs: [NodeConnectionTypes.AiTool] } : {}),
		},
		methods: node.methods,
		async execute(this: IExecuteFunctions) {
			return await node.execute!.call(this);
		},
	};
}

/** What the host saw of the tool and what one call of it answered. */
export interface ToolCall {
	name: string;
	description: string;
	/** the tool's input schema as JSON Schema keys (from the node's $fromAI() parameters) */
	inputs: string[];
	/** the tool's answer, parsed (n8n hands a caller `JSON.stringify` of the items' json) */
	answer: IDataObject[];
	/** how long the call took, in ms */
	tookMs: number;
}

/**
 * A stand-in for n8n's MCP Server Trigger: a node with a `Tools` input that, like the trigger's
 * direct execution strategy, takes the connected tools through n8n-core (createNodeAsTool,
 * makeHandleToolInvocation: the real way a tool node is run for a caller) and calls one with the
 * arguments a client sent. Every call is an execution of its own, as every MCP request is.
 */
const hostType: INodeType = {
	description: {
		displayName: 'Tool host',
		name: 'toolHost',
		group: ['transform'],
		version: 1,
		description: 'Calls its connected tool once',
		defaults: { name: 'Tool host' },
		inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, displayName: 'Tools' }],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: IExecuteFunctions) {
		const args = this.getInputData()[0].json.args as IDataObject;
		const [tool] = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as Array<{
			name: string;
			description: string;
			schema: { shape?: Record<string, unknown> };
			invoke(args: IDataObject): Promise<string>;
		}>;
		const started = Date.now();
		const answer = await tool.invoke(args);
		return [
			[
				{
					json: {
						name: tool.name,
						description: tool.description,
						inputs: Object.keys(tool.schema.shape ?? {}),
						answer,
						tookMs: Date.now() - started,
					},
				},
			],
		];
	},
};

/** The node (not its tool variant: the host makes that) and how it is set. */
export type ToolHostOptions = Omit<RunNodeOptions, 'input'> & { toolName?: string };

/** Calls the node as a tool once, from a host node, in an execution of its own. */
export async function callTool(options: ToolHostOptions, args: IDataObject): Promise<ToolCall> {
	await ensureBinaryData();
	const toolName = options.toolName ?? 'MediaGen';
	const toolType = asTool(options.nodeType, { connected: true });
	const { workflow: single, additionalData } = buildWorkflow({
		...options,
		nodeType: toolType,
		nodeName: toolName,
	});
	const toolNode = single.getNode(toolName)!;
	const host: INode = {
		id: 'host-1',
		name: 'Tool host',
		type: 'toolHost',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const workflow = new Workflow({
		id: single.id,
		name: single.name,
		nodes: [host, toolNode],
		connections: {
			[toolName]: {
				[NodeConnectionTypes.AiTool]: [
					[{ node: host.name, type: NodeConnectionTypes.AiTool, index: 0 }],
				],
			},
		},
		active: false,
		nodeTypes: new TestNodeTypes({ toolHost: hostType, [toolNode.type]: toolType }),
		settings: { executionOrder: 'v1' },
	});
	const run = await new WorkflowExecute(
		additionalData,
		options.mode ?? 'manual',
		startingData(host, [{ json: { args } }]),
	).processRunExecutionData(workflow);
	const task = run.data.resultData.runData[host.name]?.[0];
	if (task?.error || !task?.data)
		throw task?.error ?? run.data.resultData.error ?? new Error('the tool host did not run');
	const json = task.data.main[0]![0].json as {
		name: string;
		description: string;
		inputs: string[];
		answer: string;
		tookMs: number;
	};
	return { ...json, answer: JSON.parse(json.answer) as IDataObject[] };
}
