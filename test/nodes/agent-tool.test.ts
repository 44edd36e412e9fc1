import { MediaGenAccount } from '../../nodes/MediaGenAccount/MediaGenAccount.node';
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenVideo } from '../../nodes/MediaGenVideo/MediaGenVideo.node';
import { SANDBOX_ACCOUNT_ID, SANDBOX_API_KEY } from '../../sandbox/options';
import { TOOL_ANSWER_LIMITS } from '../../src/agents/tool-output';
import { runNode } from '../helpers/n8n-harness';
import { PausedExecutionHost } from '../helpers/paused-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';
import { asTool } from '../helpers/tool-host';

const generate = (extra: Record<string, unknown> = {}) => ({
	resource: 'image',
	operation: 'generate',
	model: 'image.aurora-2',
	prompt: 'a lighthouse at dusk',
	...extra,
});
const downloads = (fx: Fixture) =>
	fx.sandbox.state.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/storage/'));

describe('a MediaGen node as an AI agent tool (n8n-core, against the sandbox)', () => {
	let fx: Fixture;
	afterEach(async () => fx.sandbox.close());

	it('answers with compact JSON: run id, status, output URLs with MIME types, credits spent — no binary, nothing downloaded', async () => {
		fx = await startFixture();
		const { items, error } = await runNode({
			nodeType: asTool(new MediaGenImage()),
			credentials: fx.credentials,
			parameters: generate({ aspectRatio: '16:9', count: 2 }),
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const [{ json, binary }] = items;
		expect(binary).toBeUndefined();
		const [charge] = fx.sandbox.state.ledger;
		expect(fx.sandbox.state.ledger).toHaveLength(1);
		expect(json).toEqual({
			run_id: charge.run_id,
			status: 'completed',
			model: 'image.aurora-2',
			outputs: [
				{
					url: expect.stringMatching(
						/^http:\/\/127\.0\.0\.1:\d+\/storage\/files\/run_[\w-]+\/.+\.png\?/,
					),
					mime_type: 'image/png',
				},
				{ url: expect.stringMatching(/\.png\?/), mime_type: 'image/png' },
			],
			credits_spent: charge.credits,
		});
		expect(charge.credits).toBe(8);
		expect(downloads(fx)).toHaveLength(0);
		expect(JSON.stringify(json).length).toBeLessThan(700);
	});

	it('waits in the execution where its operation would pause (MediaGen Video → Generate): no pause, no webhook endpoint, the compact answer', async () => {
		fx = await startFixture();
		// a host where pausing would work (its resume URL reachable by the sandbox): only being a tool prevents it
		const host = await PausedExecutionHost.start();
		try {
			const video = new MediaGenVideo();
			const waitMode = video.description.properties.find(
				(p) =>
					p.name === 'waitMode' &&
					(p.displayOptions?.show?.operation as string[] | undefined)?.includes('generate'),
			);
			expect(waitMode?.default).toBe('parked');
			const tool = await host.run({
				nodeType: asTool(video),
				credentials: fx.credentials,
				parameters: {
					resource: 'video',
					operation: 'generate',
					prompt: 'a lighthouse at dusk',
					duration: 5,
				},
			});
			expect(tool.error).toBeUndefined();
			expect(tool.run.waitTill).toBeUndefined();
			expect(host.status(tool.executionId)).toBe('done');
			const [charge] = fx.sandbox.state.ledger;
			expect(tool.items.map((i) => [i.json, i.binary])).toEqual([
				[
					{
						run_id: charge.run_id,
						status: 'completed',
						model: expect.stringMatching(/^video\./),
						outputs: [{ url: expect.stringMatching(/\.mp4\?/), mime_type: 'video/mp4' }],
						credits_spent: charge.credits,
					},
					undefined,
				],
			]);
			expect(fx.sandbox.services.webhooks.listEndpoints(SANDBOX_ACCOUNT_ID)).toEqual([]);
			expect(fx.sandbox.state.requests.filter((r) => r.path.startsWith('/v1/webhooks'))).toEqual(
				[],
			);
			expect(downloads(fx)).toHaveLength(0);
			const hints = (tool.run.data.resultData.runData.MediaGen?.[0]?.hints ?? []).map(
				(h) => h.message,
			);
			expect(hints).toEqual([
				expect.stringContaining('an AI agent waits for its tools to answer'),
				`Charged ${charge.credits} credits for 1 run.`,
			]);
		} finally {
			await host.close();
		}
	});

	it('answers a refused aspect ratio with the allowed values and a hint that nothing was spent, instead of failing the agent', async () => {
		fx = await startFixture();
		const { items, error } = await runNode({
			nodeType: asTool(new MediaGenImage()),
			credentials: fx.credentials,
			parameters: generate({ aspectRatio: '7:3' }),
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([
			{
				status: 'error',
				error:
					'Aspect Ratio: "7:3" is not allowed by the model Aurora 2 (image.aurora-2); allowed: one of 1:1, 16:9, 9:16, 4:3, 3:4, 21:9',
				hint: 'Nothing was sent to the service, so no credits were spent. API field aspect_ratio; model limit aspect_ratios.',
			},
		]);
		expect(posts(fx.sandbox, '/images/generations')).toHaveLength(0);
	});

	it('answers a run failed at the service with its code and the hint for it (and no charge)', async () => {
		fx = await startFixture();
		fx.credentials.set('mediaGenApi', {
			baseUrl: fx.sandbox.baseUrl,
			apiKey: 'mg_sandbox_no_credits_key',
		});
		const { items, error } = await runNode({
			nodeType: asTool(new MediaGenImage()),
			credentials: fx.credentials,
			parameters: generate(),
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({
			status: 'error',
			error: expect.stringContaining('insufficient_credits'),
			code: 'insufficient_credits',
			run_id: expect.stringMatching(/^run_/),
			hint: expect.stringContaining('top up'),
		});
		expect(fx.sandbox.state.ledger).toHaveLength(0);
	});

	it('answers a run still going after Wait Timeout with its run id and status, to check later', async () => {
		fx = await startFixture({ latencyMs: 4000 });
		const { items, error } = await runNode({
			nodeType: asTool(new MediaGenImage()),
			credentials: fx.credentials,
			parameters: generate({ options: { waitTimeout: 1 } }),
		});
		expect(error).toBeUndefined();
		const [run] = fx.sandbox.state.runs.values();
		expect(['queued', 'processing']).toContain(run.run.status);
		// the status the node last saw: the submit's queued, or processing from a poll
		expect(items[0].json).toEqual({
			run_id: run.run.id,
			status: expect.stringMatching(/^(queued|processing)$/),
			model: 'image.aurora-2',
			still_running: true,
			price: '4 credits per image (image.aurora-2)',
			next: expect.stringContaining(
				`the MediaGen Run tool (Wait for Completion, or Get) with run_id "${run.run.id}"`,
			),
		});
	});

	it('with On Error set to Stop Workflow, a refusal fails the node as it does in a workflow', async () => {
		fx = await startFixture();
		const { items, error } = await runNode({
			nodeType: asTool(new MediaGenImage()),
			credentials: fx.credentials,
			parameters: generate({ aspectRatio: '7:3' }),
			settings: { onError: 'stopWorkflow' },
		});
		expect(items).toHaveLength(0);
		expect(error?.message).toContain('allowed: one of 1:1, 16:9');
	});

	it(`answers a list with at most ${TOOL_ANSWER_LIMITS.items} trimmed items and says how many there were`, async () => {
		fx = await startFixture();
		const plain = await runNode({
			nodeType: new MediaGenAccount(),
			credentials: fx.credentials,
			parameters: { resource: 'model', operation: 'list', returnAll: true },
		});
		const total = plain.items.length;
		expect(total).toBeGreaterThan(TOOL_ANSWER_LIMITS.items);
		const { items } = await runNode({
			nodeType: asTool(new MediaGenAccount()),
			credentials: fx.credentials,
			parameters: { resource: 'model', operation: 'list', returnAll: true },
		});
		expect(items).toHaveLength(TOOL_ANSWER_LIMITS.items + 1);
		expect(items.slice(0, -1).map((i) => i.json.id)).toEqual(
			plain.items.slice(0, TOOL_ANSWER_LIMITS.items).map((i) => i.json.id),
		);
		expect(items.at(-1)!.json).toEqual(
			expect.objectContaining({ truncated: true, shown: TOOL_ANSWER_LIMITS.items, total }),
		);
		// nulls are dropped, the rest of a model is kept
		const first = plain.items[0].json;
		const nulls = Object.keys(first).filter((k) => first[k] === null);
		for (const key of nulls) expect(items[0].json).not.toHaveProperty(key);
		expect(items[0].json.limits).toEqual(first.limits);
	});

	it("version 2 (Simplify on by default in a workflow): the tool's answer stays the compact run answer, also with Simplify saved on", async () => {
		fx = await startFixture();
		for (const parameters of [generate(), generate({ simplify: true })]) {
			const { items, error } = await runNode({
				nodeType: asTool(new MediaGenImage()),
				credentials: fx.credentials,
				parameters,
				typeVersion: 2,
			});
			expect(error).toBeUndefined();
			const charge = fx.sandbox.state.ledger.at(-1)!;
			expect(items.map((i) => [i.json, i.binary])).toEqual([
				[
					{
						run_id: charge.run_id,
						status: 'completed',
						model: 'image.aurora-2',
						outputs: [{ url: expect.stringMatching(/\.png\?/), mime_type: 'image/png' }],
						credits_spent: charge.credits,
					},
					undefined,
				],
			]);
		}
		expect(downloads(fx)).toHaveLength(0);
	});

	it('leaves the same node in a workflow unchanged: the full run and its PNG as binary', async () => {
		fx = await startFixture();
		fx.credentials.set('mediaGenApi', { baseUrl: fx.sandbox.baseUrl, apiKey: SANDBOX_API_KEY });
		const { items } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: generate(),
		});
		expect(items[0].json).toEqual(
			expect.objectContaining({
				object: 'run',
				id: expect.stringMatching(/^run_/),
				input_summary: expect.any(Object),
				output_urls: [expect.any(String)],
			}),
		);
		expect(items[0].binary?.data.mimeType).toBe('image/png');
		expect(downloads(fx)).toHaveLength(1);
	});
});
