import { PollContext } from 'n8n-core';
import {
	Workflow,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeType,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { ensureBinaryData, TestNodeTypes, type TestCredentialsHelper } from './n8n-harness';

export interface PollHarness {
	node: INode;
	/** the items of each execution the polls started, in order */
	executions: INodeExecutionData[][];
	/**
	 * One poll as n8n 2.41.1 runs it (PollTriggerExecutor): poll() in n8n-core's real PollContext;
	 * items start an execution (`__emit`, which saves the static data first); null starts none and
	 * saves nothing. Returns what poll() returned.
	 */
	poll(mode?: WorkflowExecuteMode): Promise<INodeExecutionData[][] | null>;
	/** Publishing the workflow: n8n polls once, then saves the static data whatever the poll did (WorkflowTriggerActivator). */
	activate(): Promise<INodeExecutionData[][] | null>;
	/** n8n restarted: the workflow is built again from what the database holds (what the last emit saved). */
	restart(): void;
	/** the node's static data as the database holds it */
	staticData(): IDataObject;
	/** a PollContext of the current workflow, for calling src/ functions directly */
	context(mode?: WorkflowExecuteMode): PollContext;
}

/**
 * Runs a polling trigger the way n8n's active workflows do, without n8n's server. n8n keeps one
 * Workflow object per activation, whose static data the polls change in memory; it saves it to the
 * database after the activation's poll (workflow-trigger-activator.js) and then only when a poll
 * starts an execution (`__emit` → WorkflowStaticDataService.saveStaticData, n8n 2.41.1
 * trigger-execution-context.factory.js); a restart builds the workflow from the database.
 */
export async function startPollHarness(options: {
	nodeType: INodeType;
	parameters: IDataObject;
	credentials: TestCredentialsHelper;
	credentialType?: 'mediaGenApi' | 'mediaGenOAuth2Api';
}): Promise<PollHarness> {
	await ensureBinaryData();
	const credentialType = options.credentialType ?? 'mediaGenApi';
	const typeName = `CUSTOM.${options.nodeType.description.name}`;
	const node: INode = {
		id: 'poll-1',
		name: 'MediaGen Polling Trigger',
		type: typeName,
		typeVersion: 1,
		position: [0, 0],
		parameters: {
			authentication: credentialType,
			pollTimes: { item: [{ mode: 'everyMinute' }] },
			...options.parameters,
		} as INode['parameters'],
		credentials: {
			[credentialType]: { id: `cred-${credentialType}`, name: 'MediaGen test credential' },
		},
	};
	const nodeTypes = new TestNodeTypes({ [typeName]: options.nodeType });
	let stored = '{}';
	const load = () =>
		new Workflow({
			id: 'wf-poll',
			name: 'Polled renders',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: JSON.parse(stored) as IDataObject,
			settings: { executionOrder: 'v1' },
		});
	let workflow = load();
	const origin = 'http://127.0.0.1:5678';
	const additionalData = {
		credentialsHelper: options.credentials,
		executionId: 'exec-poll',
		currentNodeExecutionIndex: 0,
		restApiUrl: `${origin}/rest`,
		instanceBaseUrl: `${origin}/`,
		webhookBaseUrl: `${origin}/webhook`,
		webhookWaitingBaseUrl: `${origin}/webhook-waiting`,
		webhookTestBaseUrl: `${origin}/webhook-test`,
		variables: {},
		logAiEvent: () => undefined,
	} as unknown as IWorkflowExecuteAdditionalData;
	const executions: INodeExecutionData[][] = [];
	const save = () => {
		if ((workflow.staticData as { __dataChanged?: boolean }).__dataChanged !== true) return;
		stored = JSON.stringify(workflow.staticData);
		(workflow.staticData as { __dataChanged?: boolean }).__dataChanged = false;
	};
	const context = (mode: WorkflowExecuteMode = 'trigger') =>
		new PollContext(workflow, node, additionalData, mode, 'activate', (data) => {
			save();
			executions.push(data[0]);
		});
	const poll = async (mode: WorkflowExecuteMode = 'trigger') => {
		const ctx = context(mode);
		const result = await options.nodeType.poll!.call(ctx);
		if (result !== null && mode !== 'manual') ctx.__emit(result);
		return result;
	};
	return {
		node,
		executions,
		context,
		poll,
		async activate() {
			const result = await poll();
			save();
			return result;
		},
		restart() {
			workflow = load();
		},
		staticData: () =>
			((JSON.parse(stored) as IDataObject)[`node:${node.name}`] ?? {}) as IDataObject,
	};
}
