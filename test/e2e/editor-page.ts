/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// The n8n editor in Chromium, for the e2e files that drive it as a user does: sign in, open a
// workflow, run it, open a node, search the node panel, and save a screenshot (test/artifacts/ for
// every step, docs/images/ for the ones the documentation shows).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { chromium, type Browser, type Page } from 'playwright-core';

import { findChromium, noChromiumMessage } from './chromium';
import { ARTIFACTS, REPO, type E2eState } from './state';

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

/** Where the screenshots the documentation shows are kept (committed). */
export const DOC_IMAGES = join(REPO, 'docs', 'images');

/** A signed-in editor at 1440×900 (the size the docs' screenshots are taken at). */
export async function openEditor(state: E2eState): Promise<{ browser: Browser; page: Page }> {
	const found = findChromium();
	if ('missing' in found) throw new Error(noChromiumMessage(found.missing));
	const browser = await chromium.launch({ executablePath: found.path, args: CHROMIUM_ARGS });
	const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
	page.setDefaultTimeout(60_000);
	await page.goto(`${state.n8nUrl}/signin`);
	await page.fill('input[name=emailOrLdapLoginId]', state.owner.email);
	await page.fill('input[name=password]', state.owner.password);
	await page.click('[data-test-id=form-submit-button]');
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
	return { browser, page };
}

/** A screenshot of this step, for whoever reads a failed run (test/artifacts/, not committed). */
export const shot = (page: Page, name: string) =>
	page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });

/** A screenshot the documentation shows: docs/images/<name>.png (committed; the e2e run refreshes it). */
export async function saveDocImage(page: Page, name: string): Promise<string> {
	mkdirSync(DOC_IMAGES, { recursive: true });
	const path = join(DOC_IMAGES, `${name}.png`);
	// the cursor's hover effects and the blinking caret would differ from run to run
	await page.screenshot({ path, caret: 'hide' });
	return path;
}

/** Opens a saved workflow on the canvas. */
export async function openWorkflow(page: Page, state: E2eState, workflowId: string): Promise<void> {
	await page.goto(`${state.n8nUrl}/workflow/${workflowId}`);
	await page.locator('[data-test-id=canvas-node]').first().waitFor();
}

/** "Execute workflow" on the canvas; resolves once n8n says it finished (not for runs that pause). */
export async function executeWorkflow(page: Page, { waitForSuccess = true } = {}): Promise<void> {
	await page.click('[data-test-id=execute-workflow-button]');
	if (waitForSuccess)
		await page.getByText('Workflow executed successfully').waitFor({ timeout: 180_000 });
}

/** Opens a node's panel (NDV) by its name on the canvas. */
export async function openNode(page: Page, name: string): Promise<void> {
	await page.locator(`[data-test-id=canvas-node][data-node-name="${name}"]`).dblclick();
	await page.locator('[data-test-id=ndv]').waitFor();
}

export async function closeNode(page: Page): Promise<void> {
	await page.click('[data-test-id=ndv-close-button]');
	await page.locator('[data-test-id=ndv]').waitFor({ state: 'hidden' });
}

/**
 * A screenshot of a node after a run, in one call: opens the workflow, runs it ("Execute workflow"),
 * opens the node and saves docs/images/<name>.png (`to: 'artifacts'`: test/artifacts/<name>.png);
 * returns the file's path. The NDV stays open for more checks.
 */
export async function screenshotNodeAfterRun(
	page: Page,
	state: E2eState,
	{
		workflowId,
		node,
		name,
		to = 'docs',
	}: { workflowId: string; node: string; name: string; to?: 'docs' | 'artifacts' },
): Promise<string> {
	await openWorkflow(page, state, workflowId);
	await executeWorkflow(page);
	await openNode(page, node);
	await page.waitForTimeout(500);
	if (to === 'docs') return await saveDocImage(page, name);
	await shot(page, name);
	return join(ARTIFACTS, `${name}.png`);
}

const itemNames = '[data-test-id=node-creator-item-name]';

/** The names the node panel lists now, in its order. */
export const panelNames = async (page: Page) =>
	(await page.locator(itemNames).allTextContents()).map((t) => t.trim());

/**
 * Types `term` into the open node panel's search and returns the names it lists once the list has
 * settled (the same twice in a row); [] when the panel says "No results".
 */
export async function searchPanel(page: Page, term: string): Promise<string[]> {
	await page.fill('[data-test-id=node-creator-search-bar]', term);
	await page.locator(`${itemNames}, [data-test-id=node-creator-no-results]`).first().waitFor();
	let last: string[] = [];
	for (let stable = 0, tries = 0; stable < 2 && tries < 40; tries++) {
		await page.waitForTimeout(300);
		const now = (await page.locator('[data-test-id=node-creator-no-results]').isVisible())
			? []
			: await panelNames(page);
		stable = JSON.stringify(now) === JSON.stringify(last) ? stable + 1 : 0;
		last = now;
	}
	return last;
}

/** Clicks the listed item of that name in the node panel. */
export async function pickInPanel(page: Page, name: string): Promise<void> {
	const names = await panelNames(page);
	expect(names).toContain(name);
	await page.locator(itemNames).nth(names.indexOf(name)).click();
}
