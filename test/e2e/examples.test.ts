import { findModel } from '../../sandbox/models';
import type { LedgerEntry, RequestLogEntry } from '../../sandbox/state';
import {
	binaryBytes,
	describeWithN8n,
	endpointsFor,
	eventually,
	executeWorkflow,
	n8nApi,
	outputOf,
	readE2eState,
	sandboxAdmin,
	type E2eState,
	type N8nExecution,
	type N8nItem,
	type N8nRun,
} from './state';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const ledger = async (state: E2eState) => (await sandboxAdmin<{ data: LedgerEntry[] }>(state, '/ledger')).data;
const requests = async (state: E2eState) => (await sandboxAdmin<{ data: RequestLogEntry[] }>(state, '/requests')).data;
const creditsPerImage = (model: string) => findModel(model)!.pricing.credits;

/** Every item: a completed run with one PNG (real bytes) as binary `data`. */
function expectCompletedPngItems(state: E2eState, items: N8nItem[]): string[] {
	for (const item of items) {
		expect(item.json.status).toBe('completed');
		expect(item.json.id).toMatch(/^run_/);
		expect(Object.keys(item.binary ?? {})).toEqual(['data']);
		expect(item.binary!.data.mimeType).toBe('image/png');
		expect(item.binary!.data.fileName).toMatch(/\.png$/);
		expect(binaryBytes(state, item.binary!.data).subarray(0, 8)).toEqual(PNG_SIGNATURE);
	}
	return items.map((item) => String(item.json.id));
}

/** Each run charged exactly once, at the model's price for one image. */
function expectChargedOnce(entries: LedgerEntry[], runIds: string[], credits: number): void {
	for (const runId of runIds) {
		const charges = entries.filter((e) => e.run_id === runId);
		expect(charges).toHaveLength(1);
		expect(charges[0].credits).toBe(credits);
	}
}

