/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small stand-in for an OpenAI-compatible Chat Completions API, scripted turn by turn, for n8n's
 * "OpenAI Chat Model" node (`@n8n/n8n-nodes-langchain.lmChatOpenAi`, Responses API off). That node
 * builds LangChain's ChatOpenAI with the credential's Base URL, which calls
 * `POST {baseURL}/chat/completions` with `{model, messages, tools: [{type: 'function', function:
 * {name, description, parameters}}], stream: false}`; tool results come back as `{role: 'tool',
 * tool_call_id, content}` messages. Answers are OpenAI's `chat.completion` objects, tool calls as
 * `message.tool_calls` with `finish_reason: 'tool_calls'`. Every request is recorded.
 */

export interface ChatMessage {
	role: 'system' | 'user' | 'assistant' | 'tool';
	content: string | null | Array<{ type: string; text?: string }>;
	tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
}

export interface ChatTool {
	type: 'function';
	function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface ChatRequest {
	model: string;
	messages: ChatMessage[];
	tools?: ChatTool[];
	stream?: boolean;
	[other: string]: unknown;
}

export interface RecordedRequest {
	method: string;
	path: string;
	authorization?: string;
	body?: unknown;
}

/**
 * One scripted turn of the model: call a tool (the first one the request offers unless named) with
 * these arguments, or answer in words, where `{tool_results}` stands for what the tools returned.
 */
export type Turn = { callTool: { name?: string; arguments: Record<string, unknown> } } | { answer: string };

type Reply = { toolCall: { name: string; arguments: Record<string, unknown> } } | { content: string };

export interface FakeOpenAiChat {
	/** where the test hooks live: `PUT /_fake/script {turns}`, `GET /_fake/requests` */
	origin: string;
	/** what goes into the n8n OpenAI credential's Base URL (ends in /v1) */
	baseUrl: string;
	requests: RecordedRequest[];
	/** the bodies of the chat completion requests, in order */
	chatRequests(): ChatRequest[];
	/** the next chat requests are answered by these turns, in order */
	script(turns: Turn[]): void;
	close(): Promise<void>;
}

/** The text of a message's content (string, or text parts). */
export function textOf(message: ChatMessage): string {
	if (typeof message.content === 'string') return message.content;
	return (message.content ?? []).map((part) => part.text ?? '').join('');
}

/** The tool results a request carries (what the tools returned to the model). */
export function toolResults(request: ChatRequest): string[] {
	return request.messages.filter((m) => m.role === 'tool').map(textOf);
}

const FAKE_MODEL = 'gpt-fake-1';

function completion(request: ChatRequest, reply: Reply, turn: number) {
	const toolCalls =
		'toolCall' in reply
			? [{ id: `call_${turn}`, type: 'function' as const, function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.arguments) } }]
			: undefined;
	return {
		id: `chatcmpl-fake-${turn}`,
		created: Math.floor(Date.now() / 1000),
		model: request.model || FAKE_MODEL,
		message: { role: 'assistant' as const, content: 'content' in reply ? reply.content : null, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
		finish_reason: toolCalls ? 'tool_calls' : 'stop',
		usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
	};
}

function replyTo(request: ChatRequest, turn: Turn): Reply {
	if ('answer' in turn) return { content: turn.answer.replace('{tool_results}', toolResults(request).join('\n')) };
	const name = turn.callTool.name ?? request.tools?.[0]?.function.name;
	if (!name) throw new Error('The request offers no tool to call');
	return { toolCall: { name, arguments: turn.callTool.arguments } };
}

function send(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

function answer(res: ServerResponse, request: ChatRequest, reply: Reply, turn: number): void {
	if (request.stream) {
		// n8n's agent streams only under a streaming Chat Trigger; these tests never ask for it
		send(res, 400, { error: { message: 'The fake does not stream: turn off streaming', type: 'invalid_request_error' } });
		return;
	}
	const c = completion(request, reply, turn);
	send(res, 200, {
		id: c.id,
		object: 'chat.completion',
		created: c.created,
		model: c.model,
		choices: [{ index: 0, message: c.message, finish_reason: c.finish_reason, logprobs: null }],
		usage: c.usage,
	});
}

async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

/** Starts the fake on 127.0.0.1 (`port` 0: any free port). */
export async function startFakeOpenAiChat(options: { port?: number } = {}): Promise<FakeOpenAiChat> {
	const requests: RecordedRequest[] = [];
	let turns: Turn[] = [];
	const chatRequests = () => requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as ChatRequest);

	const server: Server = createServer((req, res) => {
		void (async () => {
			const raw = await readBody(req);
			const path = (req.url ?? '').split('?')[0];
			let body: unknown;
			try {
				body = raw ? JSON.parse(raw) : undefined;
			} catch {
				body = raw;
			}
			if (req.method === 'PUT' && path === '/_fake/script') {
				turns = [...((body as { turns?: Turn[] })?.turns ?? [])];
				return send(res, 200, { turns: turns.length });
			}
			if (req.method === 'GET' && path === '/_fake/requests') return send(res, 200, { data: requests });
			requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });
			if (req.method === 'GET' && path === '/v1/models') {
				return send(res, 200, { object: 'list', data: [{ id: FAKE_MODEL, object: 'model', created: 0, owned_by: 'fake' }] });
			}
			if (req.method !== 'POST' || path !== '/v1/chat/completions') {
				return send(res, 404, { error: { message: `The fake has no ${req.method} ${path}`, type: 'invalid_request_error' } });
			}
			const turn = turns.shift();
			const number = chatRequests().length;
			if (!turn) return send(res, 500, { error: { message: `The fake has no scripted turn ${number}`, type: 'server_error' } });
			const request = body as ChatRequest;
			answer(res, request, replyTo(request, turn), number);
		})().catch((error: Error) => send(res, 500, { error: { message: error.message, type: 'server_error' } }));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', resolve);
	});
	const { port } = server.address() as AddressInfo;
	return {
		origin: `http://127.0.0.1:${port}`,
		baseUrl: `http://127.0.0.1:${port}/v1`,
		requests,
		chatRequests,
		script(next) {
			turns = [...next];
		},
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
