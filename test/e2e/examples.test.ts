/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { findModel } from '../../sandbox/models';
import { SANDBOX_API_KEY } from '../../sandbox/options';
import { pngText } from '../../sandbox/png';
import type { LedgerEntry } from '../../sandbox/state';
import { evaluateExpressions, readExample, senselessItems, valuesOf } from './example-checks';
import {
	binaryBytes,
	describeWithN8n,
	endpointsFor,
	eventually,
	executeWorkflow,
	HOST_DIR,
	ledger,
	n8nApi,
	outputOf,
	readE2eState,
	REPO,
	sandboxRequests as requests,
	scriptChat,
	type E2eState,
	type N8nExecution,
	type N8nItem,
	type N8nRun,
} from './state';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const creditsPerImage = (model: string) => findModel(model)!.pricing.credits;
const MODEL = 'image.aurora-2';

/** What examples/README.md says an example costs in the playground ("19 credits"). */
function creditsInReadme(slug: string): number {
	const row = readFileSync(join(REPO, 'examples', 'README.md'), 'utf8')
		.split('\n')
		.find((line) => line.startsWith(`| \`${slug}.json\``));
	const credits = /\| ([\d.]+) credits/.exec(row ?? '')?.[1];
	if (!credits) throw new Error(`examples/README.md gives no cost for ${slug}`);
	return Number(credits);
}

/**
 * Runs an example with `n8n execute` and checks what every example must hold (example-checks.ts):
 * it succeeded, every item every node passed on makes sense, every expression it read is defined,
 * and it cost what examples/README.md says. Returns the run and the expressions' values.
 */
async function runExample(state: E2eState, slug: string) {
	const chargesBefore = (await ledger(state)).length;
	const run = await executeWorkflow(state, state.examples[slug]);
	expect(run.data.resultData.error).toBeUndefined();
	expect(run.status).toBe('success');
	const spent = (await ledger(state))
		.slice(chargesBefore)
		.reduce((sum, charge) => sum + charge.credits, 0);
	expect({ slug, credits: Math.round(spent * 100) / 100 }).toEqual({
		slug,
		credits: creditsInReadme(slug),
	});
	const { evaluated, problems } = evaluateExpressions(readExample(slug), run);
	expect({ items: senselessItems(run), expressions: problems }).toEqual({
		items: [],
		expressions: [],
	});
	return { run, evaluated };
}

/** A simplified generation item: a completed run with one file of `mimeType` as binary `data`, its URL, model and credits. */
function expectFileItem(state: E2eState, item: N8nItem, mimeType: RegExp): Buffer {
	expect(item.json).toEqual(
		expect.objectContaining({
			status: 'completed',
			run_id: expect.stringMatching(/^run_/),
			output_url: expect.stringMatching(/^http/),
			credits: expect.any(Number),
			model: expect.any(String),
		}),
	);
	expect(Object.keys(item.binary ?? {})).toEqual(['data']);
	expect(item.binary!.data.mimeType).toMatch(mimeType);
	return binaryBytes(state, item.binary!.data);
}

/** A simplified image item: its PNG shows (and keeps in its Description) the prompt it was made from. */
function expectPictureOfItsPrompt(state: E2eState, item: N8nItem): void {
	const png = expectFileItem(state, item, /^image\/png$/);
	expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
	expect(typeof item.json.prompt).toBe('string');
	expect(pngText(png)).toBe(item.json.prompt);
}

/** Each run charged exactly once, at `credits`, and what the item says it cost is that. */
function expectChargedOnce(entries: LedgerEntry[], items: N8nItem[], credits: number): void {
	for (const item of items) {
		const charges = entries.filter((e) => e.run_id === item.json.run_id);
		expect(charges).toHaveLength(1);
		expect(charges[0].credits).toBe(credits);
		expect(item.json.credits).toBe(credits);
	}
}

/**
 * Product ads (examples 01 and 06): three variants written for `product`, one square picture per
 * variant made from its headline (each image item keeps that text as its prompt, paired with its
 * variant), every picture in one item.
 */
