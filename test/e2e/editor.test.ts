/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// The editor as a user meets it (Chromium, real n8n 2.41): finding the nodes, building a workflow,
// the Model list, the trigger, a paused execution, the credential form. Saves the screenshots the
// documentation shows under docs/images/ (docs/editor.md) and every step under test/artifacts/.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, Locator, Page } from 'playwright-core';

import { listedModels } from '../../sandbox/models';
import { SANDBOX_API_KEY } from '../../sandbox/options';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { videoEndpoints } from '../../src/catalog/video';
import { IN_EXECUTION_WAIT_TIMEOUT, pausedWaitTimeoutOf } from '../../src/catalog/wait-timeouts';
import type { LedgerEntry } from '../../sandbox/state';
import {
	foundWhereUsersLook,
	PANEL_SEARCH_PHRASES,
	ranksAmongMediaGen,
} from '../fixtures/panel-search-phrases';
import {
	findChromium,
	INSTALL_CHROMIUM,
	noChromiumMessage,
	REQUIRE_CHROMIUM_ENV,
} from './chromium';
import {
	closeNode,
	executeWorkflow,
	openEditor,
	openNode,
	openWorkflow,
	pickInPanel,
	saveDocImage,
	screenshotNodeAfterRun,
	searchPanel,
	shot,
} from './editor-page';
import { publicApi } from './own-n8n-client';
import {
	ARTIFACTS,
	describeWithN8n,
	endpointsFor,
	eventually,
	n8nApi,
	readE2eState,
	sandboxAdmin,
	type E2eState,
	type N8nExecution,
	type N8nRun,
} from './state';

const imageModels = listedModels().filter((m) => m.capability === 'image_generation');
const ratiosOf = (id: string) =>
	(imageModels.find((m) => m.id === id)!.limits as { aspect_ratios: string[] }).aspect_ratios;
const maxCountOf = (id: string) =>
	(imageModels.find((m) => m.id === id)!.limits as { max_count: number }).max_count;

/** Opens an n8n select (element-plus) and returns its options once they are listed. */
async function openDropdown(page: Page, parameter: Locator): Promise<Locator> {
	await parameter.locator('input').first().click();
	const options = page.locator('.el-select-dropdown__item:visible');
	await options.first().waitFor({ timeout: 60_000 });
	return options;
}

/** Reopens a dropdown until its options read as expected (n8n reloads them asynchronously). */
async function dropdownSettles(
	page: Page,
	parameter: Locator,
	expected: (texts: string[]) => boolean,
): Promise<string[]> {
	let texts: string[] = [];
	for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
		texts = await (await openDropdown(page, parameter)).allTextContents();
		if (expected(texts)) return texts;
		await page.keyboard.press('Escape');
		await page.waitForTimeout(1_000);
	}
	return texts;
}

/** Reads a value until it equals what is expected (the editor updates asynchronously), then returns it. */
async function settled<T>(read: () => Promise<T>, expected: T, timeoutMs = 30_000): Promise<T> {
	let last = await read();
	for (
		const deadline = Date.now() + timeoutMs;
		JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < deadline;

	) {
		await new Promise((r) => setTimeout(r, 500));
		last = await read();
	}
	return last;
}

/** The Options collection's "Add Option" select (Additional Fields is a collection too). */
const addOption = (page: Page) =>
	page
		.locator('[data-test-id=collection-parameter-add]')
		.filter({ has: page.locator('input[placeholder="Add Option"]') });

/** The node's credential: the full-access one (the e2e instance also holds a narrow key). */
async function chooseCredential(page: Page, state: E2eState): Promise<void> {
	await page.locator('[data-test-id=node-credentials-select]').click();
	await page
		.locator(`[data-test-id=node-credentials-select-item-${state.credentials.full.id}]`)
		.click();
	await expect(
		page.locator('[data-test-id=node-credentials-select] input').inputValue(),
	).resolves.toBe(state.credentials.full.name);
}

const fileName = (phrase: string) => phrase.toLowerCase().replace(/\W+/g, '-');

/**
 * The suite needs a Chromium: without one it is skipped with a message naming the command that
 * installs one, so that `npm test` on a fresh machine ends green; CI (MEDIAGEN_REQUIRE_CHROMIUM=1)
 * fails instead.
 */
