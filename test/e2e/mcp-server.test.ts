/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// examples/09 in real n8n 2.41.1: n8n's MCP Server Trigger (Bearer auth) with the MediaGen Image,
// Video and Run tools, driven by the official MCP TypeScript SDK client over Streamable HTTP, the
// transport n8n serves on the trigger's path (it also serves SSE there). The shared n8n and sandbox
// of the e2e suite; the sandbox's run time is raised past the client's request timeout for the video.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// eslint-disable-next-line import-x/no-unresolved -- the SDK's subpaths come from its package.json exports (jest) and typesVersions (TypeScript), which this resolver does not read
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
// eslint-disable-next-line import-x/no-unresolved -- the SDK's subpaths come from its package.json exports (jest) and typesVersions (TypeScript), which this resolver does not read
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
// eslint-disable-next-line import-x/no-unresolved -- the SDK's subpaths come from its package.json exports (jest) and typesVersions (TypeScript), which this resolver does not read
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from '@modelcontextprotocol/sdk/shared/protocol.js';

import { findModel } from '../../sandbox/models';
import { eventually, publicApi } from './own-n8n-client';
import {
	ARTIFACTS,
	describeWithN8n,
	ledger,
	readE2eState,
	sandboxRequests,
	type E2eState,
} from './state';

const EXAMPLE = '09-mcp-server-for-any-assistant';
const TOKEN = 'e2e-mcp-bearer-token';
/** How long a video run lasts in the sandbox for the long-job test: beyond the client's request timeout. */
const LONG_RUN_MS = DEFAULT_REQUEST_TIMEOUT_MSEC + 10_000;
const IMAGE_MODEL = 'image.aurora-2';
const VIDEO_MODEL = 'video.motion-2';
/** Generate Image's Max Credits in this copy of the example: above an image's price, so it is made. */
const IMAGE_MAX_CREDITS = 50;

type ToolAnswer = Array<Record<string, unknown>>;

/** Sets some of the sandbox's options; answers with all of them as they are now ({} reads them). */
async function sandboxOptions(
	state: E2eState,
	options: Record<string, unknown>,
): Promise<Record<string, unknown>> {
	const res = await fetch(`${state.sandbox.origin}/_sandbox/options`, {
		method: 'PATCH',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(options),
	});
	if (!res.ok) throw new Error(`PATCH /_sandbox/options: HTTP ${res.status}`);
	return (await res.json()) as Record<string, unknown>;
}

/** The JSON a MediaGen tool answered (n8n sends it as the text of the call's one content part). */
function answerOf(result: unknown): ToolAnswer {
	const { content, isError } = result as {
		content: Array<{ type: string; text: string }>;
		isError?: boolean;
	};
	expect(isError).toBeFalsy();
	expect(content).toHaveLength(1);
	return JSON.parse(content[0].text) as ToolAnswer;
}

