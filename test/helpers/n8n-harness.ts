/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { createReadStream, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { Container } from '@n8n/di';
import {
	BinaryDataService,
	Credentials,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	StorageConfig,
	WorkflowExecute,
} from 'n8n-core';
import {
	ICredentialsHelper,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IDataObject,
	type IBinaryData,
	type IHttpRequestHelper,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeExecutionData,
	type INodeType,
	type INodeTypes,
	type IRun,
	type IRunExecutionData,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { MediaGenApi } from '../../credentials/MediaGenApi.credentials';
import { MediaGenOAuth2Api } from '../../credentials/MediaGenOAuth2Api.credentials';

const credentialTypes: Record<string, ICredentialType> = {
	mediaGenApi: new MediaGenApi(),
	mediaGenOAuth2Api: new MediaGenOAuth2Api(),
};

/** Resolves `={{ … }}` credential expressions the way n8n does for $self / $credentials (test-only). */
function resolveExpression(value: unknown, data: IDataObject): unknown {
	if (typeof value !== 'string' || !value.startsWith('=')) return value;
	return value.slice(1).replace(/\{\{([\s\S]+?)\}\}/g, (_, expr: string) => {
		const evaluate = new Function('$self', '$credentials', `return (${expr});`) as (
			a: IDataObject,
			b: IDataObject,
		) => unknown;
		return String(evaluate(data, data));
	});
}

/**
 * A credentials helper that behaves like n8n's for our two types: defaults and `={{…}}`
 * expressions resolved, `authenticate` applied, expirable tokens fetched and stored back.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	readonly store = new Map<string, ICredentialDataDecryptedObject>();
	/** tokens a credential fetched itself (preAuthentication) and stored */
	tokenUpdates = 0;
	/** how often n8n asked for a decrypted credential (each costs a database read and a decryption in n8n) */
	decryptions = 0;

	set(type: string, data: ICredentialDataDecryptedObject): void {
		this.store.set(type, { ...data });
	}

	getParentTypes(name: string): string[] {
		return credentialTypes[name]?.extends ?? [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	getCredentialsProperties(type: string) {
		return credentialTypes[type]?.properties ?? [];
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const type = credentialTypes[typeName];
		const auth = type?.authenticate;
		if (!auth) return requestOptions;
		if (typeof auth === 'function') return await auth.call(type, credentials, requestOptions);
		const headers = { ...(requestOptions.headers ?? {}) } as IDataObject;
		for (const [name, template] of Object.entries(auth.properties.headers ?? {})) {
			headers[name] = resolveExpression(template, credentials) as string;
		}
		return { ...requestOptions, headers };
	}

	/**
	 * As n8n's CredentialsHelper (packages/cli credentials-helper.ts, 2.8 and 2.41 alike): a type
	 * with a hidden `expirable` property gets its preAuthentication called when that property is
	 * empty or the request helper saw a 401; the output is stored with the credential.
	 */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = credentialTypes[typeName];
		const expirable = type?.properties.find(
			(p) => p.type === 'hidden' && p.typeOptions?.expirable === true,
		);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;
		const output = await type.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined || !node.credentials) return undefined;
		this.tokenUpdates++;
		await this.updateCredentials(node.credentials[typeName], typeName, {
			...(this.store.get(typeName) ?? {}),
			...output,
		} as ICredentialDataDecryptedObject);
		return Object.assign(credentials, output) as ICredentialDataDecryptedObject;
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	) {
		const type = credentialTypes[typeName];
		if (typeof type?.preAuthentication !== 'function') return undefined;
		return (
			((await type.preAuthentication.call(helpers, credentials)) as
				| ICredentialDataDecryptedObject
				| undefined) ?? undefined
		);
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails) {
		return new Credentials({ id: nodeCredentials.id ?? null, name: nodeCredentials.name }, '', '');
	}

	async getDecrypted(
		_a: IWorkflowExecuteAdditionalData,
		_n: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		this.decryptions++;
		const stored = this.store.get(type) ?? {};
		const data: IDataObject = {};
		for (const p of credentialTypes[type]?.properties ?? [])
			data[p.name] = (stored[p.name] ?? p.default) as IDataObject[string];
		Object.assign(data, stored);
		for (const [k, v] of Object.entries(data))
			data[k] = resolveExpression(v, data) as IDataObject[string];
		return data as ICredentialDataDecryptedObject;
	}

	async updateCredentials(
		_n: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.store.set(type, { ...data });
	}

	async updateCredentialsOauthTokenData(
		_n: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.store.set(type, { ...(this.store.get(type) ?? {}), oauthTokenData: data.oauthTokenData });
	}
}

/** Node types of a test workflow: just the nodes under test. */
export class TestNodeTypes implements INodeTypes {
	constructor(private readonly types: Record<string, INodeType>) {}

	getByName(type: string): INodeType {
		return this.types[type];
	}

	getByNameAndVersion(type: string): INodeType {
		return this.types[type];
	}

	getKnownTypes() {
		return {};
	}
}

let binaryReady: Promise<void> | undefined;

/** n8n keeps binary data through its BinaryDataService ("default" = in memory). */
export async function ensureBinaryData(): Promise<void> {
	binaryReady ??= Container.get(BinaryDataService).init();
	await binaryReady;
}

export interface NodeRun {
	/** items of the node's first output */
	items: INodeExecutionData[];
	/** the node's error when it failed (without Continue On Fail) */
	error?: Error & { description?: string; context?: IDataObject };
	run: IRun;
}

export interface RunNodeOptions {
	nodeType: INodeType;
	parameters: IDataObject;
	input?: INodeExecutionData[];
	credentials: TestCredentialsHelper;
	credentialType?: 'mediaGenApi' | 'mediaGenOAuth2Api';
	settings?: Partial<
		Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries' | 'continueOnFail' | 'onError'>
	>;
	executionId?: string;
	workflowId?: string;
	nodeName?: string;
	/** the node's id in the workflow (default node-1); n8n keeps it when a node is renamed */
	nodeId?: string;
	/** the node's version as saved in the workflow (default 1) */
	typeVersion?: number;
	/** receives a function that cancels the execution, as the editor's Stop button does */
	onStarted?: (cancel: () => void) => void;
	/** n8n's waiting-webhook base URL (where `$execution.resumeUrl` points); default an address nothing listens on */
	webhookWaitingBaseUrl?: string;
	/** the execution mode (default manual; `n8n execute` runs in cli) */
	mode?: WorkflowExecuteMode;
}

let executionCounter = 0;

export function buildWorkflow(options: RunNodeOptions) {
	const name = options.nodeName ?? 'MediaGen';
	const typeName = `CUSTOM.${options.nodeType.description.name}`;
	const credentialType = options.credentialType ?? 'mediaGenApi';
	const node: INode = {
		id: options.nodeId ?? 'node-1',
		name,
		type: typeName,
		typeVersion: options.typeVersion ?? 1,
		position: [0, 0],
		// Waits happen in the execution unless a test asks for a paused one (test/nodes/paused-wait.test.ts):
		// the harness runs one execution and cannot resume a paused one by itself.
		parameters: {
			authentication: credentialType,
			waitMode: 'inExecution',
			...options.parameters,
		} as INode['parameters'],
		credentials: {
			[credentialType]: { id: `cred-${credentialType}`, name: 'MediaGen test credential' },
		},
		...options.settings,
	};
	const workflow = new Workflow({
		id: options.workflowId ?? 'wf-test',
		name: 'test',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new TestNodeTypes({ [typeName]: options.nodeType }),
		settings: { executionOrder: 'v1' },
	});
	const executionId = options.executionId ?? `exec-${++executionCounter}`;
	const hooks = new ExecutionLifecycleHooks('manual', executionId, {
		id: workflow.id,
		name: 'test',
		nodes: [node],
		connections: {},
		active: false,
		settings: {},
		createdAt: new Date(),
		updatedAt: new Date(),
		isArchived: false,
		activeVersionId: null,
	} as never);
	const additionalData = {
		credentialsHelper: options.credentials,
		hooks,
		executionId,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formBaseUrl: 'http://127.0.0.1:5678/form',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: options.webhookWaitingBaseUrl ?? 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
		variables: {},
		logAiEvent: () => undefined,
		executeWorkflow: async () => {
			throw new Error('not available in tests');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: async () => {
			throw new Error('not available in tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
	return { workflow, node, additionalData, name };
}

/** A new execution's data: the node first on the stack, with the given input items. */
export function startingData(
	node: INode,
	input: INodeExecutionData[] = [{ json: {} }],
): IRunExecutionData {
	return {
		version: 1,
		startData: {},
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			nodeExecutionStack: [{ node, data: { main: [input] }, source: null }],
			waitingExecution: {},
			waitingExecutionSource: {},
		},
	} as unknown as IRunExecutionData;
}

/**
 * Runs one of our nodes with n8n-core's real WorkflowExecute (Retry On Fail, Continue On Fail,
 * binary data and credential helpers as in n8n), starting from the given input items.
 */
export async function runNode(options: RunNodeOptions): Promise<NodeRun> {
	await ensureBinaryData();
	const { workflow, node, additionalData, name } = buildWorkflow(options);
	const runExecutionData = startingData(node, options.input);
	const execute = new WorkflowExecute(additionalData, options.mode ?? 'manual', runExecutionData);
	const running = execute.processRunExecutionData(workflow);
	options.onStarted?.(() => running.cancel());
	const run = await running;
	const taskData = run.data.resultData.runData[name]?.[0];
	const items = taskData?.data?.main?.[0] ?? [];
	return { items, error: (taskData?.error ?? run.data.resultData.error) as NodeRun['error'], run };
}

/**
 * n8n's "Retry" of a failed execution, as packages/cli's ExecutionService.retry does it (n8n
 * 2.41.1): a new execution (new id, mode `retry`) of a copy of the failed one's data — node
 * contexts included — without its error and without the failed node's errored run, so the node runs
 * again from the execution stack. With `loadWorkflow` (the editor's "Retry with currently saved
 * workflow", the public API's `loadWorkflow: true`) the stack's node is the saved workflow's node:
 * pass its current parameters in `options`; without it the stack keeps the node as it ran.
 */
export async function retryExecution(
	failed: NodeRun,
	options: RunNodeOptions & { loadWorkflow: boolean },
): Promise<NodeRun> {
	await ensureBinaryData();
	// what n8n keeps in its database and reads back
	const data = JSON.parse(JSON.stringify(failed.run.data)) as IRunExecutionData;
	delete data.resultData.error;
	const last = data.resultData.lastNodeExecuted;
	const runs = last ? data.resultData.runData[last] : undefined;
	if (runs?.length && runs[runs.length - 1].error !== undefined) runs.pop();
	const { workflow, node, additionalData, name } = buildWorkflow(options);
	if (options.loadWorkflow)
		for (const entry of data.executionData!.nodeExecutionStack)
			if (entry.node.name === node.name) entry.node = node;
	const run = await new WorkflowExecute(additionalData, 'retry', data).processRunExecutionData(
		workflow,
	);
	const taskData = run.data.resultData.runData[name]?.at(-1);
	const items = taskData?.data?.main?.[0] ?? [];
	return { items, error: (taskData?.error ?? run.data.resultData.error) as NodeRun['error'], run };
}

/** The bytes of an output binary, however n8n stored them. */
export async function binaryBytes(binary: IBinaryData): Promise<Buffer> {
	return await Container.get(BinaryDataService).getAsBuffer(binary);
}

/** An input binary kept in n8n's binary storage (on disk here), as an earlier node of the workflow would leave it. */
export async function storedBinary(
	bytes: Buffer,
	mimeType: string,
	fileName: string,
	workflowId = 'wf-test',
	executionId = 'exec-input',
): Promise<IBinaryData> {
	await ensureBinaryData();
	return await Container.get(BinaryDataService).store(
		{ type: 'execution', workflowId, executionId },
		bytes,
		{ data: '', mimeType, fileName },
	);
}

/** An input binary stored from a file on disk, streamed (a big file never sits in memory). */
export async function storedBinaryFromFile(
	path: string,
	mimeType: string,
	fileName: string,
	workflowId = 'wf-test',
	executionId = 'exec-input',
): Promise<IBinaryData> {
	await ensureBinaryData();
	return await Container.get(BinaryDataService).store(
		{ type: 'execution', workflowId, executionId },
		createReadStream(path),
		{ data: '', mimeType, fileName },
	);
}

/** Files n8n's binary storage holds for an execution (temporary files of unfinished writes included). */
export function storedBinaryFiles(workflowId: string, executionId: string): string[] {
	const dir = join(
		Container.get(StorageConfig).storagePath,
		'workflows',
		workflowId,
		'executions',
		executionId,
		'binary_data',
	);
	try {
		return readdirSync(dir);
	} catch {
		return [];
	}
}

type EditorMethodOptions = Omit<RunNodeOptions, 'input' | 'settings'> & { method: string };

/** n8n-core's LoadOptionsContext for a node, with the node's parameters as the editor's current ones. */
function editorContext(options: EditorMethodOptions) {
	const { workflow, node, additionalData } = buildWorkflow(options);
	(additionalData as { currentNodeParameters?: unknown }).currentNodeParameters = node.parameters;
	return new LoadOptionsContext(workflow, node, additionalData, 'parameters');
}

/** Calls one of a node's loadOptions methods through n8n-core's LoadOptionsContext, as the editor does. */
export async function loadOptions(options: EditorMethodOptions) {
	const method = options.nodeType.methods?.loadOptions?.[options.method];
	if (!method) throw new Error(`no loadOptions method ${options.method}`);
	return await method.call(editorContext(options));
}

/** Evaluates an expression of a node's description (e.g. its subtitle) for a node with these parameters. */
export function evaluateForNode(
	options: Pick<RunNodeOptions, 'nodeType' | 'parameters'>,
	expression: string,
): unknown {
	const { workflow, node } = buildWorkflow({ ...options, credentials: undefined as never });
	return workflow.expression.getSimpleParameterValue(node, expression, 'internal', {});
}

/** Calls one of a node's listSearch methods (a resource locator's "From List"), as the editor does. */
export async function listSearch(options: EditorMethodOptions & { filter?: string }) {
	const method = options.nodeType.methods?.listSearch?.[options.method];
	if (!method) throw new Error(`no listSearch method ${options.method}`);
	return await method.call(editorContext(options), options.filter);
}