function describeWithChromium(name: string, fn: () => void): void {
	const chromium = findChromium();
	if (!('missing' in chromium)) return describeWithN8n(name, fn);
	const message = noChromiumMessage(chromium.missing);
	if (process.env[REQUIRE_CHROMIUM_ENV] === '1') {
		describe(name, () => {
			it('has a Chromium to drive the editor with', () => {
				throw new Error(message);
			});
		});
		return;
	}
	process.stderr.write(
		`\n${'!'.repeat(100)}\n${message}\nThe editor suite is SKIPPED.\n${'!'.repeat(100)}\n`,
	);
	describe.skip(`${name} [SKIPPED: no Chromium; ${INSTALL_CHROMIUM}]`, fn);
}

describeWithChromium(
	'building a workflow from the node panel, as a user does in the n8n editor (real browser)',
	() => {
		const state = readE2eState();
		let browser: Browser;
		let page: Page;

		beforeAll(async () => {
			// screenshots of an earlier run (or of steps this test no longer takes) must not pass for this run's
			mkdirSync(ARTIFACTS, { recursive: true });
			for (const file of readdirSync(ARTIFACTS).filter((f) => f.endsWith('.png')))
				rmSync(join(ARTIFACTS, file));
			({ browser, page } = await openEditor(state));
		});
		afterAll(async () => browser?.close());

		it('"What happens next?" finds the node for each phrase users type, first or second among the MediaGen results', async () => {
			await openWorkflow(page, state, state.editorWorkflowId);
			await page.locator('[data-test-id=canvas-handle-plus]').first().click();
			const measured: Array<{
				phrase: string;
				nodes: string[];
				ranks: number[];
				mediaGenResults: string[];
			}> = [];
			for (const { phrase, nodes } of PANEL_SEARCH_PHRASES) {
				const names = await searchPanel(page, phrase);
				await shot(page, `panel-search-${fileName(phrase)}`);
				if (phrase === 'remove background') await saveDocImage(page, 'node-panel-search');
				measured.push({
					phrase,
					nodes,
					ranks: ranksAmongMediaGen(names, nodes),
					mediaGenResults: names.filter((n) => n.startsWith('MediaGen')),
				});
			}
			// the measured ranks, for the report and docs/editor.md
			writeFileSync(join(ARTIFACTS, 'panel-search-ranks.json'), JSON.stringify(measured, null, 2));
			expect(measured.filter((m) => !foundWhereUsersLook(m.ranks))).toEqual([]);
			await page.keyboard.press('Escape');
		});

		it('the trigger panel lists "MediaGen Trigger" by that name for "MediaGen trigger" and adds it with Run Completed chosen; the node explains registration and scopes', async () => {
			await page.goto(`${state.n8nUrl}/workflow/new`);
			await page.click('[data-test-id=canvas-add-button]');
			const names = await searchPanel(page, 'MediaGen trigger');
			await shot(page, 'panel-1-trigger-search');
			const mediaGen = names.filter((n) => n.startsWith('MediaGen'));
			writeFileSync(
				join(ARTIFACTS, 'panel-search-trigger.json'),
				JSON.stringify({ phrase: 'MediaGen trigger', mediaGenResults: mediaGen }, null, 2),
			);
			// n8n searches "MediaGen trigger" as "MediaGen" (it drops a last word that begins "trigger") and
			// ranks the fourteen matches by name length; the two triggers are the ones that read as triggers
			expect(mediaGen.filter((n) => /trigger/i.test(n))).toEqual([
				'MediaGen Trigger',
				'MediaGen Polling Trigger',
			]);
			expect(mediaGen).not.toContain('MediaGen');
			await pickInPanel(page, 'MediaGen Trigger');

			// no list of events to choose from first: the node is added with the generation event chosen
			await page.locator('[data-test-id=ndv]').waitFor();
			await chooseCredential(page, state);
			const startOn = page.locator('[data-test-id=parameter-input-events]');
			await expect(startOn.innerText()).resolves.toContain('Run Completed');
			await openDropdown(page, startOn);
			// the list fades in: its headlines are read once all four are there (or after 10 s, as they are)
			const headlines = page.locator('.el-select-dropdown__item:visible .option-headline');
			for (const end = Date.now() + 10_000; (await headlines.count()) < 4 && Date.now() < end; )
				await page.waitForTimeout(100);
			const choices = (await headlines.allTextContents()).map((t) => t.trim());
			await shot(page, 'panel-2-trigger-events');
			expect(choices).toEqual(['Run Completed', 'Run Failed', 'Batch Completed', 'Batch Failed']);
			// a multi-select stays open on Escape: close it by clicking the field's label
			await page.getByText('Start On', { exact: true }).click();
			await page.locator('.el-select-dropdown__item:visible').first().waitFor({ state: 'hidden' });
			await expect(page.locator('[data-test-id=trigger-header]').innerText()).resolves.toContain(
				'Start this workflow when MediaGen finishes a run or a batch',
			);
			await page.getByText('registers this workflow’s webhook with MediaGen for you').waitFor();
			await page.getByText('webhooks:read and webhooks:write').first().waitFor();
			await shot(page, 'panel-3-trigger-node');
			await closeNode(page);
			await expect(
				page.locator('[data-test-id=canvas-node]').first().innerText(),
			).resolves.toContain('Run Completed');
		});

		it("MediaGen Image lists its main action first and the estimates last; no one-choice Resource; the Model is a searchable list with prices and each model's Count limit; a ratio the new model lacks is flagged in the field", async () => {
			await page.locator('[data-test-id=canvas-handle-plus]').first().click();
			expect(await searchPanel(page, 'MediaGen')).toContain('MediaGen Image');
			await pickInPanel(page, 'MediaGen Image');
			const actions = page.locator('[data-test-id=item-iterator-item]');
			await actions.filter({ hasText: 'Generate images from a prompt' }).first().waitFor();
			const onlyActions = (texts: string[]) => texts.every((t) => !t.includes('MediaGen'));
			let texts: string[] = [];
			for (
				const deadline = Date.now() + 10_000;
				Date.now() < deadline && !(texts.length && onlyActions(texts));
				await page.waitForTimeout(250)
			) {
				texts = (await actions.allInnerTexts()).map((t) => t.trim());
			}
			await shot(page, 'panel-5-image-actions');
			expect(texts[0]).toBe('Generate images from a prompt');
			const firstEstimate = texts.findIndex((t) => t.startsWith('Estimate'));
			expect(firstEstimate).toBeGreaterThan(0);
			expect(texts.slice(firstEstimate).every((t) => t.startsWith('Estimate'))).toBe(true);

			await actions.filter({ hasText: 'Generate images from a prompt' }).first().click();
			await page.locator('[data-test-id=ndv]').waitFor();
			await chooseCredential(page, state);
			await page
				.locator('[data-test-id=parameter-input-prompt] textarea')
				.fill('a red fox in snow');
			// one resource, nothing to choose: no Resource dropdown (the Operation dropdown stays)
			await page.locator('[data-test-id=parameter-input-operation]').waitFor();
			await expect(page.locator('[data-test-id=parameter-input-resource]').count()).resolves.toBe(
				0,
			);

			// the Model: From List, one line per model with its price per unit (GET /models/pricing) and status
			const model = page.locator('[data-test-id=resource-locator-model]');
			await model.locator('[data-test-id=rlc-input]').click();
			const items = page.locator('[data-test-id=rlc-item]');
			await items.first().waitFor();
			const lines = await items.allInnerTexts();
			await shot(page, 'ndv-1-model-list');
			await saveDocImage(page, 'model-list-count-limit');
			expect(lines).toHaveLength(imageModels.length);
			expect(lines[0]).toBe(
				`Aurora 2 (image.aurora-2) · Count 1–${maxCountOf('image.aurora-2')} · 4 credits per image · default · from text or an image, reference images`,
			);
			const countOf = (id: string) =>
				maxCountOf(id) === 1 ? 'Count 1' : `Count 1–${maxCountOf(id)}`;
			for (const m of imageModels)
				expect(
					lines.some((l) =>
						l.startsWith(
							`${m.name} (${m.id}) · ${countOf(m.id)} · ${m.pricing.credits} credits per image`,
						),
					),
				).toBe(true);
			await page.keyboard.type('lumen');
			const lumen = [
				`Lumen XL (image.lumen-xl) · Count 1–${maxCountOf('image.lumen-xl')} · 8 credits per image · ${imageModels.find((m) => m.id === 'image.lumen-xl')!.description}`,
			];
			expect(await settled(() => items.allInnerTexts(), lumen)).toEqual(lumen);
			await items.first().click();
			await expect(model.locator('[data-test-id=rlc-input]').inputValue()).resolves.toContain(
				'image.lumen-xl',
			);

			// Aspect Ratio follows the model, with readable names
			const aspectRatio = page.locator('[data-test-id=parameter-input-aspectRatio]');
			const lumenRatios = await dropdownSettles(page, aspectRatio, (t) =>
				t.includes('3:2 (landscape)'),
			);
			await shot(page, 'ndv-2-aspect-ratios');
			expect(lumenRatios).toEqual([
				'Model Default',
				'1:1 (square)',
				'3:2 (landscape)',
				'2:3 (portrait)',
				'16:9 (landscape, widescreen)',
				'9:16 (portrait, stories and reels)',
				'Auto (the model chooses)',
			]);
			expect(lumenRatios.length - 1).toBe(ratiosOf('image.lumen-xl').length);
			await page
				.locator('.el-select-dropdown__item:visible', { hasText: '3:2 (landscape)' })
				.click();

			// switching to Aurora 2 (no 3:2): the field itself says so before anything runs
			await model.locator('[data-test-id=rlc-input]').click();
			await items.filter({ hasText: '(image.aurora-2)' }).first().click();
			const ratioInput = aspectRatio.locator('input').first();
			const flagged = '3:2 (landscape) — not offered by Aurora 2: choose another';
			expect(await settled(() => ratioInput.inputValue(), flagged)).toBe(flagged);
			await shot(page, 'ndv-3-stale-ratio-flagged');
			expect(ratiosOf('image.aurora-2')).not.toContain('3:2');
			await openDropdown(page, aspectRatio);
			await page
				.locator('.el-select-dropdown__item:visible', { hasText: '16:9 (landscape, widescreen)' })
				.click();
			await expect(ratioInput.inputValue()).resolves.toBe('16:9 (landscape, widescreen)');
			await closeNode(page);
		});

		it('"Execute workflow" listens; a generation finishing at the service starts it; the new node generates the image', async () => {
			const chargesBefore = (await sandboxAdmin<{ data: LedgerEntry[] }>(state, '/ledger')).data
				.length;
			const workflowId = /\/workflow\/([^/?#]+)/.exec(page.url())![1];
			await expect(
				page.locator('[data-test-id=canvas-node]').nth(1).innerText(),
			).resolves.toContain('Generate: Image');
			await page.click('[data-test-id=execute-workflow-button]');
			// listening registers a test endpoint at the service for this node
			await eventually('the test webhook to be registered', async () =>
				(await endpointsFor(state)).find((e) => e.url.includes('/webhook-test/')),
			);
			await page.getByText('Waiting for a MediaGen run or batch to finish').waitFor();
			await shot(page, 'canvas-1-listening');

			// "go to MediaGen and create an event": a generation made elsewhere (here: the API) completes
			const submitted = await fetch(`${state.sandbox.baseUrl}/images/generations`, {
				method: 'POST',
				headers: {
					authorization: 'Bearer mg_sandbox_full_access_key',
					'content-type': 'application/json',
					'idempotency-key': `e2e-editor-${Date.now()}`,
				},
				body: JSON.stringify({ prompt: 'a lighthouse at dusk' }),
			}).then((r) => r.json() as Promise<{ id: string }>);
			await page.getByText('Workflow executed successfully').waitFor({ timeout: 120_000 });
			await shot(page, 'canvas-2-executed');

			const executions = await n8nApi<{ data: Array<N8nExecution & { data?: N8nRun['data'] }> }>(
				state,
				`/executions?workflowId=${workflowId}&includeData=true&limit=5`,
			);
			const manual = executions.data.find((e) => e.mode === 'manual' || e.mode === 'webhook');
			expect(manual?.status).toBe('success');
			const runData = manual!.data!.resultData.runData;
			// nodes added from the panel are version 2: Simplify on, flat items (docs/outputs.md)
			const [event] = runData['MediaGen Trigger'][0].data!.main[0];
			expect(event.json).toMatchObject({
				event: 'run.completed',
				run_id: submitted.id,
				status: 'completed',
			});
			const [image] = runData['Generate images from a prompt'][0].data!.main[0];
			expect(image.json).toMatchObject({
				status: 'completed',
				model: 'image.aurora-2',
				prompt: 'a red fox in snow',
				output_url: expect.stringContaining('/storage/files/'),
			});
			expect((image.json.width as number) * 9).toBe((image.json.height as number) * 16);
			expect(image.binary?.data.mimeType).toBe('image/png');
			const ledger = (await sandboxAdmin<{ data: LedgerEntry[] }>(state, '/ledger')).data;
			expect(
				ledger.slice(chargesBefore).filter((e) => e.run_id === image.json.run_id),
			).toHaveLength(1);
			// the test endpoint is removed once the test event has arrived
			await eventually('the test webhook to be removed', async () =>
				(await endpointsFor(state)).some((e) => e.url.includes('/webhook-test/'))
					? undefined
					: true,
			);
		});

		it('a workflow saved before the Model became a searchable list (a plain alias) opens with that model and its ratios, and runs', async () => {
			await page.goto(`${state.n8nUrl}/workflow/${state.editorWorkflowId}`);
			await page.locator('[data-test-id=canvas-node][data-node-name="Generate Image"]').dblclick();
			const model = page.locator('[data-test-id=resource-locator-model]');
			expect(
				await settled(
					() => model.locator('[data-test-id=rlc-input]').inputValue(),
					'image.aurora-2',
				),
			).toBe('image.aurora-2');
			const ratios = await dropdownSettles(
				page,
				page.locator('[data-test-id=parameter-input-aspectRatio]'),
				(t) => t.length > 1,
			);
			expect(ratios).toEqual([
				'Model Default',
				'1:1 (square)',
				'16:9 (landscape, widescreen)',
				'9:16 (portrait, stories and reels)',
				'4:3 (landscape)',
				'3:4 (portrait)',
				'21:9 (landscape, cinematic)',
			]);
			await shot(page, 'ndv-4-saved-plain-model');
			await page.keyboard.press('Escape');
			await page.click('[data-test-id=ndv-close-button]');
		});

		it('"Execute workflow" in the editor runs example 04: four items, each with a PNG, each run charged once', async () => {
			const workflowId = state.examples['04-many-prompts-at-once'];
			const chargesBefore = (await sandboxAdmin<{ data: LedgerEntry[] }>(state, '/ledger')).data
				.length;
			// the screenshot helper the docs use: open, run, open the node, save
			const saved = await screenshotNodeAfterRun(page, state, {
				workflowId,
				node: 'Generate Images',
				name: 'editor-execution-output',
				to: 'artifacts',
			});
			expect(saved).toBe(join(ARTIFACTS, 'editor-execution-output.png'));
			await page.getByText('4 items').first().waitFor();

			const executions = await fetch(
				`${state.n8nUrl}/api/v1/executions?workflowId=${workflowId}&includeData=true&limit=20`,
				{
					headers: { 'X-N8N-API-KEY': state.apiKey },
				},
			).then(
				(r) =>
					r.json() as Promise<{
						data: Array<{ mode: string; status: string; data: N8nRun['data'] }>;
					}>,
			);
			const manual = executions.data.find((e) => e.mode === 'manual');
			expect(manual?.status).toBe('success');
			const items = manual!.data.resultData.runData['Generate Images'][0].data!.main[0];
			expect(items).toHaveLength(4);
			for (const item of items) expect(item.binary?.data.mimeType).toBe('image/png');
			const ledger = (await sandboxAdmin<{ data: LedgerEntry[] }>(state, '/ledger')).data;
			expect(ledger.length - chargesBefore).toBe(4);
			for (const item of items)
				expect(ledger.filter((e) => e.run_id === item.json.run_id)).toHaveLength(1);
		});

		it('example 01 in the editor: the product, its ads and their images read as a marketing user reads them (the README shows these screens)', async () => {
			const workflowId = state.examples['01-product-page-to-ad-images'];
			await openWorkflow(page, state, workflowId);
			await executeWorkflow(page);
			// the run's button turns back from its spinner after the success toast: the screen shows its label
			await page
				.locator('[data-test-id=execute-workflow-button]')
				.getByText(/execute workflow/i)
				.waitFor({ timeout: 30_000 });
			await saveDocImage(page, 'example01-canvas');

			/** Opens a node, shows its output as the table a user reads (n8n opens nodes with files on Binary), saves it for the docs, returns its text. */
			const tableOf = async (node: string, items: string, image: string): Promise<string> => {
				await openNode(page, node);
				const output = page.locator('[data-test-id=output-panel]');
				await output.getByText(items).first().waitFor();
				await output.getByText('Table', { exact: true }).first().click();
				await saveDocImage(page, image);
				const text = await output.innerText();
				await closeNode(page);
				expect(text).not.toMatch(/\bundefined\b|\[object Object\]/);
				return text;
			};

			expect(await tableOf('Extract Product', '1 item', 'example01-product')).toContain(
				'Ceramic Mug',
			);
			const variants = await tableOf('Ad Variants', '3 items', 'example01-ad-variants');
			expect(variants).toContain('headline');
			expect(variants).toContain('Ceramic Mug');
			expect(variants).not.toContain('https://shop.example.com/products/ceramic-mug');
			expect(await tableOf('Generate Ad Image', '3 items', 'example01-ad-images')).toContain(
				'Ceramic Mug',
			);
		});

		it('Options offers one Wait Timeout, the one of the Wait Mode set, with its default; switching the mode keeps one field and the value', async () => {
			const generate = videoEndpoints.find(
				(e) => e.resource === 'video' && e.operation === 'generate',
			)!;
			expect(generate.defaultWait).toBe('parked');
			const pausedDefault = String(pausedWaitTimeoutOf(generate));
			const inExecutionDefault = String(IN_EXECUTION_WAIT_TIMEOUT);
			expect(pausedDefault).not.toBe(inExecutionDefault);
			const waitMode = page.locator('[data-test-id=parameter-input-waitMode]');
			const waitTimeout = page.locator('[data-test-id=parameter-input-waitTimeout]');
			const waitTimeoutValue = () => waitTimeout.locator('input').first().inputValue();
			/** Switches Wait Mode; the panel then shows one Wait Timeout, still holding `value`. */
			const switchWaitModeKeeping = async (mode: string, value: string, screenshot: string) => {
				await openDropdown(page, waitMode);
				await page.locator('.el-select-dropdown__item:visible', { hasText: mode }).click();
				await expect(waitMode.locator('input').first().inputValue()).resolves.toBe(mode);
				await page.waitForTimeout(500);
				await shot(page, screenshot);
				await expect(waitTimeout.count()).resolves.toBe(1);
				await expect(waitTimeoutValue()).resolves.toBe(value);
			};
			/** "Add Option" → the Wait Timeouts offered (exactly one expected), which is then added. */
			const addWaitTimeout = async (screenshot: string) => {
				const offered = await (await openDropdown(page, addOption(page))).allTextContents();
				const item = page.locator('.el-select-dropdown__item:visible', { hasText: 'Wait Timeout' });
				await item.first().scrollIntoViewIfNeeded();
				await shot(page, screenshot);
				expect(offered.map((t) => t.trim()).filter((t) => t.startsWith('Wait Timeout'))).toEqual([
					'Wait Timeout (Seconds)',
				]);
				await item.click();
				await waitTimeout.first().waitFor();
				await page.waitForTimeout(500);
			};

			await page.goto(`${state.n8nUrl}/workflow/new`);
			await page.click('[data-test-id=canvas-add-button]');
			expect(await searchPanel(page, 'MediaGen Video')).toContain('MediaGen Video');
			await pickInPanel(page, 'MediaGen Video');
			await page
				.locator('[data-test-id=item-iterator-item]')
				.filter({ hasText: generate.action })
				.first()
				.click();
			await page.locator('[data-test-id=ndv]').waitFor();
			await expect(waitMode.locator('input').first().inputValue()).resolves.toBe(
				'Pause the Execution Until They Finish',
			);

			// paused (the default): one Wait Timeout offered; added, it holds this operation's paused deadline
			await addWaitTimeout('ndv-5-wait-timeout-offered');
			await shot(page, 'ndv-6-wait-timeout-paused');
			await expect(waitTimeout.count()).resolves.toBe(1);
			expect(await settled(waitTimeoutValue, pausedDefault)).toBe(pausedDefault);

			// In This Execution: still one field, and the value set stays (n8n keeps a collection's values)
			await switchWaitModeKeeping(
				'In This Execution',
				pausedDefault,
				'ndv-7-wait-timeout-in-execution',
			);
			await openDropdown(page, addOption(page));
			await expect(
				page.locator('.el-select-dropdown__item:visible', { hasText: 'Wait Timeout' }).count(),
			).resolves.toBe(0);
			await page.keyboard.press('Escape');

			// removed and added again in this mode, it holds the in-execution default; back to paused, that stays
			const row = page.locator('.parameter-item', { has: waitTimeout });
			await row.hover();
			await row.locator('[title=Delete]').first().click();
			await expect(waitTimeout.count()).resolves.toBe(0);
			await addWaitTimeout('ndv-8-wait-timeout-offered-in-execution');
			expect(await settled(waitTimeoutValue, inExecutionDefault)).toBe(inExecutionDefault);
			await switchWaitModeKeeping(
				'Pause the Execution Until They Finish',
				inExecutionDefault,
				'ndv-9-wait-timeout-paused-again',
			);
		});

		describe('a video made while the execution is paused (a sandbox of this test holds the run until the screenshots are taken)', () => {
			let slow: Sandbox;
			let workflowId = '';
			const videoNode = 'Generate a video';
			const executionOf = async () =>
				(
					await n8nApi<{ data: Array<N8nExecution & { data?: N8nRun['data'] }> }>(
						state,
						`/executions?workflowId=${workflowId}&includeData=true&limit=1`,
					)
				).data[0];
			const hintsOf = (execution: { data?: N8nRun['data'] }) =>
				(
					(
						execution.data?.resultData.runData[videoNode]?.[0] as
							| { hints?: Array<{ message: string }> }
							| undefined
					)?.hints ?? []
				).map((h) => h.message);
			/**
			 * Starts the held run, then makes a run elsewhere so the sandbox takes its queue up again (it
			 * does on a submit): the video then takes a second, and its event resumes the execution.
			 */
			const releaseRuns = async () => {
				slow.state.options.concurrencyPerAccount = 50;
				const res = await fetch(`${slow.baseUrl}/images/generations`, {
					method: 'POST',
					headers: {
						authorization: `Bearer ${SANDBOX_API_KEY}`,
						'content-type': 'application/json',
						'idempotency-key': `e2e-release-${Date.now()}`,
					},
					body: JSON.stringify({ prompt: 'another generation of the account' }),
				});
				expect(res.status).toBe(202);
			};

			beforeAll(async () => {
				// no run starts until releaseRuns(): the pause lasts as long as the test needs, on any machine
				slow = await startSandbox({ latencyMs: 1000, concurrencyPerAccount: 0 });
				const n8n = { url: state.n8nUrl };
				const credential = await publicApi<{ id: string; name: string }>(
					n8n,
					state.apiKey,
					'/credentials',
					'POST',
					{
						name: 'MediaGen API (video sandbox)',
						type: 'mediaGenApi',
						data: {
							baseUrl: slow.baseUrl,
							apiKey: SANDBOX_API_KEY,
							allowedHttpRequestDomains: 'all',
						},
					},
				);
				({ id: workflowId } = await publicApi<{ id: string }>(
					n8n,
					state.apiKey,
					'/workflows',
					'POST',
					{
						name: 'MediaGen: a video, paused while it is made',
						nodes: [
							{
								id: 'paused-1',
								name: 'Start',
								type: 'n8n-nodes-base.manualTrigger',
								typeVersion: 1,
								position: [0, 0],
								parameters: {},
							},
							{
								id: 'paused-2',
								name: videoNode,
								type: 'CUSTOM.mediaGenVideo',
								typeVersion: 1,
								position: [260, 0],
								// Wait Mode at its default: "Pause the Execution Until They Finish" for video
								parameters: {
									resource: 'video',
									operation: 'generate',
									prompt:
										'A 5-second slow dolly shot of a ceramic coffee mug on a wooden table, morning light',
								},
								credentials: { mediaGenApi: credential },
							},
						],
						connections: { Start: { main: [[{ node: videoNode, type: 'main', index: 0 }]] } },
						settings: { executionOrder: 'v1' },
					},
				));
			});
			afterAll(async () => slow?.close());

			it('says before the run, in the node, that it will pause the execution and where to watch it', async () => {
				await openWorkflow(page, state, workflowId);
				await openNode(page, videoNode);
				await expect(
					page.locator('[data-test-id=parameter-input-waitMode] input').first().inputValue(),
				).resolves.toBe('Pause the Execution Until They Finish');
				const notice = page.getByText('This node pauses the execution until MediaGen has finished');
				await notice.scrollIntoViewIfNeeded();
				await expect(notice.innerText()).resolves.toMatch(
					/listed as Waiting under Executions.*continues by itself/s,
				);
				await saveDocImage(page, 'pause-notice-in-panel');
				// In This Execution: the notice goes
				await openDropdown(page, page.locator('[data-test-id=parameter-input-waitMode]'));
				await page
					.locator('.el-select-dropdown__item:visible', { hasText: 'In This Execution' })
					.click();
				await expect(notice.count()).resolves.toBe(0);
				await openDropdown(page, page.locator('[data-test-id=parameter-input-waitMode]'));
				await page
					.locator('.el-select-dropdown__item:visible', {
						hasText: 'Pause the Execution Until They Finish',
					})
					.click();
				await notice.waitFor();
				await closeNode(page);
				await page.keyboard.press('Control+s');
			});

			it('while paused: the node names the run it waits for and the deadline, the executions list shows it Waiting; it resumes by itself when the video is ready', async () => {
				await executeWorkflow(page, { waitForSuccess: false });
				const paused = await eventually(
					'the execution to pause',
					async () => ((await executionOf())?.status === 'waiting' ? executionOf() : undefined),
					60_000,
				);
				const runId = String(
					paused.data!.resultData.runData[videoNode][0].data!.main[0][0].json.run_id,
				);
				expect(runId).toMatch(/^run_/);
				expect(hintsOf(paused)).toEqual([
					expect.stringMatching(
						new RegExp(
							`^Paused until MediaGen finishes 1 run \\(${runId}\\): the execution continues by itself`,
						),
					),
				]);

				// the node's panel while paused: n8n's "Waiting for input", and the node's own note under the output header
				await openNode(page, videoNode);
				await page.getByRole('heading', { name: 'Waiting for input' }).waitFor();
				const hint = page.getByText(`Paused until MediaGen finishes 1 run (${runId})`);
				const hintShown = await hint.isVisible();
				await saveDocImage(page, 'paused-node-panel');
				await closeNode(page);
				await shot(page, 'paused-canvas');

				// the executions list: status Waiting, "until" the deadline on hover
				await page.goto(`${state.n8nUrl}/home/executions`);
				const row = page
					.locator('tr', { hasText: 'MediaGen: a video, paused while it is made' })
					.first();
				await row.getByText('Waiting').waitFor();
				await row.getByText('Waiting').hover();
				await page.waitForTimeout(800);
				await saveDocImage(page, 'paused-executions-list');
				expect((await executionOf()).status).toBe('waiting');

				await releaseRuns();
				const done = await eventually(
					'the execution to resume and finish',
					async () => ((await executionOf())?.status === 'success' ? executionOf() : undefined),
					180_000,
				);
				const [video] = done.data!.resultData.runData[videoNode][0].data!.main[0];
				expect(video.json).toMatchObject({ id: runId, status: 'completed' });
				expect(video.binary?.data.mimeType).toBe('video/mp4');
				expect(hintsOf(done)).toEqual([]);
				expect({ hintShownInPanel: hintShown }).toEqual({ hintShownInPanel: true });
			});
		});

		it('the credential form says where a key comes from and what the Base URL is', async () => {
			await page.goto(`${state.n8nUrl}/home/credentials/${state.credentials.full.id}`);
			await page.getByText('No key yet? Save this credential with the Base URL only').waitFor();
			await page.getByText('Your MediaGen service’s API address, ending in /v1').waitFor();
			await page.getByText('A key of your MediaGen account').waitFor();
			await saveDocImage(page, 'credential-form');
			await page.keyboard.press('Escape');
		});
	},
);
