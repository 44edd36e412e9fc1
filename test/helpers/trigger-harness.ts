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
	node: INode;
	/**
	 * The node's static data as n8n's database holds it (a copy): what the last activation or delivery
	 * saved. n8n loads it for every webhook request and saves it whole when the node changed it.
	 */
	staticData(): IDataObject;
	/** Replaces what the database holds for the node (e.g. the layout of an earlier version). */
	setStaticData(data: IDataObject): void;
	/** How many times static data was saved (activations and deliveries that changed it). */
	staticDataSaves: number;
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

let harnesses = 0;

/**
 * Runs a webhook trigger node the way n8n does, without n8n's server: its webhookMethods get
 * n8n-core's real HookContext, and a local HTTP server plays n8n's webhook endpoint — it reads the
 * raw body (as n8n's body parser does: `req.rawBody` Buffer, `req.body` parsed JSON), calls the
 * node's webhook() with n8n-core's real WebhookContext, and answers the way n8n would. Static data
 * is kept as n8n 2.41.1 keeps it: each request and activation builds the workflow from a database
 * read of it (I/O: other requests run meanwhile) and, when the node changed it, saves it whole
 * after the node returned (LiveWebhooks.executeWebhook, WorkflowStaticDataService.saveStaticData).
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
	/** n8n's webhook address as the node reports it to the service (default: this harness's server) */
	webhookOrigin?: string;
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
		credentials: {
			[credentialType]: { id: `cred-${credentialType}`, name: 'MediaGen test credential' },
		},
	};
	const nodeTypes = new TestNodeTypes({ [typeName]: options.nodeType });
	// a workflow of its own per harness: the trigger remembers event ids per workflow in the process too
	const workflowId = options.workflowId ?? `wf-trigger-${++harnesses}`;
	/** the workflow row's staticData column (JSON) */
	let storedStaticData = '{}';
	/**
	 * The workflow as n8n 2.41.1 builds it for each webhook request and activation (LiveWebhooks.executeWebhook:
	 * `new Workflow({ staticData: workflowData.staticData })` from a fresh database read).
	 */
	const loadWorkflow = () =>
		new Workflow({
			id: workflowId,
			name: options.workflowName ?? 'Render notifications',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: JSON.parse(storedStaticData) as IDataObject,
			settings: { executionOrder: 'v1' },
		});
	/** WorkflowStaticDataService.saveStaticData: the whole static data, when the node changed it. */
	const saveStaticData = (workflow: Workflow) => {
		if ((workflow.staticData as { __dataChanged?: boolean }).__dataChanged !== true) return;
		storedStaticData = JSON.stringify(workflow.staticData);
		harness.staticDataSaves++;
	};
	const staticDataKey = `node:${node.name}`;
	const databaseRoundTrip = () => new Promise((resolve) => setTimeout(resolve, 5));
	const additionalData = {
		credentialsHelper: options.credentials,
		executionId: 'exec-trigger',
		currentNodeExecutionIndex: 0,
		restApiUrl: `${origin}/rest`,
		instanceBaseUrl: `${origin}/`,
		formBaseUrl: `${origin}/form`,
		formWaitingBaseUrl: `${origin}/form-waiting`,
		formTestBaseUrl: `${origin}/form-test`,
		webhookBaseUrl: `${options.webhookOrigin ?? origin}/webhook`,
		webhookWaitingBaseUrl: `${options.webhookOrigin ?? origin}/webhook-waiting`,
		webhookTestBaseUrl: `${options.webhookOrigin ?? origin}/webhook-test`,
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
		workflowId,
		workflowExecuteAdditionalData: additionalData,
		isTest,
		webhookId: node.webhookId,
	});

	const calls: WebhookCall[] = [];
	const waiters: Array<() => void> = [];
	const serve = (isTest: boolean) => async (req: Request, res: Response) => {
		const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
		Object.assign(req, {
			rawBody,
			body: rawBody.length ? JSON.parse(rawBody.toString('utf8')) : {},
		});
		const mode: WorkflowExecuteMode = isTest ? 'manual' : 'webhook';
		const workflow = loadWorkflow();
		// n8n's database read of the workflow (and its static data) is I/O: other requests go on meanwhile
		await databaseRoundTrip();
		const context = new WebhookContext(
			workflow,
			node,
			{ ...additionalData, httpRequest: req, httpResponse: res },
			mode,
			webhookData(isTest),
			[],
			null,
		);
		const call: WebhookCall = { path: req.path, headers: req.headers, rawBody, status: 0 };
		try {
			const result = await options.nodeType.webhook!.call(context);
			// n8n answers (when the node did not), then saves the static data, then starts the execution
			if (!result.noWebhookResponse)
				res.status(200).json(result.webhookResponse ?? { message: 'Workflow was started' });
			await databaseRoundTrip();
			saveStaticData(workflow);
			if (result.workflowData) call.emitted = result.workflowData[0];
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
	const harness: TriggerHarness = {
		node,
		productionUrl,
		testUrl,
		calls,
		staticDataSaves: 0,
		staticData: () =>
			((JSON.parse(storedStaticData) as IDataObject)[staticDataKey] ?? {}) as IDataObject,
		setStaticData(data) {
			storedStaticData = JSON.stringify({
				...(JSON.parse(storedStaticData) as IDataObject),
				[staticDataKey]: data,
			});
		},
		async hook(method, { test = false } = {}) {
			const activation: WorkflowActivateMode = test ? 'manual' : 'activate';
			const workflow = loadWorkflow();
			const context = new HookContext(
				workflow,
				node,
				additionalData,
				test ? 'manual' : 'trigger',
				activation,
				webhookData(test),
			);
			const result = await options.nodeType.webhookMethods!.default![method].call(context);
			saveStaticData(workflow);
			return result;
		},
		async waitForCalls(count, timeoutMs = 10_000) {
			const end = Date.now() + timeoutMs;
			while (calls.length < count) {
				if (Date.now() > end)
					throw new Error(`expected ${count} webhook calls, got ${calls.length}`);
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
	return harness;
}
