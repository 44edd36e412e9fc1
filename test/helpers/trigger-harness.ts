/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

import express, { type Request, type Response } from 'express';
import { HookContext, WebhookContext } from 'n8n-core';
import {
	Workflow,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeType,
	type IWebhookData,
	type IWorkflowExecuteAdditionalData,
	type WorkflowActivateMode,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { ensureBinaryData, TestNodeTypes, type TestCredentialsHelper } from './n8n-harness';

/** What one request to the trigger's webhook did. */
export interface WebhookCall {
	path: string;
	headers: Record<string, string | string[] | undefined>;
	rawBody: Buffer;
	/** the HTTP status the trigger answered */
	status: number;
	/** the items the trigger emitted (undefined: no execution was started) */
	emitted?: INodeExecutionData[];
}

export interface TriggerHarness {
	workflow: Workflow;
	node: INode;
	/** the trigger's production and test URLs, served by this harness */
	productionUrl: string;
	testUrl: string;
	/** n8n-core's HookContext for checkExists/create/delete, as n8n activates (production) or listens for a test event */
	hook(method: 'checkExists' | 'create' | 'delete', options?: { test?: boolean }): Promise<boolean>;
	/** every request the webhook received, in order */
	calls: WebhookCall[];
	/** resolves with the next `count` calls (waits until they have arrived) */
	waitForCalls(count: number, timeoutMs?: number): Promise<WebhookCall[]>;
	close(): Promise<void>;
}


/**
 * Runs a webhook trigger node the way n8n does, without n8n's server: its webhookMethods get
 * n8n-core's real HookContext, and a local HTTP server plays n8n's webhook endpoint — it reads the
 * raw body (as n8n's body parser does: `req.rawBody` Buffer, `req.body` parsed JSON), calls the
 * node's webhook() with n8n-core's real WebhookContext, and answers the way n8n would.
 */
export async function startTriggerHarness(options: {
	nodeType: INodeType;
	parameters: IDataObject;
	credentials: TestCredentialsHelper;
	credentialType?: 'mediaGenApi' | 'mediaGenOAuth2Api';
	workflowName?: string;
	workflowId?: string;
	/** the node's version as saved in the workflow (default 1) */
	typeVersion?: number;
}): Promise<TriggerHarness> {
	await ensureBinaryData();
	const app = express();
	const server: Server = await new Promise((resolve) => {
		const s = app.listen(0, '127.0.0.1', () => resolve(s));
	});
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const credentialType = options.credentialType ?? 'mediaGenApi';
	const typeName = `CUSTOM.${options.nodeType.description.name}`;
	const node: INode = {
		id: 'trigger-1',
		name: 'MediaGen Trigger',
		type: typeName,
		typeVersion: options.typeVersion ?? 1,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: { authentication: credentialType, ...options.parameters } as INode['parameters'],
		credentials: { [credentialType]: { id: `cred-${credentialType}`, name: 'MediaGen test credential' } },
	};
	const workflow = new Workflow({
		id: options.workflowId ?? 'wf-trigger',
		name: options.workflowName ?? 'Render notifications',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes: new TestNodeTypes({ [typeName]: options.nodeType }),
		settings: { executionOrder: 'v1' },
	});
	const additionalData = {
		credentialsHelper: options.credentials,
		executionId: 'exec-trigger',
		currentNodeExecutionIndex: 0,
		restApiUrl: `${origin}/rest`,
		instanceBaseUrl: `${origin}/`,
		formBaseUrl: `${origin}/form`,
		formWaitingBaseUrl: `${origin}/form-waiting`,
		formTestBaseUrl: `${origin}/form-test`,
		webhookBaseUrl: `${origin}/webhook`,
		webhookWaitingBaseUrl: `${origin}/webhook-waiting`,
		webhookTestBaseUrl: `${origin}/webhook-test`,
		mcpBaseUrl: `${origin}/mcp`,
		mcpTestBaseUrl: `${origin}/mcp-test`,
		variables: {},
		logAiEvent: () => undefined,
	} as unknown as IWorkflowExecuteAdditionalData;
	const description = options.nodeType.description.webhooks![0];
	const webhookData = (isTest: boolean): IWebhookData => ({
		httpMethod: 'POST',
		node: node.name,
		path: `${node.webhookId}/${String(description.path)}`,
		webhookDescription: description,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
		isTest,
		webhookId: node.webhookId,
	});

	const calls: WebhookCall[] = [];
	const waiters: Array<() => void> = [];
	const serve = (isTest: boolean) => async (req: Request, res: Response) => {
		const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
		Object.assign(req, { rawBody, body: rawBody.length ? JSON.parse(rawBody.toString('utf8')) : {} });
		const mode: WorkflowExecuteMode = isTest ? 'manual' : 'webhook';
		const context = new WebhookContext(workflow, node, { ...additionalData, httpRequest: req, httpResponse: res }, mode, webhookData(isTest), [], null);
		const call: WebhookCall = { path: req.path, headers: req.headers, rawBody, status: 0 };
		try {
			const result = await options.nodeType.webhook!.call(context);
			if (result.workflowData) call.emitted = result.workflowData[0];
			if (!result.noWebhookResponse) res.status(200).json(result.webhookResponse ?? { message: 'Workflow was started' });
		} catch (error) {
			res.status(500).json({ message: (error as Error).message });
		}
		call.status = res.statusCode;
		calls.push(call);
		for (const wake of waiters.splice(0)) wake();
	};
	app.post('/webhook/*path', express.raw({ type: () => true }), serve(false));
	app.post('/webhook-test/*path', express.raw({ type: () => true }), serve(true));

	const productionUrl = `${origin}/webhook/${node.webhookId}/${String(description.path)}`;
	const testUrl = `${origin}/webhook-test/${node.webhookId}/${String(description.path)}`;
	return {
		workflow,
		node,
		productionUrl,
		testUrl,
		calls,
		async hook(method, { test = false } = {}) {
			const activation: WorkflowActivateMode = test ? 'manual' : 'activate';
			const context = new HookContext(workflow, node, additionalData, test ? 'manual' : 'trigger', activation, webhookData(test));
			return await options.nodeType.webhookMethods!.default![method].call(context);
		},
		async waitForCalls(count, timeoutMs = 10_000) {
			const end = Date.now() + timeoutMs;
			while (calls.length < count) {
				if (Date.now() > end) throw new Error(`expected ${count} webhook calls, got ${calls.length}`);
				await new Promise<void>((resolve) => {
					waiters.push(resolve);
					setTimeout(resolve, 50);
				});
			}
			return calls.slice(0, count);
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
