/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { LedgerEntry, RequestLogEntry } from '../../sandbox/state';
import type { ChatRequest, RecordedRequest, Turn } from '../helpers/fake-openai-chat';

export const REPO = join(__dirname, '..', '..');
export const HOST_DIR = join(REPO, 'test', 'n8n-host');
export const ARTIFACTS = join(REPO, 'test', 'artifacts');

/** What the global setup started, for the test files (written to a JSON file, path in the env). */
export interface E2eState {
	/** set when n8n cannot be installed here: the e2e tests are skipped with this reason */
	skip?: string;
	n8nVersion: string;
	n8nUrl: string;
	userFolder: string;
	extensionsDir: string;
	owner: { email: string; password: string };
	apiKey: string;
	sandbox: { origin: string; baseUrl: string };
	/** the fake OpenAI-compatible chat API the agent example's model talks to (test/helpers/fake-openai-chat.ts) */
	fakeOpenAi: { origin: string; baseUrl: string };
	credentials: {
		full: { id: string; name: string };
		narrow: { id: string; name: string };
		openAi: { id: string; name: string };
	};
	/** example file slug → workflow id in n8n */
	examples: Record<string, string>;
	/** examples/*.json not loaded because their nodes are not in this build → reason */
	skippedExamples: Record<string, string>;
	/** example 04 with the narrow-key credential */
	narrowKeyWorkflowId: string;
	/** a Manual Trigger → MediaGen Image workflow for the browser test to edit */
	editorWorkflowId: string;
	startupMs: number;
}

export const STATE_ENV = 'MEDIAGEN_E2E_STATE';

export function readE2eState(): E2eState {
	const file = process.env[STATE_ENV];
	if (!file || !existsSync(file))
		throw new Error(
			`${STATE_ENV} is not set: run the e2e tests through jest (the e2e project's global setup)`,
		);
	return JSON.parse(readFileSync(file, 'utf8')) as E2eState;
}

/** `describe`, or `describe.skip` when the global setup could not install n8n (message printed there). */
export function describeWithN8n(name: string, fn: () => void): void {
	const state = readE2eState();
	(state.skip ? describe.skip : describe)(name, fn);
}

export interface N8nItem {
	json: Record<string, unknown>;
	binary?: Record<
		string,
		{ mimeType: string; fileName?: string; id?: string; data?: string; fileSize?: string }
	>;
	pairedItem?: unknown;
}

export interface N8nRun {
	status: string;
	data: {
		resultData: {
			runData: Record<
				string,
				Array<{ data?: { main: N8nItem[][] }; error?: { message: string; description?: string } }>
			>;
			error?: {
				message: string;
				description?: string;
				node?: { name: string };
				context?: Record<string, unknown>;
			};
		};
	};
}

const RUN_MARKER = '@@MEDIAGEN_RUN@@';

/** `n8n execute --id=<id>` against the shared instance's database (through test/n8n-host/execute.mjs). */
export function executeWorkflow(state: E2eState, id: string): Promise<N8nRun> {
	const args = [
		join(HOST_DIR, 'execute.mjs'),
		'--id',
		id,
		'--user-folder',
		state.userFolder,
		'--extensions',
		state.extensionsDir,
	];
	return new Promise((resolve, reject) => {
		execFile(
			process.execPath,
			args,
			{ maxBuffer: 256 * 1024 * 1024, timeout: 240_000 },
			(error, stdout, stderr) => {
				const line = stdout.split('\n').find((l) => l.startsWith(RUN_MARKER));
				if (line) return resolve(JSON.parse(line.slice(RUN_MARKER.length)) as N8nRun);
				reject(
					new Error(
						`n8n execute --id=${id} gave no run: ${error?.message ?? ''}\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`,
					),
				);
			},
		);
	});
}

/** Items a node output in a run (first run of the node, first output). */
export function outputOf(run: N8nRun, node: string): N8nItem[] {
	const runs = run.data.resultData.runData[node];
	if (!runs)
		throw new Error(
			`node "${node}" did not run; ran: ${Object.keys(run.data.resultData.runData).join(', ')}`,
		);
	return runs[0].data?.main[0] ?? [];
}

/**
 * The bytes of a binary n8n kept: on disk (`filesystem-v2:<path>` under the user folder's storage),
 * or inline base64 in the default mode.
 */
export function binaryBytes(state: E2eState, binary: { id?: string; data?: string }): Buffer {
	if (binary.id) {
		const [mode, path] = binary.id.split(/:(.*)/s);
		if (!mode.startsWith('filesystem'))
			throw new Error(`binary data mode ${mode} is not readable from the test`);
		return readFileSync(join(state.userFolder, '.n8n', 'storage', path));
	}
	return Buffer.from(binary.data ?? '', 'base64');
}

