import { sleep } from 'n8n-workflow';

import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenRun } from '../../nodes/MediaGenRun/MediaGenRun.node';
import { MediaGenVideo } from '../../nodes/MediaGenVideo/MediaGenVideo.node';
import { findModel } from '../../sandbox/models';
import { SANDBOX_API_KEY } from '../../sandbox/options';
import type { Sandbox } from '../../sandbox/server';
import { forgeEstimate, posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';
import { callTool } from '../helpers/tool-host';

/**
 * A MediaGen node called as a tool the way n8n's MCP Server Trigger calls it (n8n-core's
 * createNodeAsTool and makeHandleToolInvocation, from a host node; test/helpers/tool-host.ts):
 * every call an execution of its own. The real trigger, in real n8n, with the MCP SDK client:
 * test/e2e/mcp-server.test.ts.
 */

const fromAi = (key: string, description: string, type = 'string') =>
	`={{ $fromAI('${key}', '${description}', '${type}') }}`;

const VIDEO_MODEL = 'video.motion-2';
const video = (extra: Record<string, unknown> = {}) => ({
	nodeType: new MediaGenVideo(),
	parameters: {
		resource: 'video',
		operation: 'generate',
		model: VIDEO_MODEL,
		prompt: fromAi('prompt', 'what the video shows'),
		duration: 5,
		...extra,
	},
});
const image = (extra: Record<string, unknown> = {}) => ({
	nodeType: new MediaGenImage(),
	parameters: {
		resource: 'image',
		operation: 'generate',
		model: 'image.aurora-2',
		prompt: fromAi('prompt', 'what the image shows'),
		...extra,
	},
});
const runTool = (operation: 'wait' | 'get' | 'download', extra: Record<string, unknown> = {}) => ({
	nodeType: new MediaGenRun(),
	parameters: {
		resource: 'run',
		operation,
		runId: fromAi('run_id', 'the run_id a MediaGen tool answered with'),
		...extra,
	},
});

const runsOf = (sandbox: Sandbox) => [...sandbox.state.runs.values()].map((r) => r.run);
const storageReads = (sandbox: Sandbox) =>
	sandbox.state.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/storage/'));

async function until(what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(100);
	}
}

