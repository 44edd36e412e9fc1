import {
	NodeHelpers,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { MediaGenBatch } from '../../nodes/MediaGenBatch/MediaGenBatch.node';
import { MediaGenWorkflow } from '../../nodes/MediaGenWorkflow/MediaGenWorkflow.node';
import { binaryBytes, runNode } from '../helpers/n8n-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('MediaGen Workflow in n8n-core (against the sandbox)', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture({ latencyMs: 50 });
	});
	afterEach(async () => fx.sandbox.close());

	const workflow = new MediaGenWorkflow();
	const run = (parameters: IDataObject, input?: INodeExecutionData[], typeVersion?: number) =>
		runNode({ nodeType: workflow, credentials: fx.credentials, parameters, input, typeVersion });

	it('runs a hook pack with typed fields, waits and outputs the declared fields as JSON', async () => {
		const { items, error } = await run({
			resource: 'workflow',
			operation: 'generateHookPack',
			prompt: 'merino socks',
			additionalFields: {
				tone: 'humorous',
				length: 'short',
				keywords: ['warm', 'itch-free'],
				targetDuration: 20,
			},
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const [item] = items;
		expect(Object.keys(item.json).sort()).toEqual([
			'body',
			'call_to_action',
			'credits',
			'full_script',
			'hooks',
			'run_id',
			'workflow',
		]);
		expect(item.json.workflow).toBe('hook_pack');
		expect(item.json.hooks).toEqual([
			expect.stringContaining('(warm)'),
			expect.stringContaining('(itch-free)'),
			expect.any(String),
		]);
		expect(item.json.body).toContain('humorous');
		expect(item.pairedItem).toEqual({ item: 0 });
		const sent = posts(fx.sandbox, '/workflows/hook_pack/runs');
		expect(sent).toHaveLength(1);
		expect(sent[0].idempotencyKey).toMatch(/^n8n-[0-9a-f]{48}$/);
		expect(fx.sandbox.state.runs.get(String(item.json.run_id))?.run.input_summary).toMatchObject({
			workflow: 'hook_pack',
			tone: 'humorous',
			length: 'short',
		});
	});

	it('refuses variant_count 6 before sending anything, naming the field and the bound', async () => {
		const { error } = await run({
			resource: 'workflow',
			operation: 'generateProductAdVariants',
			variantCount: 6,
		});
		expect(error?.message).toContain('Variant Count: 6 is not allowed; allowed: at most 5');
		expect(posts(fx.sandbox, '/workflows/product_ad_variants/runs')).toHaveLength(0);
	});

	it('outputs one item per variant when asked, all paired to their input item', async () => {
		const split = await run(
			{
				resource: 'workflow',
				operation: 'generateProductAdVariants',
				variantCount: '={{ $json.n }}',
				splitVariants: true,
				additionalFields: { productName: '={{ $json.name }}' },
			},
			[{ json: { n: 3, name: 'Lamp' } }, { json: { n: 2, name: 'Desk' } }],
		);
		expect(split.error).toBeUndefined();
		expect(split.items.map((i) => [i.pairedItem, i.json.variant_index])).toEqual([
			[{ item: 0 }, 0],
			[{ item: 0 }, 1],
			[{ item: 0 }, 2],
			[{ item: 1 }, 0],
			[{ item: 1 }, 1],
		]);
		expect(split.items[0].json).toEqual(
			expect.objectContaining({
				headline: expect.stringContaining('Lamp'),
				call_to_action: expect.any(String),
				workflow: 'product_ad_variants',
			}),
		);

		const whole = await run({
			resource: 'workflow',
			operation: 'generateProductAdVariants',
			variantCount: 2,
		});
		expect(whole.items).toHaveLength(1);
		expect(whole.items[0].json).toEqual(
			expect.objectContaining({ variant_count: 2, variants: expect.any(Array) }),
		);
	});

	it('split items do not read as if each cost the whole run: run_credits on each, credits on the first only', async () => {
		const split = await run({
			resource: 'workflow',
			operation: 'generateProductAdVariants',
			variantCount: 3,
			splitVariants: true,
		});
		expect(split.error).toBeUndefined();
		const [runId] = new Set(split.items.map((i) => i.json.run_id));
		const [charge] = fx.sandbox.state.chargesFor(String(runId));
		expect(charge.credits).toBeGreaterThan(0);
		expect(
			split.items.map((i) => [
				i.json.variant_index,
				i.json.variant_count,
				i.json.run_credits,
				i.json.credits,
			]),
		).toEqual([
			[0, 3, charge.credits, charge.credits],
			[1, 3, charge.credits, undefined],
			[2, 3, charge.credits, undefined],
		]);
		const summed = split.items.reduce((sum, i) => sum + Number(i.json.credits ?? 0), 0);
		expect(summed).toBe(charge.credits);
	});

	describe('version 1.1: product details up front, one item per variant by default; version 1 workflows keep their shape', () => {
		const adVariants = (version: number) =>
			workflow.description.properties.filter((p) => {
				const show = p.displayOptions?.show;
				return (
					(show?.operation as string[] | undefined)?.includes('generateProductAdVariants') &&
					NodeHelpers.displayParameter(
						{ resource: 'workflow', operation: 'generateProductAdVariants' },
						p,
						{ typeVersion: version } as INode,
						workflow.description,
					)
				);
			});
		const topLevelNames = (version: number) => adVariants(version).map((p) => p.name);

		it('shows Product Name, Product Description and Tone at the top in 1.1, under Additional Fields in 1', () => {
			// version 2 (Simplify) keeps the 1.1 shape and adds Simplify
			expect(workflow.description.defaultVersion).toBe(2);
			expect(topLevelNames(1.1)).toEqual(
				expect.arrayContaining([
					'prompt',
					'productName',
					'productDescription',
					'tone',
					'variantCount',
					'splitVariants',
				]),
			);
			expect(topLevelNames(2)).toEqual([
				...topLevelNames(1.1).slice(0, -1),
				'simplify',
				...topLevelNames(1.1).slice(-1),
			]);
			expect(topLevelNames(1)).not.toContain('productName');
			const additional = adVariants(1)
				.find((p) => p.name === 'additionalFields')!
				.options!.map((o) => (o as INodeProperties).name);
			expect(additional).toEqual(
				expect.arrayContaining(['productName', 'productDescription', 'tone']),
			);
			const prompt = adVariants(1.1).find((p) => p.name === 'prompt')!;
			expect(prompt.placeholder).toMatch(/^e\.g\. /);
			expect(adVariants(1.1).find((p) => p.name === 'splitVariants')!.default).toBe(true);
			expect(adVariants(1).find((p) => p.name === 'splitVariants')!.default).toBe(false);
		});

		it('1.1: one item per variant without asking, and the product name sent from the top-level field', async () => {
			const { items, error } = await run(
				{
					resource: 'workflow',
					operation: 'generateProductAdVariants',
					variantCount: 2,
					productName: 'Lamp',
					tone: 'humorous',
				},
				undefined,
				1.1,
			);
			expect(error).toBeUndefined();
			expect(items).toHaveLength(2);
			expect(items[0].json).toEqual(
				expect.objectContaining({ headline: expect.stringContaining('Lamp'), variant_index: 0 }),
			);
			const [runId] = new Set(items.map((i) => String(i.json.run_id)));
			expect(fx.sandbox.state.runs.get(runId)?.run.input_summary).toEqual(
				expect.objectContaining({ product_name: 'Lamp', tone: 'humorous' }),
			);
		});

		it('1: a saved workflow with the product name under Additional Fields and no One Item per Variant still gets one item with that name', async () => {
			const { items, error } = await run(
				{
					resource: 'workflow',
					operation: 'generateProductAdVariants',
					variantCount: 2,
					additionalFields: { productName: 'Desk' },
				},
				undefined,
				1,
			);
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
			expect(JSON.stringify(items[0].json.variants)).toContain('Desk');
		});
	});

	it('runs any workflow by key with JSON inputs, and the storyboard output names its project', async () => {
		const { items, error } = await run({
			resource: 'workflow',
			operation: 'run',
			workflowKey: 'storyboard',
			inputs: '{"prompt": "a heist", "aspect_ratio": "9:16"}',
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual(
			expect.objectContaining({
				workflow: 'storyboard',
				project_id: expect.stringMatching(/^proj_/),
				current_stage: expect.any(String),
				next_action: expect.any(String),
			}),
		);
	});

	it.each([
		['storyboard', { title: 'no prompt' }, 'Inputs: prompt is required by storyboard'],
		[
			'hook_pack',
			{ prompt: 'x', tone: 'angry' },
			'Inputs: tone: "angry" is not allowed; allowed: one of casual, professional, humorous, educational, persuasive, emotional',
		],
		[
			'ugc_ad',
			{ prompt: 'x', length: 'epic' },
			'Inputs: length: "epic" is not allowed; allowed: one of short, medium, long',
		],
		[
			'product_ad_variants',
			{ variant_count: 6 },
			'Inputs: variant_count: 6 is not allowed; allowed: at most 5',
		],
		[
			'creative_pack',
			{ product_url: 'shop/item-1' },
			'Inputs: product_url: "shop/item-1" is not allowed; allowed: an http:// or https:// URL',
		],
		[
			'creative_pack',
			{ image_urls: ['ftp://x/a.png'] },
			'Inputs: image_urls: ["ftp://x/a.png"] is not allowed; allowed: a list of http:// or https:// URLs',
		],
		[
			'storyboard',
			{ prompt: 'x', aspect_ratio: '4:3' },
			'Inputs: aspect_ratio: "4:3" is not allowed; allowed: one of 16:9, 9:16, 1:1',
		],
		['hook_pack', { prompt: 'x', colour: 'red' }, 'Inputs: "colour" is not an input of hook_pack'],
	])(
		'Run Any Workflow checks %s inputs given as JSON like the typed operations: %j',
		async (workflowKey, inputs, message) => {
			const { error } = await run({
				resource: 'workflow',
				operation: 'run',
				workflowKey,
				inputs: JSON.stringify(inputs),
			});
			expect(error?.message).toContain(message);
			expect(fx.sandbox.state.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
		},
	);

	it('checks batch items in workflow mode the same way, before the batch is sent', async () => {
		const { error } = await runNode({
			nodeType: new MediaGenBatch(),
			credentials: fx.credentials,
			parameters: {
				resource: 'batch',
				operation: 'create',
				mode: 'workflow',
				target: 'hook_pack',
				item: '={{ $json }}',
			},
			input: [{ json: { prompt: 'a' } }, { json: { prompt: 'b', tone: 'loud' } }],
		});
		expect(error?.message).toContain('Item Body: tone: "loud" is not allowed');
		expect(fx.sandbox.state.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
	});

	it('offers no Project ID on preset and user-workflow runs: their outputs are not known to be media a project holds', () => {
		const runOptions = new MediaGenWorkflow().description.properties.filter(
			(p) =>
				p.name === 'options' &&
				['preset', 'userWorkflow'].some((r) =>
					(p.displayOptions?.show?.resource as string[] | undefined)?.includes(r),
				),
		);
		expect(runOptions.length).toBeGreaterThan(0);
		for (const options of runOptions)
			expect((options.options ?? []).map((o) => (o as { name: string }).name)).not.toContain(
				'projectId',
			);
	});

	it('reads a creative pack whose fields live in a JSON document at output_url (run.output holds only the URL)', async () => {
		const { items, error } = await run({
			resource: 'workflow',
			operation: 'generateCreativePack',
			prompt: 'a summer ad',
			additionalFields: { productName: 'Sun Hat' },
		});
		expect(error).toBeUndefined();
		const [record] = [...fx.sandbox.state.runs.values()];
		expect(Object.keys(record.run.output ?? {})).toEqual(['output_url']);
		expect(items[0].json).toEqual(
			expect.objectContaining({
				workflow: 'creative_pack',
				hooks: expect.any(Array),
				full_script: expect.any(String),
				product: expect.any(Object),
			}),
		);
	});

	it('lists workflows with Return All / Limit and gets one', async () => {
		expect(
			(await run({ resource: 'workflow', operation: 'list', returnAll: true })).items,
		).toHaveLength(5);
		expect(
			(
				await run({ resource: 'workflow', operation: 'list', returnAll: false, limit: 2 })
			).items.map((i) => i.json.id),
		).toEqual(['storyboard', 'hook_pack']);
		const got = await run({ resource: 'workflow', operation: 'get', workflowKey: 'creative_pack' });
		expect(got.items[0].json).toEqual(
			expect.objectContaining({
				id: 'creative_pack',
				object: 'workflow',
				input_schema: expect.any(Object),
			}),
		);
	});

	it('presets: list, get, estimate, then a run with the quote token returns the image as binary', async () => {
		expect(
			(await run({ resource: 'preset', operation: 'list', returnAll: true })).items.length,
		).toBeGreaterThan(1);
		expect(
			(await run({ resource: 'preset', operation: 'get', presetId: 'preset_flat_lay' })).items[0]
				.json.name,
		).toBe('Flat Lay');
		const estimate = await run({
			resource: 'preset',
			operation: 'estimate',
			presetId: 'preset_flat_lay',
			additionalFields: { prompt: 'breakfast' },
		});
		const quote = String(estimate.items[0].json.quote_token);
		const generated = await run({
			resource: 'preset',
			operation: 'run',
			presetId: 'preset_flat_lay',
			prompt: 'breakfast',
			options: { quoteToken: quote },
		});
		expect(generated.error).toBeUndefined();
		expect(generated.items[0].json.status).toBe('completed');
		expect((await binaryBytes(generated.items[0].binary!.data)).subarray(0, 8)).toEqual(
			PNG_SIGNATURE,
		);
	});

	it('user workflows: list, estimate, run, and read the run back', async () => {
		const list = await run({ resource: 'userWorkflow', operation: 'list', returnAll: true });
		const id = String(list.items[0].json.id);
		const estimate = await run({
			resource: 'userWorkflow',
			operation: 'estimate',
			workflowId: id,
			inputs: '{"prompt": "a thumbnail"}',
		});
		expect(estimate.items[0].json.object).toBe('cost_estimate');
		const done = await run({
			resource: 'userWorkflow',
			operation: 'run',
			workflowId: id,
			inputs: '{"prompt": "a thumbnail"}',
			options: { returnUrlsOnly: true },
		});
		expect(done.items[0].json).toEqual(
			expect.objectContaining({
				status: 'completed',
				output_urls: [expect.stringContaining('/storage/files/')],
			}),
		);
		const read = await run({
			resource: 'userWorkflow',
			operation: 'getRun',
			workflowId: id,
			runId: String(done.items[0].json.id),
		});
		expect(read.items[0].json.id).toBe(done.items[0].json.id);
	});

	it('analyzes an ad and outputs the analysis fields', async () => {
		const { items, error } = await run({
			resource: 'ad',
			operation: 'analyze',
			adCopy: 'New socks. Warm feet.',
			additionalFields: { platform: 'instagram' },
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual(
			expect.objectContaining({
				platform: 'instagram',
				score: expect.any(Number),
				analysis: expect.any(Object),
				recommendations: expect.any(Array),
				run_id: expect.any(String),
			}),
		);
	});

	it('marketing: creates and lists products, reads templates, hooks and settings', async () => {
		const created = await run({
			resource: 'marketing',
			operation: 'createProduct',
			name: 'Trail Socks',
			additionalFields: { imageUrls: ['https://example.com/s.png'] },
		});
		expect(created.items[0].json).toEqual(
			expect.objectContaining({
				object: 'marketing_product',
				name: 'Trail Socks',
				image_urls: ['https://example.com/s.png'],
			}),
		);
		expect(
			(await run({ resource: 'marketing', operation: 'listProducts', returnAll: true })).items.map(
				(i) => i.json.id,
			),
		).toEqual([created.items[0].json.id]);
		const templates = await run({
			resource: 'marketing',
			operation: 'listTemplates',
			returnAll: true,
			additionalFields: { category: 'ugc' },
		});
		expect(templates.items.map((i) => i.json.category)).toEqual(['ugc', 'ugc']);
		expect(
			(await run({ resource: 'marketing', operation: 'getTemplate', templateId: 'tpl_unboxing' }))
				.items[0].json.name,
		).toBe('Unboxing');
		for (const operation of ['listAdFormats', 'listFormats', 'listHooks', 'listAvatars']) {
			expect(
				(await run({ resource: 'marketing', operation, returnAll: true })).items.length,
			).toBeGreaterThan(0);
		}
		expect(
			(await run({ resource: 'marketing', operation: 'getSettings' })).items[0].json.object,
		).toBe('marketing_settings');
	});
});
