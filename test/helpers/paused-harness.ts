/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import express, { type Request, type Response } from 'express';
import { WebhookContext, WorkflowExecute } from 'n8n-core';
import type {
	INodeType,
	IRun,
	IRunExecutionData,
	IWebhookData,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import {
	buildWorkflow,
	ensureBinaryData,
	startingData,
	type NodeRun,
	type RunNodeOptions,
} from './n8n-harness';

/** One delivery the waiting-webhook endpoint received. */
export interface Delivery {
	executionId: string;
	status: number;
	body: unknown;
	/** whether the node's webhook resumed the execution */
	resumed: boolean;
	/** when it arrived (ms since epoch) */
	at: number;
	/** its X-Service-Event header */
	event?: string;
	/** how long the node's webhook took (what the delivery held n8n's main for) */
	webhookMs: number;
	/** when the node answered it (a resuming delivery answers before it downloads the outputs) */
	answeredAt?: number;
}

interface Execution {
	workflow: Workflow;
	additionalData: IWorkflowExecuteAdditionalData;
	nodeType: INodeType;
	nodeName: string;
	mode: WorkflowExecuteMode;
	run: IRun;
	status: 'waiting' | 'running' | 'done' | 'canceled';
	onDone: Array<(run: NodeRun) => void>;
	/** when the node's webhook returned the items it resumes with */
	resumedAt?: number;
	/** how long WorkflowExecute ran: until the node paused, and after it resumed (what a worker is held for) */
	runMs: number[];
}

function nodeRunOf(run: IRun, name: string): NodeRun {
	const taskData = run.data.resultData.runData[name]?.[0];
	return {
		items: taskData?.data?.main?.[0] ?? [],
		error: (taskData?.error ?? run.data.resultData.error) as NodeRun['error'],
		run,
	};
}

/** What n8n keeps of an execution in its database: JSON (no shared objects, dates as strings). */
const stored = (data: IRunExecutionData) => JSON.parse(JSON.stringify(data)) as IRunExecutionData;

/**
 * n8n's side of a paused execution, without n8n's server: runs a node with n8n-core's WorkflowExecute;
 * when it pauses, a local HTTP server plays n8n's `/webhook-waiting/:executionId` endpoint the way
 * n8n 2.41's WaitingWebhooks does (disables the waiting node, drops its waiting run data, calls the
 * node's webhook() in n8n-core's real WebhookContext with the stored execution, and — when it
 * returns items — runs the execution on with them as the node's output). `deadline()` resumes it
 * the way n8n's wait tracker does (WorkflowExecute with the stored data: the node passes its stored
 * input through).
 */
export class PausedExecutionHost {
	readonly deliveries: Delivery[] = [];
	readonly baseUrl: string;
	private readonly executions = new Map<string, Execution>();

	private constructor(private readonly server: Server) {
		this.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook-waiting`;
	}

	static async start(): Promise<PausedExecutionHost> {
		await ensureBinaryData();
		const app = express();
		const server: Server = await new Promise((resolve) => {
			const s = app.listen(0, '127.0.0.1', () => resolve(s));
		});
		const host = new PausedExecutionHost(server);
		app.post(
			'/webhook-waiting/:executionId{/:suffix}',
			express.raw({ type: () => true }),
			(req, res) => void host.serve(req, res),
		);
		return host;
	}

	async close(): Promise<void> {
		await new Promise((resolve) => this.server.close(resolve));
	}

	/**
	 * Runs the node as the harness's runNode does, with `$execution.resumeUrl` pointing at this host
	 * and the operation's own Wait Mode default (not the harness's in-execution one).
	 */
	async run(options: RunNodeOptions): Promise<NodeRun & { executionId: string }> {
		const parameters = { waitMode: undefined, ...options.parameters };
		const { workflow, node, additionalData, name } = buildWorkflow({
			...options,
			parameters,
			webhookWaitingBaseUrl: options.webhookWaitingBaseUrl ?? this.baseUrl,
		});
		const executionId = String(additionalData.executionId);
		const mode = options.mode ?? 'manual';
		const data = startingData(node, options.input);
		const started = Date.now();
		const run = await new WorkflowExecute(additionalData, mode, data).processRunExecutionData(
			workflow,
		);
		const execution: Execution = {
			workflow,
			additionalData,
			nodeType: options.nodeType,
			nodeName: name,
			mode,
			run,
			status: run.waitTill ? 'waiting' : 'done',
			onDone: [],
			runMs: [Date.now() - started],
		};
		this.executions.set(executionId, execution);
		return { ...nodeRunOf(run, name), executionId };
	}

	status(executionId: string): Execution['status'] | undefined {
		return this.executions.get(executionId)?.status;
	}

	/** When the node's webhook returned its outputs (the execution resumed), in ms since epoch. */
	resumedAt(executionId: string): number | undefined {
		return this.executions.get(executionId)?.resumedAt;
	}

	/** How long each WorkflowExecute of the execution ran (ms): before the pause, after the resume. */
	runTimes(executionId: string): number[] {
		return [...(this.executions.get(executionId)?.runMs ?? [])];
	}

	/** The execution's run once it is done (resumed by a delivery or at its deadline). */
	finished(executionId: string, timeoutMs = 30_000): Promise<NodeRun> {
		const execution = this.executions.get(executionId)!;
		if (execution.status === 'done')
			return Promise.resolve(nodeRunOf(execution.run, execution.nodeName));
		return new Promise((resolve, reject) => {
			const timer = setTimeout(
				() => reject(new Error(`execution ${executionId} did not finish within ${timeoutMs} ms`)),
				timeoutMs,
			);
			execution.onDone.push((run) => {
				clearTimeout(timer);
				resolve(run);
			});
		});
	}

	/** Resumes a paused execution as n8n's wait tracker does at its deadline. */
	async deadline(executionId: string): Promise<NodeRun> {
		const execution = this.executions.get(executionId)!;
		if (execution.status !== 'waiting')
			throw new Error(`execution ${executionId} is ${execution.status}`);
		execution.status = 'running';
		return await this.runOn(execution, stored(execution.run.data));
	}

	/** Cancels a paused execution as n8n's stop does (ExecutionService.stopDuringRun): it stays, with an error. */
	cancel(executionId: string): void {
		const execution = this.executions.get(executionId)!;
		if (execution.status !== 'waiting')
			throw new Error(`execution ${executionId} is ${execution.status}`);
		execution.status = 'canceled';
	}

	/** Deletes an execution, as n8n does when a user or the pruning deletes it. */
	forget(executionId: string): void {
		this.executions.delete(executionId);
	}

	/** The stored execution of a paused node (what n8n's database holds). */
	storedData(executionId: string): IRunExecutionData {
		return stored(this.executions.get(executionId)!.run.data);
	}

	private async runOn(execution: Execution, data: IRunExecutionData): Promise<NodeRun> {
		const started = Date.now();
		execution.run = await new WorkflowExecute(
			execution.additionalData,
			execution.mode,
			data,
		).processRunExecutionData(execution.workflow);
		execution.runMs.push(Date.now() - started);
		execution.status = execution.run.waitTill ? 'waiting' : 'done';
		const result = nodeRunOf(execution.run, execution.nodeName);
		if (execution.status === 'done') for (const done of execution.onDone.splice(0)) done(result);
		return result;
	}

	private async serve(req: Request, res: Response): Promise<void> {
		const at = Date.now();
		const executionId = String(req.params.executionId);
		const execution = this.executions.get(executionId);
		const event = req.get('x-service-event');
		let answeredAt: number | undefined;
		const record = (status: number, body: unknown, resumed = false) =>
			this.deliveries.push({
				executionId,
				status,
				body,
				resumed,
				at,
				event,
				webhookMs: Date.now() - at,
				answeredAt: answeredAt ?? Date.now(),
			});
		// n8n 2.41.1's answers for an execution that is not waiting (WaitingWebhooks.executeWebhook), word for word
		const refusal = !execution
			? { code: 404, message: `The execution "${executionId}" does not exist.` }
			: execution.status === 'running'
				? { code: 409, message: `The execution "${executionId}" is running already.` }
				: execution.status === 'canceled'
					? { code: 409, message: `The execution "${executionId}" has finished with error.` }
					: execution.status === 'done'
						? { code: 409, message: `The execution "${executionId} has finished already.` }
						: undefined;
		// a waiting execution whose node has no webhook on that path (every MediaGen node's is '')
		const noSuchWebhook = req.params.suffix
			? {
					code: 404,
					message: `The workflow for execution "${executionId}" does not contain a waiting webhook with a matching path/method.`,
				}
			: undefined;
		const answer = refusal ?? noSuchWebhook;
		if (!execution || answer) {
			res.status(answer!.code).json(answer);
			return void record(answer!.code, answer);
		}
		const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
		Object.assign(req, {
			rawBody,
			body: rawBody.length ? JSON.parse(rawBody.toString('utf8')) : {},
		});
		const data = stored(execution.run.data);
		const entry = data.executionData!.nodeExecutionStack[0];
		entry.node.disabled = true;
		data.waitTill = undefined;
		data.resultData.runData[execution.nodeName].pop();
		const node = execution.workflow.getNode(execution.nodeName)!;
		const description = execution.nodeType.description.webhooks!.find(
			(w) => w.restartWebhook === true,
		)!;
		const webhookData: IWebhookData = {
			httpMethod: 'POST',
			node: node.name,
			path: '',
			webhookDescription: description,
			workflowId: String(execution.workflow.id),
			workflowExecuteAdditionalData: execution.additionalData,
		};
		const sent: { status?: number; body?: unknown } = {};
		const original = { status: res.status.bind(res), json: res.json.bind(res) };
		res.status = (code: number) => ((sent.status = code), original.status(code));
		res.json = (body: unknown) => (
			(sent.body = body),
			(answeredAt ??= Date.now()),
			original.json(body)
		);
		const context = new WebhookContext(
			execution.workflow,
			node,
			{ ...execution.additionalData, httpRequest: req, httpResponse: res },
			execution.mode,
			webhookData,
			[],
			data,
		);
		try {
			const result = await execution.nodeType.webhook!.call(context);
			if (!result.noWebhookResponse && !res.headersSent)
				res.status(200).json(result.webhookResponse ?? { message: 'Workflow was started' });
			if (!result.workflowData) return void record(sent.status ?? 200, sent.body);
			execution.status = 'running';
			execution.resumedAt = Date.now();
			record(sent.status ?? 200, sent.body, true);
			entry.data.main = result.workflowData;
			entry.metadata = { ...entry.metadata, forwardAllOutputs: true };
			await this.runOn(execution, data);
		} catch (error) {
			if (!res.headersSent) res.status(500).json({ message: (error as Error).message });
			record(500, { message: (error as Error).message });
		}
	}
}