async function expectAdsFor(
	state: E2eState,
	run: N8nRun,
	evaluated: ReturnType<typeof evaluateExpressions>['evaluated'],
	product: { name: string; url?: string },
) {
	const variants = outputOf(run, 'Ad Variants');
	expect(variants).toHaveLength(3);
	expect(variants.map((v) => v.json.variant_index)).toEqual([0, 1, 2]);
	expect(new Set(variants.map((v) => v.json.headline)).size).toBe(3);
	for (const variant of variants) {
		expect(variant.json.headline).toEqual(expect.stringContaining(product.name));
		expect(variant.json.headline).not.toMatch(/https?:\/\//);
		if (product.url) expect(JSON.stringify(variant.json)).not.toContain(product.url);
		expect(variant.json.body).toEqual(expect.any(String));
	}
	// each variant's own credits; together what the workflow run was charged
	const [workflowRun] = new Set(variants.map((v) => v.json.run_id));
	const entries = await ledger(state);
	const [charge] = entries.filter((e) => e.run_id === workflowRun);
	expect(variants.reduce((sum, v) => sum + Number(v.json.credits), 0)).toBeCloseTo(
		charge.credits,
		6,
	);

	const images = outputOf(run, 'Generate Ad Image');
	expect(images).toHaveLength(3);
	images.forEach((image, i) => {
		expect(image.pairedItem).toEqual({ item: i });
		expect(image.json.prompt).toEqual(
			expect.stringMatching(new RegExp(`^${escape(String(variants[i].json.headline))}\\. `)),
		);
		expectPictureOfItsPrompt(state, image);
	});
	// the prompt n8n sent is the one this test evaluates from the example's expression
	expect(valuesOf(evaluated, 'Generate Ad Image', 'prompt')).toEqual(
		images.map((i) => i.json.prompt),
	);
	expectChargedOnce(entries, images, creditsPerImage(MODEL));

	const merged = outputOf(run, 'All Ads');
	expect(merged).toHaveLength(1);
	expect((merged[0].json.ads as Array<Record<string, unknown>>).map((ad) => ad.prompt)).toEqual(
		images.map((i) => i.json.prompt),
	);
	const binaries = Object.values(merged[0].binary ?? {});
	expect(binaries).toHaveLength(3);
	expect(binaries.map((b) => pngText(binaryBytes(state, b)))).toEqual(
		images.map((i) => i.json.prompt),
	);
}

/** What scripts/playground/playground-seed.mjs keeps about a seeding, and its functions (plain JavaScript). */
interface SeededState {
	apiKey?: string;
	workflows?: Record<string, { id: string }>;
	openAi?: { id: string; baseUrl: string };
	credential?: { id: string };
}

/**
 * Runs scripts/playground/playground-seed.mjs, what `npm start` seeds its n8n with, in a Node process of
 * its own (jest cannot import an ES module here) → its report and the state it kept.
 */
function seedLikeThePlayground(args: {
	url: string;
	state: SeededState;
	sandboxBaseUrl: string;
	openAi: { baseUrl: string; key: string };
}) {
	const script = `
		import { seedPlayground, playgroundPaths } from ${JSON.stringify(pathToFileURL(join(HOST_DIR, '..', '..', 'scripts', 'playground', 'playground-seed.mjs')).href)};
		const args = JSON.parse(process.env.SEED_ARGS);
		const report = await seedPlayground({ ...args, ...playgroundPaths(${JSON.stringify(REPO)}) });
		process.stdout.write(JSON.stringify({ report, state: args.state }));`;
	return new Promise<{ report: Array<{ file: string; skipped?: string }>; state: SeededState }>(
		(resolve, reject) => {
			execFile(
				process.execPath,
				['--input-type=module', '-e', script],
				{ env: { ...process.env, SEED_ARGS: JSON.stringify(args) } },
				(error, stdout, stderr) =>
					error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
			);
		},
	);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describeWithN8n(
	'example workflows in real n8n (n8n execute, against the sandbox): each runs and its output makes sense',
	() => {
		const state = readE2eState();

		it('every example of examples/ is loaded (nothing skipped for a node this build lacks)', () => {
			expect(state.skippedExamples).toEqual({});
			expect(Object.keys(state.examples).sort()).toEqual([
				'01-product-page-to-ad-images',
				'02-hook-pack-to-talking-clip',
				'03-event-driven-download',
				'04-many-prompts-at-once',
				'05-generate-then-cut-out',
				'06-ad-variants-to-images',
				'07-ai-agent-image-tool',
				'08-approval-form-before-spending',
				'09-mcp-server-for-any-assistant',
				'10-approve-before-spending',
			]);
		});

		it('01 product page to ad images: the headlines name the product Extract Product found (not its URL), each picture is made from its headline', async () => {
			const { run, evaluated } = await runExample(state, '01-product-page-to-ad-images');
			const [page] = outputOf(run, 'Product Page');
			const [product] = outputOf(run, 'Extract Product');
			expect(product.json).toEqual(
				expect.objectContaining({
					name: expect.any(String),
					description: expect.any(String),
					url: page.json.product_url,
					status: 'completed',
					credits: expect.any(Number),
				}),
			);
			expect(product.json.name).not.toMatch(/https?:|example\.com/);
			expect(Object.keys(product.binary ?? {}).length).toBeGreaterThan(0);
			// what Ad Variants read from it: the product's name and description, never undefined
			expect(valuesOf(evaluated, 'Ad Variants', 'productName')).toEqual([product.json.name]);
			expect(valuesOf(evaluated, 'Ad Variants', 'productDescription')).toEqual([
				product.json.description,
			]);
			await expectAdsFor(state, run, evaluated, {
				name: String(product.json.name),
				url: String(page.json.product_url),
			});
		});

		it('06 ad variants to images: the headlines name the product given, each picture is made from its headline', async () => {
			const { run, evaluated } = await runExample(state, '06-ad-variants-to-images');
			const [product] = outputOf(run, 'Product');
			expect(valuesOf(evaluated, 'Ad Variants', 'productName')).toEqual([
				product.json.product_name,
			]);
			await expectAdsFor(state, run, evaluated, { name: String(product.json.product_name) });
		});

		it("02 hook pack to talking clip: the voice-over speaks the hook pack's script, the lip sync is made from that voice-over", async () => {
			const { run } = await runExample(state, '02-hook-pack-to-talking-clip');
			const [hooks] = outputOf(run, 'Hook Pack');
			expect(hooks.json).toEqual(
				expect.objectContaining({
					hooks: expect.any(Array),
					full_script: expect.any(String),
					workflow: 'hook_pack',
				}),
			);
			const [speech] = outputOf(run, 'Voice-over');
			expectFileItem(state, speech, /^audio\//);
			expect(speech.json.prompt).toBe(hooks.json.full_script);
			const [clip] = outputOf(run, 'Lip Sync');
			expectFileItem(state, clip, /^video\//);
			// the sandbox makes a lip sync as long as the audio it was given: the voice-over's length, not a default
			expect(Number(clip.json.duration_seconds)).toBeCloseTo(
				Number(speech.json.duration_seconds),
				1,
			); // MP3 frames round it
			expect(speech.json.duration_seconds).toBeGreaterThan(5);
			const entries = await ledger(state);
			for (const item of [speech, clip])
				expect(entries.filter((e) => e.run_id === item.json.run_id)).toHaveLength(1);
			expect(entries.filter((e) => e.run_id === hooks.json.run_id).length).toBeLessThanOrEqual(1);
		});

		it('04 many prompts at once: one picture per prompt, in order, each made from (and showing) its prompt, each run charged once', async () => {
			const { run } = await runExample(state, '04-many-prompts-at-once');
			const prompts = outputOf(run, 'Prompts').map((i) => i.json.prompt);
			const items = outputOf(run, 'Generate Images');
			expect(items.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
			expect(items.map((i) => i.json.prompt)).toEqual(prompts);
			for (const item of items) {
				expectPictureOfItsPrompt(state, item);
				expect(item.json.model).toBe(MODEL);
				expect(Number(item.json.width) / Number(item.json.height)).toBeCloseTo(16 / 9, 6);
			}
			expect(new Set(items.map((i) => i.json.run_id)).size).toBe(4);
			expectChargedOnce(await ledger(state), items, creditsPerImage(MODEL));
		});

		it('05 generate then cut out: the cut-out is made from the generated picture, uploaded from its binary', async () => {
			const before = (await requests(state)).length;
			const { run } = await runExample(state, '05-generate-then-cut-out');
			const [generated] = outputOf(run, 'Generate Product Shot');
			expectPictureOfItsPrompt(state, generated);
			const cutOut = outputOf(run, 'Remove Background');
			expect(cutOut).toHaveLength(1);
			const png = expectFileItem(state, cutOut[0], /^image\/png$/);
			// the sandbox read the uploaded picture: the cut-out names the prompt of the generated one
			expect(pngText(png)).toBe(`Background removed: ${String(generated.json.prompt)}`);
			const entries = await ledger(state);
			expectChargedOnce(entries, [generated], creditsPerImage(MODEL));
			expect(entries.filter((e) => e.run_id === cutOut[0].json.run_id)).toHaveLength(1);
			const during = (await requests(state)).slice(before);
			expect(
				during.filter((r) => r.method === 'POST' && r.path === '/v1/uploads' && r.status < 300),
			).toHaveLength(1);
			expect(
				during.filter(
					(r) => r.method === 'PUT' && r.path.startsWith('/storage/uploads/') && r.status === 200,
				),
			).toHaveLength(1);
		});

		it("07 AI agent: the local scripted model calls the MediaGen tool for a wide picture, and the agent's reply carries the picture's URL", async () => {
			// nothing scripted: the fake answers as the playground's chat model does
			await scriptChat(state, []);
			const chargesBefore = (await ledger(state)).length;
			const { run } = await runExample(state, '07-ai-agent-image-tool');
			const charges = (await ledger(state)).slice(chargesBefore);
			expect(charges).toHaveLength(1);
			const res = await fetch(`${state.sandbox.baseUrl}/runs/${charges[0].run_id}`, {
				headers: { authorization: `Bearer ${SANDBOX_API_KEY}` },
			});
			const made = (await res.json()) as {
				input_summary: Record<string, unknown>;
				output: { output_url: string };
			};
			expect(made.input_summary).toEqual(
				expect.objectContaining({
					prompt: 'a lighthouse at dusk for a blog header',
					aspect_ratio: '16:9',
					model: MODEL,
				}),
			);
			const [reply] = outputOf(run, 'AI Agent');
			expect(reply.json.output).toEqual(expect.stringContaining(made.output.output_url));
			const picture = Buffer.from(await (await fetch(made.output.output_url)).arrayBuffer());
			expect(pngText(picture)).toBe('a lighthouse at dusk for a blog header');
		});

		// While 03 is active, every example that makes runs runs too: each makes runs of other kinds, and
		// 03 receives them all. 06: a workflow run (text, no file) and image generations; 05: an image
		// generation and a background removal (an edit from an uploaded input); 02: a workflow run, speech
		// (audio) and lip sync (video); 01: a product extraction, a workflow run and image generations.
		// 04 and 07 make image generations only, as 06 does: left out to keep the suite short.
		const WHILE_03_IS_ACTIVE = [
			'06-ad-variants-to-images',
			'05-generate-then-cut-out',
			'02-hook-pack-to-talking-clip',
			'01-product-page-to-ad-images',
		];

		/** The run IDs an execution's MediaGen nodes report (simplified items: `run_id`). */
		const runIdsOf = (run: N8nRun) =>
			Object.values(run.data.resultData.runData)
				.flatMap((runs) => runs.flatMap((r) => r.data?.main[0] ?? []))
				.map((item) => item.json.run_id)
				.filter((id): id is string => typeof id === 'string' && id.startsWith('run_'));

		it('03 event-driven: inactive as shipped; while activated, every completed run of examples 06, 05, 02 and 01 starts it and each file is downloaded (runs without a file stop at Has a File)', async () => {
			const workflowId = state.examples['03-event-driven-download'];
			expect((await n8nApi<{ active: boolean }>(state, `/workflows/${workflowId}`)).active).toBe(
				false,
			);
			expect(await endpointsFor(state)).toEqual([]);
			await n8nApi(state, `/workflows/${workflowId}/activate`, 'POST');
			try {
				await eventually(
					'the endpoint to be registered',
					async () => (await endpointsFor(state))[0],
				);
				const runIds = new Set<string>();
				const pictures = new Map<string, unknown>();
				let workflowRun = '';
				for (const slug of WHILE_03_IS_ACTIVE) {
					const run = await executeWorkflow(state, state.examples[slug]);
					expect({ slug, status: run.status }).toEqual({ slug, status: 'success' });
					for (const id of runIdsOf(run)) runIds.add(id);
					if (slug.startsWith('06-')) {
						workflowRun = String(outputOf(run, 'Ad Variants')[0].json.run_id);
						for (const image of outputOf(run, 'Generate Ad Image'))
							pictures.set(String(image.json.run_id), image.json.prompt);
					}
				}
				const executions = await eventually(
					'one finished execution per completed run',
					async () => {
						const list = await n8nApi<{ data: N8nExecution[] }>(
							state,
							`/executions?workflowId=${workflowId}&includeData=true&limit=250`,
						);
						const byRun = new Map<string, N8nExecution>();
						for (const execution of list.data) {
							const [event] =
								execution.data?.resultData.runData['Run Completed']?.[0]?.data?.main[0] ?? [];
							if (runIds.has(String(event?.json.run_id)))
								byRun.set(String(event.json.run_id), execution);
						}
						const finished = [...byRun.values()].every(
							(e) => e.status !== 'running' && e.status !== 'new',
						);
						return byRun.size === runIds.size && finished ? byRun : undefined;
					},
					120_000,
				);
				const example = readExample('03-event-driven-download');
				for (const [runId, execution] of executions) {
					expect({ runId, status: execution.status }).toEqual({ runId, status: 'success' });
					const asRun = { status: execution.status, data: execution.data! } as N8nRun;
					expect({ runId, problems: senselessItems(asRun) }).toEqual({ runId, problems: [] });
					expect({ runId, problems: evaluateExpressions(example, asRun).problems }).toEqual({
						runId,
						problems: [],
					});
				}
				expect(
					executions.get(workflowRun)!.data!.resultData.runData['Download Output'],
				).toBeUndefined();
				// each picture's execution downloaded that very picture (it shows the prompt that made it)
				for (const [runId, prompt] of pictures) {
					const [download] =
						executions.get(runId)!.data!.resultData.runData['Download Output'][0].data!.main[0];
					expect(download.binary?.data.mimeType).toBe('image/png');
					expect(pngText(binaryBytes(state, download.binary!.data))).toBe(prompt);
				}
				const downloaded = new Set(
					[...executions.values()]
						.flatMap((e) => e.data!.resultData.runData['Download Output']?.[0].data!.main[0] ?? [])
						.map((i) => i.binary?.data.mimeType.split('/')[0]),
				);
				expect([...downloaded].sort()).toEqual(['audio', 'image', 'video']);
				const errors = await n8nApi<{ data: N8nExecution[] }>(
					state,
					`/executions?workflowId=${workflowId}&status=error&limit=100`,
				);
				expect(errors.data).toEqual([]);
			} finally {
				await n8nApi(state, `/workflows/${workflowId}/deactivate`, 'POST');
				await eventually('the endpoint to be deleted', async () =>
					(await endpointsFor(state)).length === 0 ? true : undefined,
				);
			}
		});

		it('the playground seeds every example into n8n, none active (03 included), and points the OpenAI credential at the local chat model', async () => {
			const seeded: SeededState = { apiKey: state.apiKey };
			const { report, state: after } = await seedLikeThePlayground({
				url: state.n8nUrl,
				state: seeded,
				sandboxBaseUrl: state.sandbox.baseUrl,
				openAi: { baseUrl: state.fakeOpenAi.baseUrl, key: 'sk-playground-local-model' },
			});
			Object.assign(seeded, after);
			try {
				expect(report.filter((r) => r.skipped)).toEqual([]);
				expect(report).toHaveLength(10);
				for (const { id } of Object.values(seeded.workflows!))
					expect((await n8nApi<{ active: boolean }>(state, `/workflows/${id}`)).active).toBe(false);
				expect(await endpointsFor(state)).toEqual([]);
				expect(seeded.openAi!.baseUrl).toBe(state.fakeOpenAi.baseUrl);
				const agent = await n8nApi<{
					nodes: Array<{ type: string; credentials?: Record<string, { id: string }> }>;
				}>(state, `/workflows/${seeded.workflows!['07-ai-agent-image-tool'].id}`);
				expect(
					agent.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi')!.credentials!
						.openAiApi.id,
				).toBe(seeded.openAi!.id);
			} finally {
				for (const { id } of Object.values(seeded.workflows ?? {})) {
					// n8n deletes a published workflow (only when this test already failed) once it is unpublished
					await n8nApi(state, `/workflows/${id}/deactivate`, 'POST').catch(() => undefined);
					await eventually('the seeded workflow to be deleted', () =>
						n8nApi(state, `/workflows/${id}`, 'DELETE').then(() => true),
					);
				}
				for (const credential of [seeded.openAi, seeded.credential])
					if (credential) await n8nApi(state, `/credentials/${credential.id}`, 'DELETE');
			}
		});

		it('a key without images:write: the execution fails with insufficient_scope, no run is created and nothing is charged', async () => {
			const chargesBefore = (await ledger(state)).length;
			const before = (await requests(state)).length;
			const run = await executeWorkflow(state, state.narrowKeyWorkflowId);
			expect(run.status).toBe('error');
			const error = run.data.resultData.error!;
			expect(error.node?.name).toBe('Generate Images');
			expect(error.message).toMatch(/^insufficient_scope/);
			expect(error.description).toContain('images:write');
			const refused = (await requests(state))
				.slice(before)
				.filter((r) => r.path === '/v1/images/generations');
			expect(refused.length).toBeGreaterThan(0);
			expect(refused.every((r) => r.status === 403)).toBe(true);
			expect(await ledger(state)).toHaveLength(chargesBefore);
		});
	},
);