describeWithN8n(
	"MediaGen tools behind n8n's MCP Server Trigger, driven by the MCP SDK client (examples/09)",
	() => {
		const state = readE2eState();
		const api = <T>(path: string, method = 'GET', body?: unknown) =>
			publicApi<T>({ url: state.n8nUrl }, state.apiKey, path, method, body);
		const url = new URL(`${state.n8nUrl}/mcp/mediagen`);
		const client = new Client({ name: 'mediagen-e2e', version: '1.0.0' });
		const figures: Record<string, unknown> = {
			clientRequestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MSEC,
		};
		let workflowId = '';

		beforeAll(async () => {
			const bearer = await api<{ id: string; name: string }>('/credentials', 'POST', {
				name: 'MCP bearer token (e2e)',
				type: 'httpBearerAuth',
				data: { token: TOKEN },
			});
			const example = (
				await api<{
					data: Array<{
						id: string;
						nodes: Array<Record<string, unknown>>;
						connections: unknown;
						settings: unknown;
						name: string;
					}>;
				}>('/workflows?limit=250')
			).data.find((w) => w.id === state.examples[EXAMPLE])!;
			const nodes = example.nodes.map((node) =>
				node.type === '@n8n/n8n-nodes-langchain.mcpTrigger'
					? { ...node, credentials: { httpBearerAuth: bearer } }
					: node.name === 'Generate Image'
						? // under Max Credits a call is priced first: asked twice, still one run (#32, finding 12)
							{
								...node,
								parameters: {
									...(node.parameters as Record<string, unknown>),
									options: { maxCredits: IMAGE_MAX_CREDITS },
								},
							}
						: node,
			);
			workflowId = (
				await api<{ id: string }>('/workflows', 'POST', {
					name: `${example.name} (bearer)`,
					nodes,
					connections: example.connections,
					settings: example.settings,
				})
			).id;
			await api(`/workflows/${workflowId}/activate`, 'POST');
			await eventually('the MCP server to answer', async () => {
				const transport = new StreamableHTTPClientTransport(url, {
					requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
				});
				await client.connect(transport);
				return true;
			});
		});

		afterAll(async () => {
			await client.close().catch(() => undefined);
			if (workflowId)
				await api(`/workflows/${workflowId}/deactivate`, 'POST').catch(() => undefined);
			mkdirSync(ARTIFACTS, { recursive: true });
			writeFileSync(join(ARTIFACTS, 'mcp-server-figures.json'), JSON.stringify(figures, null, 2));
		});

		it('refuses a client without the bearer token', async () => {
			const res = await fetch(url, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					accept: 'application/json, text/event-stream',
				},
				body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
			});
			expect(res.status).toBe(403);
		});

		it('lists the three tools with names, descriptions and input schemas a model can use', async () => {
			const { tools } = await client.listTools();
			figures.tools = tools.map((t) => ({
				name: t.name,
				inputs: t.inputSchema.properties,
				required: t.inputSchema.required,
				descriptionChars: t.description?.length,
			}));
			expect(tools.map((t) => t.name).sort()).toEqual([
				'Check_Run',
				'Generate_Image',
				'Generate_Video',
			]);
			const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
			const properties = (name: string) =>
				byName[name].inputSchema.properties as Record<
					string,
					{ type: string; description: string }
				>;
			expect(Object.keys(properties('Generate_Image')).sort()).toEqual([
				'aspect_ratio',
				'estimate_only',
				'prompt',
			]);
			expect(properties('Generate_Image').estimate_only).toEqual(
				expect.objectContaining({
					type: 'boolean',
					description: expect.stringContaining('nothing is made or charged'),
				}),
			);
			expect(properties('Generate_Image').aspect_ratio.description).toContain('16:9');
			expect(Object.keys(properties('Generate_Video')).sort()).toEqual([
				'duration',
				'estimate_only',
				'prompt',
			]);
			expect(properties('Generate_Video').duration.type).toBe('number');
			expect(Object.keys(properties('Check_Run'))).toEqual(['run_id']);
			expect(byName.Generate_Image.description).toMatch(
				/^MediaGen Image: Generate images from a prompt\./,
			);
			expect(byName.Generate_Video.description).toContain('Cost: per second of output');
			expect(byName.Generate_Video.description).toContain('Tool Time Budget (50 s unless set)');
			expect(byName.Check_Run.description).toMatch(/^MediaGen Run: Wait for a run to finish\./);
		});

		it('generates an image: the URL of the PNG back in one call, charged once', async () => {
			const before = (await ledger(state)).length;
			const started = Date.now();
			const answer = answerOf(
				await client.callTool({
					name: 'Generate_Image',
					arguments: {
						prompt: 'a lighthouse at dusk, MCP e2e',
						aspect_ratio: '16:9',
						estimate_only: false,
					},
				}),
			);
			figures.imageCallMs = Date.now() - started;
			const charges = (await ledger(state)).slice(before);
			expect(charges).toHaveLength(1);
			expect(charges[0].credits).toBe(findModel(IMAGE_MODEL)!.pricing.credits);
			expect(answer).toEqual([
				{
					run_id: charges[0].run_id,
					status: 'completed',
					model: IMAGE_MODEL,
					outputs: [{ url: expect.stringContaining('/storage/files/'), mime_type: 'image/png' }],
					credits_spent: charges[0].credits,
				},
			]);
			const file = await fetch((answer[0].outputs as Array<{ url: string }>)[0].url);
			expect(file.headers.get('content-type')).toBe('image/png');
			expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(0);
			figures.imageCharges = charges.map((c) => c.credits);
		});

		it('asked again for the same image (Max Credits set) it answers with the same run and no second charge; another prompt is a new image', async () => {
			const before = (await ledger(state)).length;
			const requestsBefore = (await sandboxRequests(state)).length;
			const ask = async (prompt: string) =>
				answerOf(
					await client.callTool({
						name: 'Generate_Image',
						arguments: { prompt, aspect_ratio: '1:1', estimate_only: false },
					}),
				)[0];
			const first = await ask('a red fox in snow, MCP e2e');
			const again = await ask('a red fox in snow, MCP e2e');
			// each call priced first (Max Credits), both submits the same request under one key
			const sent = (await sandboxRequests(state))
				.slice(requestsBefore)
				.filter((r) => r.method === 'POST')
				.map((r) => r.path);
			expect(sent).toEqual([
				'/v1/models/estimate-cost',
				'/v1/images/generations',
				'/v1/models/estimate-cost',
				'/v1/images/generations',
			]);
			const other = await ask('a blue heron at dawn, MCP e2e');
			expect(again).toEqual(first);
			expect(other.status).toBe('completed');
			expect(other.run_id).not.toBe(first.run_id);
			expect((await ledger(state)).slice(before).map((c) => c.run_id)).toEqual([
				first.run_id,
				other.run_id,
			]);
		});

		it('quotes a video without making it (estimate_only): credits and a quote token, nothing charged', async () => {
			const before = {
				charges: (await ledger(state)).length,
				requests: (await sandboxRequests(state)).length,
			};
			const answer = answerOf(
				await client.callTool({
					name: 'Generate_Video',
					arguments: { prompt: 'waves on a beach, MCP e2e', duration: 5, estimate_only: true },
				}),
			);
			expect(answer).toEqual([
				expect.objectContaining({
					credits: findModel(VIDEO_MODEL)!.pricing.credits * 5,
					quote_token: expect.any(String),
					next: expect.stringContaining('Nothing was made or charged'),
				}),
			]);
			expect((await ledger(state)).length).toBe(before.charges);
			expect(
				(await sandboxRequests(state))
					.slice(before.requests)
					.filter((r) => r.path === '/v1/videos/generations'),
			).toEqual([]);
			figures.videoQuote = answer[0].credits;
		});

		it(`starts a video that takes longer than the client's ${DEFAULT_REQUEST_TIMEOUT_MSEC / 1000} s timeout: the call returns in time with the run id, Check_Run later returns the video URL, one charge`, async () => {
			const before = (await ledger(state)).length;
			const previous = await sandboxOptions(state, {});
			expect(previous.latencyMs).toBeLessThan(LONG_RUN_MS);
			await sandboxOptions(state, { latencyMs: LONG_RUN_MS });
			let runId = '';
			const started = Date.now();
			try {
				// the client's default request timeout applies: a late answer would fail the call
				const first = answerOf(
					await client.callTool({
						name: 'Generate_Video',
						arguments: {
							prompt: 'a timelapse of a harbour, MCP e2e',
							duration: 5,
							estimate_only: false,
						},
					}),
				);
				figures.videoCallReturnMs = Date.now() - started;
				runId = first[0].run_id as string;
				expect(first).toEqual([
					{
						run_id: expect.stringMatching(/^run_/),
						status: expect.stringMatching(/^(queued|processing)$/),
						model: VIDEO_MODEL,
						still_running: true,
						price: `${findModel(VIDEO_MODEL)!.pricing.credits} credits per second (${VIDEO_MODEL})`,
						next: expect.stringContaining(`with run_id "${runId}"`),
					},
				]);
				expect((await ledger(state)).length).toBe(before);
				figures.videoFirstAnswer = first[0];
			} finally {
				await sandboxOptions(state, { latencyMs: previous.latencyMs });
			}
			const done = await eventually(
				'Check_Run to answer with the finished video',
				async () => {
					const answer = answerOf(
						await client.callTool({ name: 'Check_Run', arguments: { run_id: runId } }),
					);
					return answer[0].status === 'completed' ? answer : undefined;
				},
				3 * LONG_RUN_MS,
			);
			figures.videoDoneAfterMs = Date.now() - started;
			const charges = (await ledger(state)).slice(before);
			expect(charges).toEqual([
				expect.objectContaining({
					run_id: runId,
					credits: findModel(VIDEO_MODEL)!.pricing.credits * 5,
				}),
			]);
			expect(done).toEqual([
				{
					run_id: runId,
					status: 'completed',
					model: VIDEO_MODEL,
					outputs: [{ url: expect.stringContaining('/storage/files/'), mime_type: 'video/mp4' }],
					credits_spent: charges[0].credits,
				},
			]);
			const submits = (await sandboxRequests(state)).filter(
				(r) =>
					r.method === 'POST' &&
					r.path === '/v1/videos/generations' &&
					JSON.stringify(r.body).includes('harbour'),
			);
			expect(submits).toHaveLength(1);
			figures.videoCharges = charges.map((c) => c.credits);
		});

		it('answers a bad aspect ratio with a refusal naming the allowed values; nothing is sent or charged', async () => {
			const before = {
				charges: (await ledger(state)).length,
				requests: (await sandboxRequests(state)).length,
			};
			const answer = answerOf(
				await client.callTool({
					name: 'Generate_Image',
					arguments: { prompt: 'a lighthouse, MCP e2e', aspect_ratio: '7:3', estimate_only: false },
				}),
			);
			expect(answer).toHaveLength(1);
			expect(answer[0].status).toBe('error');
			expect(answer[0].error).toContain('Aspect Ratio: "7:3" is not allowed');
			for (const ratio of findModel(IMAGE_MODEL)!.limits.aspect_ratios as string[])
				expect(answer[0].error).toContain(ratio);
			expect(answer[0].hint).toMatch(
				/^Nothing was sent to the service, so no credits were spent\./,
			);
			expect((await ledger(state)).length).toBe(before.charges);
			expect(
				(await sandboxRequests(state)).slice(before.requests).filter((r) => r.method === 'POST'),
			).toEqual([]);
			figures.refusal = answer[0];
		});
	},
);
