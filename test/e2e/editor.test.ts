/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

import { sandboxModels } from '../../sandbox/models';
import type { LedgerEntry } from '../../sandbox/state';
import { ARTIFACTS, describeWithN8n, readE2eState, sandboxAdmin, type N8nRun } from './state';

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

const imageModels = sandboxModels.filter((m) => m.capability === 'image_generation');
const ratiosOf = (id: string) => (imageModels.find((m) => m.id === id)!.limits as { aspect_ratios: string[] }).aspect_ratios;

/** Opens an n8n select (element-plus) and returns the texts of its options once they are listed. */
async function openDropdown(page: Page, parameter: Locator): Promise<Locator> {
	await parameter.locator('input').first().click();
	const options = page.locator('.el-select-dropdown__item:visible');
	await options.first().waitFor({ timeout: 60_000 });
	return options;
}

describeWithN8n('the MediaGen Image node in the n8n editor (real browser)', () => {
	const state = readE2eState();
	let browser: Browser;
	let page: Page;

	beforeAll(async () => {
		mkdirSync(ARTIFACTS, { recursive: true });
		browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
		page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
		page.setDefaultTimeout(60_000);
		await page.goto(`${state.n8nUrl}/signin`);
		await page.fill('input[name=emailOrLdapLoginId]', state.owner.email);
		await page.fill('input[name=password]', state.owner.password);
		await page.click('[data-test-id=form-submit-button]');
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
	});
	afterAll(async () => browser?.close());

	it('lists the sandbox model aliases in the Model dropdown, and after picking one offers that model’s aspect ratios', async () => {
		await page.goto(`${state.n8nUrl}/workflow/${state.editorWorkflowId}`);
		await page.locator('[data-test-id=canvas-node][data-node-name="Generate Image"]').dblclick();
		const model = page.locator('[data-test-id=parameter-input-model]');
		const aspectRatio = page.locator('[data-test-id=parameter-input-aspectRatio]');
		await model.waitFor();

		// The Model dropdown: filled by the node's loadOptions from the sandbox's GET /models.
		const modelOptions = await openDropdown(page, model);
		const modelTexts = await modelOptions.allTextContents();
		await page.screenshot({ path: join(ARTIFACTS, 'editor-model-dropdown.png') });
		expect(modelTexts[0]).toMatch(/^Service Default \(currently image\.aurora-2\)/);
		for (const m of imageModels) expect(modelTexts.some((t) => t.includes(`(${m.id})`))).toBe(true);
		expect(modelTexts).toHaveLength(imageModels.length + 1);
		expect(modelTexts.some((t) => t.includes('video.'))).toBe(false);

		// Pick Lumen XL: the Aspect Ratio list reloads with its ratios (it has 3:2, 2:3 and auto; Aurora 2 has not).
		await modelOptions.filter({ hasText: '(image.lumen-xl)' }).click();
		await expect(model.locator('input').first().inputValue()).resolves.toContain('image.lumen-xl');
		const expected = ['Model Default', ...ratiosOf('image.lumen-xl')];
		expect(expected).not.toEqual(['Model Default', ...ratiosOf('image.aurora-2')]);
		// The list reloads asynchronously after the model changes: reopen until it settles (30 s at most).
		let ratioTexts: string[] = [];
		for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
			ratioTexts = await (await openDropdown(page, aspectRatio)).allTextContents();
			if (ratioTexts.join() === expected.join()) break;
			await page.keyboard.press('Escape');
			await page.waitForTimeout(1_000);
		}
		expect(ratioTexts).toEqual(expected);
		await page.screenshot({ path: join(ARTIFACTS, 'editor-aspect-ratios.png') });
		await page.locator('.el-select-dropdown__item:visible', { hasText: '3:2' }).click();
		await expect(aspectRatio.locator('input').first().inputValue()).resolves.toBe('3:2');
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
		await page.screenshot({ path: join(ARTIFACTS, 'editor-execution-output.png') });

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
});
