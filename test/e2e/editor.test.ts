/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

import { listedModels } from '../../sandbox/models';
import { videoEndpoints } from '../../src/catalog/video';
import { IN_EXECUTION_WAIT_TIMEOUT, pausedWaitTimeoutOf } from '../../src/catalog/wait-timeouts';
import type { LedgerEntry } from '../../sandbox/state';
import { ARTIFACTS, describeWithN8n, endpointsFor, eventually, n8nApi, readE2eState, sandboxAdmin, type E2eState, type N8nExecution, type N8nRun } from './state';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-dev-shm-usage',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
];

const imageModels = listedModels().filter((m) => m.capability === 'image_generation');
const ratiosOf = (id: string) => (imageModels.find((m) => m.id === id)!.limits as { aspect_ratios: string[] }).aspect_ratios;
const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });

/** Opens an n8n select (element-plus) and returns its options once they are listed. */
async function openDropdown(page: Page, parameter: Locator): Promise<Locator> {
	await parameter.locator('input').first().click();
	const options = page.locator('.el-select-dropdown__item:visible');
	await options.first().waitFor({ timeout: 60_000 });
	return options;
}

/** Reopens a dropdown until its options read as expected (n8n reloads them asynchronously). */
async function dropdownSettles(page: Page, parameter: Locator, expected: (texts: string[]) => boolean): Promise<string[]> {
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
	for (const deadline = Date.now() + timeoutMs; JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < deadline; ) {
		await new Promise((r) => setTimeout(r, 500));
		last = await read();
	}
	return last;
}

/** The Options collection's "Add Option" select (Additional Fields is a collection too). */
const addOption = (page: Page) => page.locator('[data-test-id=collection-parameter-add]').filter({ has: page.locator('input[placeholder="Add Option"]') });

/** The names the node panel lists now (a trigger shows without "Trigger": "MediaGen"). */
const panelNames = async (page: Page) => (await page.locator('[data-test-id=node-creator-item-name]').allTextContents()).map((t) => t.trim());

async function searchPanel(page: Page, term: string): Promise<string[]> {
	await page.fill('[data-test-id=node-creator-search-bar]', term);
	await page.locator('[data-test-id=node-creator-item-name]').first().waitFor();
	await page.waitForTimeout(500);
	return await panelNames(page);
}

async function pickInPanel(page: Page, name: string): Promise<void> {
	const names = await panelNames(page);
	expect(names).toContain(name);
	await page.locator('[data-test-id=node-creator-item-name]').nth(names.indexOf(name)).click();
}

/** The node's credential: the full-access one (the e2e instance also holds a narrow key). */
async function chooseCredential(page: Page, state: E2eState): Promise<void> {
	await page.locator('[data-test-id=node-credentials-select]').click();
	await page.locator(`[data-test-id=node-credentials-select-item-${state.credentials.full.id}]`).click();
	await expect(page.locator('[data-test-id=node-credentials-select] input').inputValue()).resolves.toBe(state.credentials.full.name);
}

async function login(page: Page, state: E2eState): Promise<void> {
	await page.goto(`${state.n8nUrl}/signin`);
	await page.fill('input[name=emailOrLdapLoginId]', state.owner.email);
	await page.fill('input[name=password]', state.owner.password);
	await page.click('[data-test-id=form-submit-button]');
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
}