describe('a MediaGen tool call that outlives its Tool Time Budget (n8n-core tool path, against the sandbox)', () => {
	let fx: Fixture;
	afterEach(async () => fx.sandbox.close());

	it('answers in time with the run id, status, price and the tool to check with; the run goes on and is charged once', async () => {
		fx = await startFixture({ latencyMs: 6000 });
		const call = await callTool(
			{ ...video({ toolTimeBudget: 1 }), credentials: fx.credentials },
			{ prompt: 'a lighthouse at dusk' },
		);
		const [made] = runsOf(fx.sandbox);
		// answered while the run was still going: nothing charged yet
		expect(made.status).not.toBe('completed');
		expect(fx.sandbox.state.ledger).toHaveLength(0);
		expect(call.answer).toEqual([
			{
				run_id: made.id,
				status: expect.stringMatching(/^(queued|processing)$/),
				model: VIDEO_MODEL,
				still_running: true,
				price: `${findModel(VIDEO_MODEL)!.pricing.credits} credits per second (${VIDEO_MODEL})`,
				next: expect.stringContaining(
					`call the MediaGen Run tool (Wait for Completion, or Get) with run_id "${made.id}"`,
				),
			},
		]);
		await until('the run to complete', () => made.status === 'completed');
		expect(fx.sandbox.state.ledger.map((e) => e.run_id)).toEqual([made.id]);
	});

	it('asked again for the same job (a new execution, as every MCP call is), it does not submit again: the same run, one charge', async () => {
		fx = await startFixture({ latencyMs: 3000 });
		const first = await callTool(
			{ ...video({ toolTimeBudget: 1 }), credentials: fx.credentials },
			{ prompt: 'a lighthouse at dusk' },
		);
		const again = await callTool(
			{ ...video({ toolTimeBudget: 1 }), credentials: fx.credentials },
			{ prompt: 'a lighthouse at dusk' },
		);
		expect(again.answer[0].run_id).toBe(first.answer[0].run_id);
		expect(runsOf(fx.sandbox)).toHaveLength(1);
		// both calls sent the submit under one key; the service answered the second with the original run
		const submits = posts(fx.sandbox, '/videos/generations');
		expect(submits).toHaveLength(2);
		expect(new Set(submits.map((s) => s.idempotencyKey)).size).toBe(1);
		expect(submits.map((s) => s.status)).toEqual([202, 202]);
		await until('the run to complete', () => runsOf(fx.sandbox)[0].status === 'completed');
		expect(fx.sandbox.state.ledger).toHaveLength(1);
	});

	it('another job of the same tool is a new run, also where n8n gives the calls no execution id (the MCP Server Trigger)', async () => {
		fx = await startFixture();
		const asMcp = { credentials: fx.credentials, executionId: '' };
		const first = await callTool({ ...image(), ...asMcp }, { prompt: 'a lighthouse at dusk' });
		const second = await callTool({ ...image(), ...asMcp }, { prompt: 'a red fox in snow' });
		expect([first.answer[0].status, second.answer[0].status]).toEqual(['completed', 'completed']);
		expect(second.answer[0].run_id).not.toBe(first.answer[0].run_id);
		expect(runsOf(fx.sandbox).map((r) => r.input_summary)).toEqual([
			expect.objectContaining({ prompt: 'a lighthouse at dusk' }),
			expect.objectContaining({ prompt: 'a red fox in snow' }),
		]);
		expect(fx.sandbox.state.ledger).toHaveLength(2);
	});

	// finding 12 of #32: each call read a fresh quote and bound its submit to it, so the second
	// call sent another request under the job's key and the service refused it as a reused key
	it.each([
		// estimates: one per call, and under a credential limit one more for the first run, in flight
		// when the second call reads the account's runs
		['Max Credits', { options: { maxCredits: 100 } }, {}, 2],
		['Max Credits per Execution', { options: { maxCreditsPerExecution: 100 } }, {}, 2],
		["the credential's Credit Limit per Day", {}, { creditLimitPerDay: '1000' }, 3],
	])(
		'with %s, asked again for the same job it answers with the first run: one run, one charge, the price checked on both calls',
		async (_name, extra, limits, estimates) => {
			fx = await startFixture({ latencyMs: 3000 });
			fx.credentials.set('mediaGenApi', {
				baseUrl: fx.sandbox.baseUrl,
				apiKey: SANDBOX_API_KEY,
				...limits,
			});
			const ask = async () =>
				await callTool(
					{ ...video({ toolTimeBudget: 1, ...extra }), credentials: fx.credentials },
					{ prompt: 'a lighthouse at dusk' },
				);
			const first = await ask();
			const again = await ask();
			expect(first.answer[0].run_id).toEqual(expect.stringMatching(/^run_/));
			expect(again.answer[0].run_id).toBe(first.answer[0].run_id);
			expect(again.answer[0]).not.toHaveProperty('code');
			expect(runsOf(fx.sandbox)).toHaveLength(1);
			// both calls were priced before sending; the second was answered with the original run
			expect(posts(fx.sandbox, '/models/estimate-cost')).toHaveLength(estimates);
			const submits = posts(fx.sandbox, '/videos/generations');
			expect(submits.map((s) => s.status)).toEqual([202, 202]);
			expect(submits[1].body).toEqual(submits[0].body);
			await until('the run to complete', () => runsOf(fx.sandbox)[0].status === 'completed');
			const credits = findModel(VIDEO_MODEL)!.pricing.credits * 5;
			expect(fx.sandbox.state.ledger.map((e) => e.credits)).toEqual([credits]);
		},
	);

	it('with Max Credits below the price, asked twice, nothing is sent either time', async () => {
		fx = await startFixture();
		const ask = async () =>
			await callTool(
				{
					...video({ toolTimeBudget: 1, options: { maxCredits: 1 } }),
					credentials: fx.credentials,
				},
				{ prompt: 'a lighthouse at dusk' },
			);
		for (const call of [await ask(), await ask()])
			expect(call.answer[0]).toEqual(expect.objectContaining({ code: 'max_credits_exceeded' }));
		expect(posts(fx.sandbox, '/videos/generations')).toHaveLength(0);
		expect(fx.sandbox.state.ledger).toHaveLength(0);
	});

	it('with Max Credits, not bound: a service that under-quotes charges its own price (the worst case docs/spend-control.md states)', async () => {
		fx = await startFixture();
		forgeEstimate(fx.sandbox, VIDEO_MODEL, 1, 'q1.underquoted.sig', 1);
		const call = await callTool(
			{ ...video({ options: { maxCredits: 2 } }), credentials: fx.credentials },
			{ prompt: 'a lighthouse at dusk' },
		);
		expect(call.answer[0].status).toBe('completed');
		// 6 credits a second for 5 s, quoted 1 under Max Credits 2: 28 over
		expect(findModel(VIDEO_MODEL)!.pricing.credits).toBe(6);
		expect(fx.sandbox.state.ledger.map((e) => e.credits)).toEqual([30]);
	});

	it('with Max Credits, a job still going reports the credits it was quoted at', async () => {
		fx = await startFixture({ latencyMs: 4000 });
		const call = await callTool(
			{
				...video({ toolTimeBudget: 1, options: { maxCredits: 100 } }),
				credentials: fx.credentials,
			},
			{ prompt: 'a lighthouse at dusk' },
		);
		const credits = findModel(VIDEO_MODEL)!.pricing.credits * 5;
		expect(call.answer[0]).toEqual(
			expect.objectContaining({ still_running: true, credits_quoted: credits }),
		);
		await until('the run to complete', () => runsOf(fx.sandbox)[0].status === 'completed');
		expect(fx.sandbox.state.ledger.map((e) => e.credits)).toEqual([credits]);
	});
});