/** The sandbox's test-only admin API (/_sandbox/ledger, /_sandbox/requests, ...). */
export async function sandboxAdmin<T = { data: unknown[] }>(
	state: E2eState,
	path: string,
): Promise<T> {
	const res = await fetch(`${state.sandbox.origin}/_sandbox${path}`);
	if (!res.ok) throw new Error(`GET /_sandbox${path}: HTTP ${res.status}`);
	return (await res.json()) as T;
}

/** The sandbox's charges so far, oldest first. */
export const ledger = async (state: E2eState) =>
	(await sandboxAdmin<{ data: LedgerEntry[] }>(state, '/ledger')).data;

/** Every request the sandbox received so far, oldest first. */
export const sandboxRequests = async (state: E2eState) =>
	(await sandboxAdmin<{ data: RequestLogEntry[] }>(state, '/requests')).data;

/** The next chat requests of the suite's fake OpenAI-compatible API are answered by these turns. */
export async function scriptChat(state: E2eState, turns: Turn[]): Promise<void> {
	const res = await fetch(`${state.fakeOpenAi.origin}/_fake/script`, {
		method: 'PUT',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ turns }),
	});
	if (!res.ok) throw new Error(`scripting the fake: HTTP ${res.status}`);
}

/** The chat completion requests the fake received so far (what the model was asked). */
export async function chatRequests(state: E2eState): Promise<ChatRequest[]> {
	const { data } = (await (await fetch(`${state.fakeOpenAi.origin}/_fake/requests`)).json()) as {
		data: RecordedRequest[];
	};
	return data
		.filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions')
		.map((r) => r.body as ChatRequest);
}

/** A webhook endpoint at the service. */
export interface ServiceEndpoint {
	id: string;
	url: string;
	events: string[];
	status: string;
}

/** An execution as n8n's public API lists it (with includeData=true). */
export interface N8nExecution {
	id: string;
	status: string;
	mode: string;
	data?: {
		resultData: {
			runData: Record<
				string,
				Array<{
					data?: { main: N8nItem[][] };
					error?: { message: string };
					hints?: Array<{ message: string }>;
				}>
			>;
		};
	};
}

/** The sandbox's real API with its full-access key. */
async function service<T>(state: E2eState, path: string): Promise<T> {
	const res = await fetch(`${state.sandbox.baseUrl}${path}`, {
		headers: { authorization: 'Bearer mg_sandbox_full_access_key' },
	});
	if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status} ${await res.text()}`);
	return (await res.json()) as T;
}

/** The webhook endpoints registered at the sandbox for this n8n. */
export const endpointsFor = async (state: E2eState) =>
	(await service<{ data: ServiceEndpoint[] }>(state, '/webhooks?limit=100')).data.filter((e) =>
		e.url.startsWith(state.n8nUrl),
	);

/** n8n's public API with the owner's key. */
export async function n8nApi<T>(state: E2eState, path: string, method = 'GET'): Promise<T> {
	const res = await fetch(`${state.n8nUrl}/api/v1${path}`, {
		method,
		headers: { 'X-N8N-API-KEY': state.apiKey, accept: 'application/json' },
	});
	if (!res.ok) throw new Error(`${method} /api/v1${path}: HTTP ${res.status} ${await res.text()}`);
	return (await res.json()) as T;
}

/** Polls until `check` returns a value (activation, deliveries and executions are asynchronous). */
export async function eventually<T>(
	what: string,
	check: () => Promise<T | undefined>,
	timeoutMs = 60_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let last: unknown;
	while (Date.now() < deadline) {
		try {
			const value = await check();
			if (value !== undefined) return value;
		} catch (e) {
			last = e;
		}
		await new Promise((r) => setTimeout(r, 500));
	}
	throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** The Webhook node named Start that a POST to the production webhook `path` triggers. */
export const webhookStart = (path: string, id = 'start') => ({
	id,
	name: 'Start',
	type: 'n8n-nodes-base.webhook',
	typeVersion: 2,
	webhookId: path,
	position: [0, 0],
	parameters: { httpMethod: 'POST', path, responseMode: 'onReceived' },
});

/**
 * A workflow that a POST to the production webhook `path` starts, then `make`: one MediaGen node
 * named Make (what a test reads back from the execution).
 */
export function webhookThenMake(name: string, path: string, make: Record<string, unknown>) {
	return {
		name,
		nodes: [webhookStart(path), { id: 'make', name: 'Make', position: [200, 0], ...make }],
		connections: { Start: { main: [[{ node: 'Make', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}