describeWithN8n('example workflows in real n8n (n8n execute, against the sandbox)', () => {
	const state = readE2eState();

	it('04 many prompts at once: one item per prompt, each a completed run with a PNG, each run charged once', async () => {
		const run = await executeWorkflow(state, state.examples['04-many-prompts-at-once']);
		expect(run.data.resultData.error).toBeUndefined();
		expect(run.status).toBe('success');
		const prompts = outputOf(run, 'Prompts').map((i) => i.json.prompt);
		const items = outputOf(run, 'Generate Images');
		expect(items).toHaveLength(4);
		expect(items.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		// in input order, each run made from its own prompt with the workflow's model and ratio
		expect(items.map((i) => i.json.input_summary)).toEqual(
			prompts.map((prompt) => expect.objectContaining({ prompt, model: 'image.aurora-2', aspect_ratio: '16:9' })),
		);
		const runIds = expectCompletedPngItems(state, items);
		expect(new Set(runIds).size).toBe(4);
		expectChargedOnce(await ledger(state), runIds, creditsPerImage('image.aurora-2'));
		const submits = (await requests(state)).filter((r) => r.method === 'POST' && r.path === '/v1/images/generations' && r.status === 202);
		expect(submits.length).toBeGreaterThanOrEqual(4);
	});

	it('05 generate then cut out: the generated PNG is uploaded from n8n binary data and its background removed', async () => {
		const before = (await requests(state)).length;
		const run = await executeWorkflow(state, state.examples['05-generate-then-cut-out']);
		expect(run.data.resultData.error).toBeUndefined();
		expect(run.status).toBe('success');
		const [generated] = outputOf(run, 'Generate Product Shot');
		const cutOut = outputOf(run, 'Remove Background');
		expect(cutOut).toHaveLength(1);
		const [generatedRun] = expectCompletedPngItems(state, [generated]);
		const [cutOutRun] = expectCompletedPngItems(state, cutOut);
		const entries = await ledger(state);
		expectChargedOnce(entries, [generatedRun], creditsPerImage('image.aurora-2'));
		expect(entries.filter((e) => e.run_id === cutOutRun)).toHaveLength(1);
		const during = (await requests(state)).slice(before);
		expect(during.filter((r) => r.method === 'POST' && r.path === '/v1/uploads' && r.status < 300)).toHaveLength(1);
		expect(during.filter((r) => r.method === 'PUT' && r.path.startsWith('/storage/uploads/') && r.status === 200)).toHaveLength(1);
	});

	// Examples whose nodes land on other branches (01 product ads, 02 talking clip) run here as soon
	// as their nodes are in the build: the global setup loads every example whose nodes exist.
	const PRODUCT_ADS = '01-product-page-to-ad-images';
	if (state.examples?.[PRODUCT_ADS]) {
		it('01 product page to ad images: one generated PNG per ad variant, merged into one item', async () => {
			const run = await executeWorkflow(state, state.examples[PRODUCT_ADS]);
			expect(run.data.resultData.error).toBeUndefined();
			const variants = outputOf(run, 'Ad Variants');
			expect(variants.length).toBeGreaterThanOrEqual(1);
			const images = outputOf(run, 'Generate Ad Image');
			expect(images).toHaveLength(variants.length);
			const runIds = expectCompletedPngItems(state, images);
			expectChargedOnce(await ledger(state), runIds, creditsPerImage('image.aurora-2'));
			const [merged] = outputOf(run, 'All Ads');
			const binaries = Object.values(merged.binary ?? {});
			expect(binaries).toHaveLength(variants.length);
			expect(binaries.every((b) => b.mimeType === 'image/png')).toBe(true);
		});
	}

	it('06 ad variants to images: one generated PNG per variant, merged into one item with every image', async () => {
		const run = await executeWorkflow(state, state.examples['06-ad-variants-to-images']);
		expect(run.data.resultData.error).toBeUndefined();
		const variants = outputOf(run, 'Ad Variants');
		expect(variants).toHaveLength(3);
		expect(variants.map((v) => v.json.variant_index)).toEqual([0, 1, 2]);
		const [workflowRun] = new Set(variants.map((v) => v.json.run_id));
		expect(workflowRun).toMatch(/^run_/);
		const images = outputOf(run, 'Generate Ad Image');
		expect(images).toHaveLength(3);
		expect(images.map((i) => (i.json.input_summary as { prompt: string }).prompt)).toEqual(variants.map((v) => expect.stringContaining(String(v.json.headline))));
		const runIds = expectCompletedPngItems(state, images);
		const entries = await ledger(state);
		expectChargedOnce(entries, runIds, creditsPerImage('image.aurora-2'));
		expect(entries.filter((e) => e.run_id === workflowRun)).toHaveLength(1);
		const merged = outputOf(run, 'All Ads');
		expect(merged).toHaveLength(1);
		expect(merged[0].json.ads).toHaveLength(3);
		const binaries = Object.values(merged[0].binary ?? {});
		expect(binaries).toHaveLength(3);
		for (const binary of binaries) {
			expect(binary.mimeType).toBe('image/png');
			expect(binaryBytes(state, binary).subarray(0, 8)).toEqual(PNG_SIGNATURE);
		}
	});

	// While 03 is active, every example that makes runs runs too: each makes runs of other kinds, and
	// 03 receives them all. 06: a workflow run (text, no file) and image generations; 05: an image
	// generation and a background removal (an edit from an uploaded input); 02: a workflow run, speech
	// (audio) and lip sync (video); 01: a product extraction, a workflow run and image generations.
	// 04 and 07 make image generations only, as 06 does: left out to keep the suite short.
	const WHILE_03_IS_ACTIVE = ['06-ad-variants-to-images', '05-generate-then-cut-out', '02-hook-pack-to-talking-clip', '01-product-page-to-ad-images'];

	/** The run IDs an execution's MediaGen nodes report: run items (`id`) and workflow variants (`run_id`). */
	const runIdsOf = (run: N8nRun) =>
		Object.values(run.data.resultData.runData)
			.flatMap((runs) => runs.flatMap((r) => r.data?.main[0] ?? []))
			.flatMap((item) => [item.json.id, item.json.run_id])
			.filter((id): id is string => typeof id === 'string' && id.startsWith('run_'));

	it('03 event-driven, while active: every event the runs of examples 06, 05, 02 and 01 send it ends without error (runs without a file stop at Has a File)', async () => {
		const workflowId = state.examples['03-event-driven-download'];
		const others = WHILE_03_IS_ACTIVE.filter((slug) => state.examples[slug]);
		expect(others).toEqual(expect.arrayContaining(['06-ad-variants-to-images', '05-generate-then-cut-out']));
		await n8nApi(state, `/workflows/${workflowId}/activate`, 'POST');
		try {
			await eventually('the endpoint to be registered', async () => (await endpointsFor(state))[0]);
			const runIds = new Set<string>();
			let workflowRun = '';
			let imageRuns: string[] = [];
			for (const slug of others) {
				const run = await executeWorkflow(state, state.examples[slug]);
				expect({ slug, status: run.status }).toEqual({ slug, status: 'success' });
				for (const id of runIdsOf(run)) runIds.add(id);
				if (slug.startsWith('06-')) {
					workflowRun = String(outputOf(run, 'Ad Variants')[0].json.run_id);
					imageRuns = outputOf(run, 'Generate Ad Image').map((i) => String(i.json.id));
				}
			}
			const executions = await eventually(
				'one finished execution per completed run',
				async () => {
					const list = await n8nApi<{ data: N8nExecution[] }>(state, `/executions?workflowId=${workflowId}&includeData=true&limit=250`);
					const byRun = new Map<string, N8nExecution>();
					for (const execution of list.data) {
						const [event] = execution.data?.resultData.runData['Run Completed']?.[0]?.data?.main[0] ?? [];
						const runId = String((event?.json.run as { id?: string } | undefined)?.id ?? '');
						if (runIds.has(runId)) byRun.set(runId, execution);
					}
					const finished = [...byRun.values()].every((e) => e.status !== 'running' && e.status !== 'new');
					return byRun.size === runIds.size && finished ? byRun : undefined;
				},
				120_000,
			);
			for (const [runId, execution] of executions) expect({ runId, status: execution.status }).toEqual({ runId, status: 'success' });
			expect(executions.get(workflowRun)!.data!.resultData.runData['Download Output']).toBeUndefined();
			for (const runId of imageRuns) {
				const [download] = executions.get(runId)!.data!.resultData.runData['Download Output'][0].data!.main[0];
				expect(download.binary?.data.mimeType).toBe('image/png');
			}
			// the kinds of file 03 downloaded: images always; audio and video when example 02 ran
			const downloaded = new Set(
				[...executions.values()].flatMap((e) => e.data!.resultData.runData['Download Output']?.[0].data!.main[0] ?? []).map((i) => i.binary?.data.mimeType.split('/')[0]),
			);
			const expectedKinds = others.includes('02-hook-pack-to-talking-clip') ? ['audio', 'image', 'video'] : ['image'];
			expect([...downloaded].sort()).toEqual(expectedKinds);
			const errors = await n8nApi<{ data: N8nExecution[] }>(state, `/executions?workflowId=${workflowId}&status=error&limit=100`);
			expect(errors.data).toEqual([]);
		} finally {
			await n8nApi(state, `/workflows/${workflowId}/deactivate`, 'POST');
			await eventually('the endpoint to be deleted', async () => ((await endpointsFor(state)).length === 0 ? true : undefined));
		}
	});

	const TALKING_CLIP = '02-hook-pack-to-talking-clip';
	if (state.examples?.[TALKING_CLIP]) {
		it('02 hook pack to talking clip: the script is spoken and lip-synced into a video', async () => {
			const run = await executeWorkflow(state, state.examples[TALKING_CLIP]);
			expect(run.data.resultData.error).toBeUndefined();
			const [hooks] = outputOf(run, 'Hook Pack');
			expect(typeof hooks.json.full_script).toBe('string');
			const [speech] = outputOf(run, 'Voice-over');
			expect(speech.binary?.data.mimeType).toMatch(/^audio\//);
			const [clip] = outputOf(run, 'Lip Sync');
			expect(clip.json.status).toBe('completed');
			expect(clip.binary?.data.mimeType).toMatch(/^video\//);
			const entries = await ledger(state);
			for (const item of [speech, clip]) expect(entries.filter((e) => e.run_id === item.json.id)).toHaveLength(1);
			// never charged twice (a workflow run may be free)
			expect(entries.filter((e) => e.run_id === hooks.json.run_id).length).toBeLessThanOrEqual(1);
		});
	}

	it('a key without images:write: the execution fails with insufficient_scope, no run is created and nothing is charged', async () => {
		const chargesBefore = (await ledger(state)).length;
		const before = (await requests(state)).length;
		const run = await executeWorkflow(state, state.narrowKeyWorkflowId);
		expect(run.status).toBe('error');
		const error = run.data.resultData.error!;
		expect(error.node?.name).toBe('Generate Images');
		expect(error.message).toMatch(/^insufficient_scope/);
		expect(error.description).toContain('images:write');
		const refused = (await requests(state)).slice(before).filter((r) => r.path === '/v1/images/generations');
		expect(refused.length).toBeGreaterThan(0);
		expect(refused.every((r) => r.status === 403)).toBe(true);
		expect(await ledger(state)).toHaveLength(chargesBefore);
	});
});
