/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small stand-in for an OpenAI-compatible Chat Completions API, scripted turn by turn (tests) or
 * acting as a plain image-making agent when nothing is scripted (the playground), for n8n's
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
	tool_calls?: Array<{
		id: string;
		type: 'function';
		function: { name: string; arguments: string };
	}>;
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
export type Turn =
	| { callTool: { name?: string; arguments: Record<string, unknown> } }
	| { answer: string };

type Reply =
	| { toolCall: { name: string; arguments: Record<string, unknown> } }
	| { content: string };

export interface FakeOpenAiChat {
	/** where the test hooks live: `PUT /_fake/script {turns}`, `GET /_fake/requests` */
	origin: string;
	/** what goes into the n8n OpenAI credential's Base URL (ends in /v1) */
	baseUrl: string;
	requests: RecordedRequest[];
	/** the bodies of the chat completion requests, in order */
	chatRequests(): ChatRequest[];
	/** the next chat requests are answered by these turns, in order (then the fake acts as a plain image-making agent again) */
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
			? [
					{
						id: `call_${turn}`,
						type: 'function' as const,
						function: {
							name: reply.toolCall.name,
							arguments: JSON.stringify(reply.toolCall.arguments),
						},
					},
				]
			: undefined;
	return {
		id: `chatcmpl-fake-${turn}`,
		created: Math.floor(Date.now() / 1000),
		model: request.model || FAKE_MODEL,
		message: {
			role: 'assistant' as const,
			content: 'content' in reply ? reply.content : null,
			...(toolCalls ? { tool_calls: toolCalls } : {}),
		},
		finish_reason: toolCalls ? 'tool_calls' : 'stop',
		usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
	};
}

/** Aspect ratios a request's wording asks for, most specific first. */
const SHAPE_WORDS: Array<[RegExp, string]> = [
	[/\b(wide|landscape|banner|header|cover|widescreen)\b/i, '16:9'],
	[/\b(tall|vertical|story|stories|reel|portrait)\b/i, '9:16'],
	[/\b(square|profile|avatar)\b/i, '1:1'],
];
const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4 };

/** The last thing the user asked for in words. */
function userRequest(request: ChatRequest): string {
	return textOf(
		[...request.messages].reverse().find((m) => m.role === 'user') ?? { role: 'user', content: '' },
	);
}

/**
 * The tool call a plain image-making agent makes for a request: what to picture (the words after
 * "picture of", without "and give me its link"), the aspect ratio its wording asks for among the
 * values the tool's parameter names, and how many — only the arguments the tool declares.
 */
export function agentToolCall(
	request: ChatRequest,
): { name: string; arguments: Record<string, unknown> } | undefined {
	const tool =
		request.tools?.find(
			(t) => 'prompt' in ((t.function.parameters?.properties as object | undefined) ?? {}),
		) ?? request.tools?.[0];
	if (!tool) return undefined;
	const properties = (tool.function.parameters?.properties ?? {}) as Record<
		string,
		{ description?: string }
	>;
	const asked = userRequest(request).trim();
	const subject = asked
		.replace(/[,;]?\s*and (give|send|show|share) me (its|the|their) links?[.!]?$/i, '')
		.replace(
			/^.*?\b(?:pictures?|images?|photos?|illustrations?|drawings?|posters?)\s+(?:of|showing)\s+/i,
			'',
		)
		.replace(/[.!?]+$/, '');
	const args: Record<string, unknown> = {};
	if ('prompt' in properties) args.prompt = subject || asked;
	if ('aspect_ratio' in properties) {
		const offered: string[] = properties.aspect_ratio.description?.match(/\b\d+:\d+\b/g) ?? [];
		const wanted = SHAPE_WORDS.find(([words]) => words.test(asked))?.[1] ?? '1:1';
		args.aspect_ratio = offered.length && !offered.includes(wanted) ? offered[0] : wanted;
	}
	if ('count' in properties) {
		const said = /\b(one|two|three|four|\d)\s+(?:pictures|images|photos|versions|variants)\b/i
			.exec(asked)?.[1]
			?.toLowerCase();
		args.count = said ? (NUMBER_WORDS[said] ?? Number(said)) : 1;
	}
	return { name: tool.function.name, arguments: args };
}

/** The agent's answer once the tool answered: the links it returned, the run still going, or what went wrong. */
export function agentAnswer(request: ChatRequest): string {
	const results = toolResults(request).join('\n');
	const links = [...new Set(results.match(/https?:\/\/[^\s"'\\)]+/g) ?? [])];
	if (links.length === 1) return `Here is your picture: ${links[0]}`;
	if (links.length > 1) return `Here are your pictures:\n${links.map((l) => `- ${l}`).join('\n')}`;
	const runId = /"run_id"\s*:\s*"([^"]+)"/.exec(results)?.[1];
	if (/still_running/.test(results) && runId)
		return `The picture is still being made; its run ID is ${runId}.`;
	const error = /"error"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(results)?.[1];
	return error ? `The image tool could not make it: ${error}` : 'The image tool returned no link.';
}

/** What the unscripted fake does: call the image tool once for the request, then answer with what it returned. */
function agentTurn(request: ChatRequest): Reply {
	const lastUser = request.messages.map((m) => m.role).lastIndexOf('user');
	const answered = request.messages.slice(lastUser + 1).some((m) => m.role === 'tool');
	const call = answered ? undefined : agentToolCall(request);
	return call ? { toolCall: call } : { content: agentAnswer(request) };
}

function replyTo(request: ChatRequest, turn: Turn): Reply {
	if ('answer' in turn)
		return { content: turn.answer.replace('{tool_results}', toolResults(request).join('\n')) };
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
		send(res, 400, {
			error: {
				message: 'The fake does not stream: turn off streaming',
				type: 'invalid_request_error',
			},
		});
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

/** Starts the fake on 127.0.0.1 (`port` 0: any free port). Requests nothing scripted answers get the agent's turn (agentTurn). */
export async function startFakeOpenAiChat(
	options: { port?: number } = {},
): Promise<FakeOpenAiChat> {
	const requests: RecordedRequest[] = [];
	let turns: Turn[] = [];
	const chatRequests = () =>
		requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as ChatRequest);

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
			if (req.method === 'GET' && path === '/_fake/requests')
				return send(res, 200, { data: requests });
			requests.push({
				method: req.method ?? '',
				path,
				authorization: req.headers.authorization,
				body,
			});
			if (req.method === 'GET' && path === '/v1/models') {
				return send(res, 200, {
					object: 'list',
					data: [{ id: FAKE_MODEL, object: 'model', created: 0, owned_by: 'fake' }],
				});
			}
			if (req.method !== 'POST' || path !== '/v1/chat/completions') {
				return send(res, 404, {
					error: {
						message: `The fake has no ${req.method} ${path}`,
						type: 'invalid_request_error',
					},
				});
			}
			const turn = turns.shift();
			const number = chatRequests().length;
			const request = body as ChatRequest;
			answer(res, request, turn ? replyTo(request, turn) : agentTurn(request), number);
		})().catch((error: Error) =>
			send(res, 500, { error: { message: error.message, type: 'server_error' } }),
		);
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