describeWithN8n('building a workflow from the node panel, as a user does in the n8n editor (real browser)', () => {
	const state = readE2eState();
	let browser: Browser;
	let page: Page;

	beforeAll(async () => {
		// screenshots of an earlier run (or of steps this test no longer takes) must not pass for this run's
		mkdirSync(ARTIFACTS, { recursive: true });
		for (const file of readdirSync(ARTIFACTS).filter((f) => f.endsWith('.png'))) rmSync(join(ARTIFACTS, file));
		browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
		page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
		page.setDefaultTimeout(60_000);
		await login(page, state);
	});
	afterAll(async () => browser?.close());

	it('the trigger panel finds the MediaGen Trigger, lists its events as actions and explains registration and scopes', async () => {
		await page.goto(`${state.n8nUrl}/workflow/new`);
		await page.click('[data-test-id=canvas-add-button]');
		const found = await searchPanel(page, 'MediaGen');
		await shot(page, 'panel-1-trigger-search');
		expect(found).toContain('MediaGen');
		// Listed, not first: n8n ranks by a fuzzy score of the display name that loses points per letter
		// not typed, so "MediaGen Trigger" follows the shorter action nodes' names; an exact alias
		// ("MediaGen") scores less (aliases weigh 1, names 1.3). Measured with n8n's sublimeSearch.
		await pickInPanel(page, 'MediaGen');
		const events = page.locator('[data-test-id=item-iterator-item]');
		const eventActions = ['When a batch completes', 'When a batch fails', 'When a generation completes', 'When a generation fails'];
		// the panel slides from the search to the node's view: read once the search list is gone
		expect(await settled(async () => (await events.allInnerTexts()).map((t) => t.trim()), eventActions)).toEqual(eventActions);
		await shot(page, 'panel-2-trigger-events');

		await events.filter({ hasText: 'When a generation completes' }).click();
		await page.locator('[data-test-id=ndv]').waitFor();
		await chooseCredential(page, state);
		await expect(page.locator('[data-test-id=trigger-header]').innerText()).resolves.toContain('Start this workflow when MediaGen finishes a run or a batch');
		await page.getByText('registers this workflow’s webhook with MediaGen for you').waitFor();
		await page.getByText('webhooks:read and webhooks:write').first().waitFor();
		await shot(page, 'panel-3-trigger-node');
		await page.click('[data-test-id=ndv-close-button]');
		await expect(page.locator('[data-test-id=canvas-node]').first().innerText()).resolves.toContain('Run Completed');
	});

	it('"What happens next?" finds the right node for MediaGen, image, video and speech, first among the MediaGen results', async () => {
		await page.locator('[data-test-id=canvas-handle-plus]').first().click();
		const expected: Array<[string, string]> = [
			['MediaGen', 'MediaGen Image'],
			['image', 'MediaGen Image'],
			['video', 'MediaGen Video'],
			['speech', 'MediaGen Audio'],
		];
		for (const [term, node] of expected) {
			const names = await searchPanel(page, term);
			await shot(page, `panel-4-search-${term.toLowerCase()}`);
			expect({ term, found: names.includes(node) }).toEqual({ term, found: true });
			if (term !== 'MediaGen') expect({ term, first: names.find((n) => n.startsWith('MediaGen')) }).toEqual({ term, first: node });
		}
		const all = await searchPanel(page, 'MediaGen');
		for (const node of ['MediaGen Image', 'MediaGen Video', 'MediaGen Audio', 'MediaGen Workflow', 'MediaGen Run']) expect(all).toContain(node);
	});

	it('MediaGen Image lists its main action first and the estimates last; the Model is a searchable list with prices; a ratio the new model lacks is flagged in the field', async () => {
		await pickInPanel(page, 'MediaGen Image');
		const actions = page.locator('[data-test-id=item-iterator-item]');
		await actions.filter({ hasText: 'Generate images from a prompt' }).first().waitFor();
		const onlyActions = (texts: string[]) => texts.every((t) => !t.includes('MediaGen'));
		let texts: string[] = [];
		for (const deadline = Date.now() + 10_000; Date.now() < deadline && !(texts.length && onlyActions(texts)); await page.waitForTimeout(250)) {
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
		await page.locator('[data-test-id=parameter-input-prompt] textarea').fill('a red fox in snow');

		// the Model: From List, one line per model with its price per unit (GET /models/pricing) and status
		const model = page.locator('[data-test-id=resource-locator-model]');
		await model.locator('[data-test-id=rlc-input]').click();
		const items = page.locator('[data-test-id=rlc-item]');
		await items.first().waitFor();
		const lines = await items.allInnerTexts();
		await shot(page, 'ndv-1-model-list');
		expect(lines).toHaveLength(imageModels.length);
		expect(lines[0]).toBe('Aurora 2 (image.aurora-2) · 4 credits per image · default · from text or an image, reference images');
		for (const m of imageModels) expect(lines.some((l) => l.startsWith(`${m.name} (${m.id}) · ${m.pricing.credits} credits per image`))).toBe(true);
		await page.keyboard.type('lumen');
		const lumen = [`Lumen XL (image.lumen-xl) · 8 credits per image · ${imageModels.find((m) => m.id === 'image.lumen-xl')!.description}`];
		expect(await settled(() => items.allInnerTexts(), lumen)).toEqual(lumen);
		await items.first().click();
		await expect(model.locator('[data-test-id=rlc-input]').inputValue()).resolves.toContain('image.lumen-xl');

		// Aspect Ratio follows the model, with readable names
		const aspectRatio = page.locator('[data-test-id=parameter-input-aspectRatio]');
		const lumenRatios = await dropdownSettles(page, aspectRatio, (t) => t.includes('3:2 (landscape)'));
		await shot(page, 'ndv-2-aspect-ratios');
		expect(lumenRatios).toEqual(['Model Default', '1:1 (square)', '3:2 (landscape)', '2:3 (portrait)', '16:9 (landscape, widescreen)', '9:16 (portrait, stories and reels)', 'Auto (the model chooses)']);
		expect(lumenRatios.length - 1).toBe(ratiosOf('image.lumen-xl').length);
		await page.locator('.el-select-dropdown__item:visible', { hasText: '3:2 (landscape)' }).click();

		// switching to Aurora 2 (no 3:2): the field itself says so before anything runs
		await model.locator('[data-test-id=rlc-input]').click();
		await items.filter({ hasText: '(image.aurora-2)' }).first().click();
		const ratioInput = aspectRatio.locator('input').first();
		const flagged = '3:2 (landscape) — not offered by Aurora 2: choose another';
		expect(await settled(() => ratioInput.inputValue(), flagged)).toBe(flagged);
		await shot(page, 'ndv-3-stale-ratio-flagged');
		expect(ratiosOf('image.aurora-2')).not.toContain('3:2');
		await openDropdown(page, aspectRatio);
		await page.locator('.el-select-dropdown__item:visible', { hasText: '16:9 (landscape, widescreen)' }).click();
		await expect(ratioInput.inputValue()).resolves.toBe('16:9 (landscape, widescreen)');
		await page.click('[data-test-id=ndv-close-button]');
	});

	it('"Execute workflow" listens; a generation finishing at the service starts it; the new node generates the image', async () => {
		const chargesBefore = (await sandboxAdmin<{ data: LedgerEntry[] }>(state, '/ledger')).data.length;
		const workflowId = /\/workflow\/([^/?#]+)/.exec(page.url())![1];
		await expect(page.locator('[data-test-id=canvas-node]').nth(1).innerText()).resolves.toContain('Generate: Image');
		await page.click('[data-test-id=execute-workflow-button]');
		// listening registers a test endpoint at the service for this node
		await eventually('the test webhook to be registered', async () => (await endpointsFor(state)).find((e) => e.url.includes('/webhook-test/')));
		await page.getByText('Waiting for a MediaGen run or batch to finish').waitFor();
		await shot(page, 'canvas-1-listening');

		// "go to MediaGen and create an event": a generation made elsewhere (here: the API) completes
		const submitted = await fetch(`${state.sandbox.baseUrl}/images/generations`, {
			method: 'POST',
			headers: { authorization: 'Bearer mg_sandbox_full_access_key', 'content-type': 'application/json', 'idempotency-key': `e2e-editor-${Date.now()}` },
			body: JSON.stringify({ prompt: 'a lighthouse at dusk' }),
		}).then((r) => r.json() as Promise<{ id: string }>);
		await page.getByText('Workflow executed successfully').waitFor({ timeout: 120_000 });
		await shot(page, 'canvas-2-executed');

		const executions = await n8nApi<{ data: Array<N8nExecution & { data?: N8nRun['data'] }> }>(state, `/executions?workflowId=${workflowId}&includeData=true&limit=5`);
		const manual = executions.data.find((e) => e.mode === 'manual' || e.mode === 'webhook');
		expect(manual?.status).toBe('success');
		const runData = manual!.data!.resultData.runData;
		// nodes added from the panel are version 2: Simplify on, flat items (docs/outputs.md)
		const [event] = runData['MediaGen Trigger'][0].data!.main[0];
		expect(event.json).toMatchObject({ event: 'run.completed', run_id: submitted.id, status: 'completed' });
		const [image] = runData['Generate images from a prompt'][0].data!.main[0];
		expect(image.json).toMatchObject({ status: 'completed', model: 'image.aurora-2', prompt: 'a red fox in snow', output_url: expect.stringContaining('/storage/files/') });
		expect((image.json.width as number) * 9).toBe((image.json.height as number) * 16);
		expect(image.binary?.data.mimeType).toBe('image/png');
		const ledger = (await sandboxAdmin<{ data: LedgerEntry[] }>(state, '/ledger')).data;
		expect(ledger.slice(chargesBefore).filter((e) => e.run_id === image.json.run_id)).toHaveLength(1);
		// the test endpoint is removed once the test event has arrived
		await eventually('the test webhook to be removed', async () => ((await endpointsFor(state)).some((e) => e.url.includes('/webhook-test/')) ? undefined : true));
	});

	it('a workflow saved before the Model became a searchable list (a plain alias) opens with that model and its ratios, and runs', async () => {
		await page.goto(`${state.n8nUrl}/workflow/${state.editorWorkflowId}`);
		await page.locator('[data-test-id=canvas-node][data-node-name="Generate Image"]').dblclick();
		const model = page.locator('[data-test-id=resource-locator-model]');
		expect(await settled(() => model.locator('[data-test-id=rlc-input]').inputValue(), 'image.aurora-2')).toBe('image.aurora-2');
		const ratios = await dropdownSettles(page, page.locator('[data-test-id=parameter-input-aspectRatio]'), (t) => t.length > 1);
		expect(ratios).toEqual(['Model Default', '1:1 (square)', '16:9 (landscape, widescreen)', '9:16 (portrait, stories and reels)', '4:3 (landscape)', '3:4 (portrait)', '21:9 (landscape, cinematic)']);
		await shot(page, 'ndv-4-saved-plain-model');
		await page.keyboard.press('Escape');
		await page.click('[data-test-id=ndv-close-button]');
	});

	it('"Execute workflow" in the editor runs example 04: four items, each with a PNG, each run charged once', async () => {
		const workflowId = state.examples['04-many-prompts-at-once'];
		const chargesBefore = (await sandboxAdmin<{ data: LedgerEntry[] }>(state, '/ledger')).data.length;
		await page.goto(`${state.n8nUrl}/workflow/${workflowId}`);
		await page.locator('[data-test-id=canvas-node][data-node-name="Generate Images"]').waitFor();
		await page.click('[data-test-id=execute-workflow-button]');
		await page.getByText('Workflow executed successfully').waitFor({ timeout: 120_000 });

		await page.locator('[data-test-id=canvas-node][data-node-name="Generate Images"]').dblclick();
		await page.getByText('4 items').first().waitFor();
		await shot(page, 'editor-execution-output');

		const executions = await fetch(`${state.n8nUrl}/api/v1/executions?workflowId=${workflowId}&includeData=true&limit=20`, {
			headers: { 'X-N8N-API-KEY': state.apiKey },
		}).then((r) => r.json() as Promise<{ data: Array<{ mode: string; status: string; data: N8nRun['data'] }> }>);
		const manual = executions.data.find((e) => e.mode === 'manual');
		expect(manual?.status).toBe('success');
		const items = manual!.data.resultData.runData['Generate Images'][0].data!.main[0];
		expect(items).toHaveLength(4);
		for (const item of items) expect(item.binary?.data.mimeType).toBe('image/png');
		const ledger = (await sandboxAdmin<{ data: LedgerEntry[] }>(state, '/ledger')).data;
		expect(ledger.length - chargesBefore).toBe(4);
		for (const item of items) expect(ledger.filter((e) => e.run_id === item.json.id)).toHaveLength(1);
	});

	it('Options offers one Wait Timeout, the one of the Wait Mode set, with its default; switching the mode keeps one field and the value', async () => {
		const generate = videoEndpoints.find((e) => e.resource === 'video' && e.operation === 'generate')!;
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
			expect(offered.map((t) => t.trim()).filter((t) => t.startsWith('Wait Timeout'))).toEqual(['Wait Timeout (Seconds)']);
			await item.click();
			await waitTimeout.first().waitFor();
			await page.waitForTimeout(500);
		};

		await page.goto(`${state.n8nUrl}/workflow/new`);
		await page.click('[data-test-id=canvas-add-button]');
		await searchPanel(page, 'MediaGen Video');
		await pickInPanel(page, 'MediaGen Video');
		await page.locator('[data-test-id=item-iterator-item]').filter({ hasText: generate.action }).first().click();
		await page.locator('[data-test-id=ndv]').waitFor();
		await expect(waitMode.locator('input').first().inputValue()).resolves.toBe('Pause the Execution Until They Finish');

		// paused (the default): one Wait Timeout offered; added, it holds this operation's paused deadline
		await addWaitTimeout('ndv-5-wait-timeout-offered');
		await shot(page, 'ndv-6-wait-timeout-paused');
		await expect(waitTimeout.count()).resolves.toBe(1);
		expect(await settled(waitTimeoutValue, pausedDefault)).toBe(pausedDefault);

		// In This Execution: still one field, and the value set stays (n8n keeps a collection's values)
		await switchWaitModeKeeping('In This Execution', pausedDefault, 'ndv-7-wait-timeout-in-execution');
		await openDropdown(page, addOption(page));
		await expect(page.locator('.el-select-dropdown__item:visible', { hasText: 'Wait Timeout' }).count()).resolves.toBe(0);
		await page.keyboard.press('Escape');

		// removed and added again in this mode, it holds the in-execution default; back to paused, that stays
		const row = page.locator('.parameter-item', { has: waitTimeout });
		await row.hover();
		await row.locator('[title=Delete]').first().click();
		await expect(waitTimeout.count()).resolves.toBe(0);
		await addWaitTimeout('ndv-8-wait-timeout-offered-in-execution');
		expect(await settled(waitTimeoutValue, inExecutionDefault)).toBe(inExecutionDefault);
		await switchWaitModeKeeping('Pause the Execution Until They Finish', inExecutionDefault, 'ndv-9-wait-timeout-paused-again');
	});
});