describe('the MediaGen Run tool, to check on a job (n8n-core tool path)', () => {
	let fx: Fixture;
	afterEach(async () => fx.sandbox.close());

	it('Wait for Completion answers compactly with the finished video URL; still going, it answers within its budget with the run id', async () => {
		fx = await startFixture({ latencyMs: 4000 });
		const started = await callTool(
			{ ...video({ toolTimeBudget: 1 }), credentials: fx.credentials },
			{ prompt: 'a lighthouse at dusk' },
		);
		const runId = started.answer[0].run_id as string;
		const early = await callTool(
			{ ...runTool('wait', { toolTimeBudget: 1 }), credentials: fx.credentials },
			{ run_id: runId },
		);
		expect(early.answer).toEqual([
			expect.objectContaining({
				run_id: runId,
				still_running: true,
				next: expect.stringContaining('MediaGen Run tool'),
			}),
		]);
		const done = await callTool(
			{ ...runTool('wait'), credentials: fx.credentials },
			{ run_id: runId },
		);
		const [charge] = fx.sandbox.state.ledger;
		expect(done.answer).toEqual([
			{
				run_id: runId,
				status: 'completed',
				model: VIDEO_MODEL,
				outputs: [
					{
						url: expect.stringMatching(/\/storage\/files\/run_[\w-]+\/.+\.mp4\?/),
						mime_type: 'video/mp4',
					},
				],
				credits_spent: charge.credits,
			},
		]);
		expect(fx.sandbox.state.ledger).toHaveLength(1);
		expect(storageReads(fx.sandbox)).toHaveLength(0);
	});

	it('Get and Download Outputs answer with the same compact run: URLs, nothing downloaded', async () => {
		fx = await startFixture();
		const made = await callTool(
			{ ...image(), credentials: fx.credentials },
			{ prompt: 'a lighthouse at dusk' },
		);
		const runId = made.answer[0].run_id as string;
		const get = await callTool(
			{ ...runTool('get'), credentials: fx.credentials },
			{ run_id: runId },
		);
		const download = await callTool(
			{ ...runTool('download'), credentials: fx.credentials },
			{ run_id: runId },
		);
		expect(get.answer).toEqual(made.answer);
		// the run's output (GET /runs/{id}/output) names no model or credits
		const { run_id, status, outputs } = made.answer[0];
		expect(download.answer).toEqual([{ run_id, status, outputs }]);
		expect(JSON.stringify(get.answer).length).toBeLessThan(400);
		expect(storageReads(fx.sandbox)).toHaveLength(0);
	});
});

describe("cost in the model's hands (n8n-core tool path)", () => {
	let fx: Fixture;
	afterEach(async () => fx.sandbox.close());

	it('Estimate Only answers with the price and a quote token, makes and charges nothing; then the same call makes it at that price', async () => {
		fx = await startFixture();
		const tool = {
			...image({ estimateOnly: fromAi('estimate_only', 'true for the price only', 'boolean') }),
			credentials: fx.credentials,
		};
		const quote = await callTool(tool, { prompt: 'a lighthouse at dusk', estimate_only: true });
		const credits = findModel('image.aurora-2')!.pricing.credits;
		expect(quote.answer).toEqual([
			expect.objectContaining({
				object: 'cost_estimate',
				model: 'image.aurora-2',
				credits,
				quote_token: expect.any(String),
				next: expect.stringContaining('Nothing was made or charged'),
			}),
		]);
		expect(posts(fx.sandbox, '/images/generations')).toHaveLength(0);
		expect(runsOf(fx.sandbox)).toHaveLength(0);

		const made = await callTool(tool, { prompt: 'a lighthouse at dusk', estimate_only: false });
		expect(made.answer[0]).toEqual(
			expect.objectContaining({ status: 'completed', credits_spent: credits }),
		);
		expect(fx.sandbox.state.ledger.map((e) => e.credits)).toEqual([credits]);
	});

	it.each(['yes', '1'])(
		'Estimate Only given as the text %j is refused naming the field and true/false: nothing is made or charged (issue 32, 20)',
		async (said) => {
			fx = await startFixture();
			const tool = {
				...image({ estimateOnly: fromAi('estimate_only', 'true for the price only', 'string') }),
				credentials: fx.credentials,
			};
			const call = await callTool(tool, { prompt: 'a lighthouse at dusk', estimate_only: said });
			expect(call.answer).toEqual([
				expect.objectContaining({
					status: 'error',
					error: `Estimate Only: ${JSON.stringify(said)} is not allowed; allowed: true or false`,
				}),
			]);
			expect(posts(fx.sandbox, '/images/generations')).toHaveLength(0);
			expect(runsOf(fx.sandbox)).toHaveLength(0);
			expect(fx.sandbox.state.ledger).toHaveLength(0);
		},
	);

	it('the caller reads the Tool Description (price basis, budget, estimate) and an input per $fromAI() parameter', async () => {
		fx = await startFixture();
		const call = await callTool(
			{
				...video({ estimateOnly: fromAi('estimate_only', 'true for the price only', 'boolean') }),
				credentials: fx.credentials,
				toolName: 'Make Video',
			},
			{ prompt: 'a lighthouse at dusk', estimate_only: true },
		);
		expect(call.name).toBe('Make_Video');
		expect(call.inputs.sort()).toEqual(['estimate_only', 'prompt']);
		expect(call.description).toMatch(/^MediaGen Video: Generate a video\./);
		expect(call.description).toContain(
			"Cost: per second of output: the model's credits per second × seconds of output (each model's rate: GET /models/pricing",
		);
		expect(call.description).toContain('Price first: estimate_only true');
		expect(call.description).toContain('Tool Time Budget (50 s unless set)');
		expect(call.answer[0].credits).toBe(findModel(VIDEO_MODEL)!.pricing.credits * 5);
	});
});
