/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	NodeHelpers,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
} from 'n8n-workflow';

import { MediaGenAudio } from '../../nodes/MediaGenAudio/MediaGenAudio.node';
import { MediaGenBatch } from '../../nodes/MediaGenBatch/MediaGenBatch.node';
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenModel3D } from '../../nodes/MediaGenModel3D/MediaGenModel3D.node';
import { MediaGenProduct } from '../../nodes/MediaGenProduct/MediaGenProduct.node';
import { MediaGenRun } from '../../nodes/MediaGenRun/MediaGenRun.node';
import { MediaGenWorkflow } from '../../nodes/MediaGenWorkflow/MediaGenWorkflow.node';
import { API_RESOURCES } from '../fixtures/api-resources';
import { kindOf } from '../helpers/media';
import { binaryBytes, runNode } from '../helpers/n8n-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';

/**
 * Simplify (node version 2, on by default) against the sandbox, for every kind of output: each
 * simplified item checked against the API document's field tables (the Run resource; the Workflow
 * table's output fields), and Simplify off and node version 1 (no Simplify saved) giving the full
 * objects of today.
 */

/** The Run resource's fields, as the API document's table lists them (test/fixtures/api-resources.ts). */
const RUN_TABLE_FIELDS = Object.keys((API_RESOURCES.Run as { properties: IDataObject }).properties);
/** The Workflow table's output fields (API document, "Workflow"). */
const WORKFLOW_TABLE_OUTPUTS = {
	hook_pack: ['hooks', 'body', 'call_to_action', 'full_script'],
	product_ad_variants: ['variant_count', 'variants'],
};
/** What a simplified item must not carry: the API envelope of a run. */
const ENVELOPE = [
	'id',
	'object',
	'capability',
	'endpoint',
	'request_id',
	'input_summary',
	'output',
	'usage',
	'resource_id',
	'provider_request_id',
	'created_at',
	'updated_at',
	'completed_at',
];

const FULL = { typeVersion: 2, simplify: false };
const SIMPLIFIED = { typeVersion: 2 };
const VERSION_1 = { typeVersion: 1 };
type Version = { typeVersion: number; simplify?: boolean };

/** Values a user would read as broken (see test/unit/outputs/simplify.test.ts for the full walk). */
function brokenValues(value: unknown, path = '$'): string[] {
	if (value === undefined || value === null) return [`${path}: ${String(value)}`];
	if (typeof value === 'string')
		return value.includes('[object Object]') ? [`${path}: ${value}`] : [];
	if (typeof value === 'number') return Number.isFinite(value) ? [] : [`${path}: ${value}`];
	if (Array.isArray(value))
		return value.flatMap((entry, index) => brokenValues(entry, `${path}[${index}]`));
	if (typeof value === 'object')
		return Object.entries(value).flatMap(([key, entry]) => brokenValues(entry, `${path}.${key}`));
	return [];
}

describe('Simplify in n8n-core (against the sandbox): simplified items from version 2, the full objects with it off and in version 1', () => {
	let fx: Fixture;
	beforeAll(async () => {
		fx = await startFixture({ latencyMs: 50 });
	});
	afterAll(async () => fx.sandbox.close());

	const run = async (
		nodeType: INodeType,
		parameters: IDataObject,
		version: Version,
		input?: INodeExecutionData[],
	) => {
		const { items, error } = await runNode({
			nodeType,
			credentials: fx.credentials,
			parameters: {
				...parameters,
				...(version.simplify === undefined ? {} : { simplify: version.simplify }),
			},
			typeVersion: version.typeVersion,
			input,
		});
		expect(error).toBeUndefined();
		// the service's own objects hold nulls (the document's "or null" fields); a simplified item never does
		if (version === SIMPLIFIED)
			for (const item of items) expect(brokenValues(item.json)).toEqual([]);
		return items;
	};
	/** The run as the service holds it (the document's Run resource). */
	const stored = (runId: unknown) =>
		fx.sandbox.state.runs.get(String(runId))!.run as unknown as IDataObject;
	const chargeOf = (runId: unknown) =>
		fx.sandbox.state.chargesFor(String(runId)).reduce((sum, c) => sum + c.credits, 0);
	const imagesOf = (output: unknown) =>
		((output as { images: Array<{ url: string }> }).images ?? []).map((i) => i.url);

	describe('a generation run (MediaGen Image → Generate, with binary)', () => {
		const image = new MediaGenImage();
		const generate = {
			resource: 'image',
			operation: 'generate',
			model: 'image.aurora-2',
			prompt: 'Nobody tells you about the ceramic mug',
			count: 2,
			aspectRatio: '16:9',
		};

		it('on: the prompt that made them, the output values, model, credits charged, run id, status and the files — no envelope', async () => {
			const [item] = await run(image, generate, SIMPLIFIED);
			const source = stored(item.json.run_id);
			const output = source.output as IDataObject;
			expect(item.json).toEqual({
				output_url: output.output_url,
				output_urls: imagesOf(output),
				prompt: generate.prompt,
				width: output.width,
				height: output.height,
				model: source.model,
				credits: (source.usage as IDataObject).credits,
				run_id: source.id,
				status: 'completed',
			});
			expect(item.json.credits).toBe(chargeOf(source.id));
			expect(Object.keys(item.json)).toEqual([
				'prompt',
				'width',
				'height',
				'model',
				'credits',
				'run_id',
				'status',
				'output_url',
				'output_urls',
			]);
			for (const key of ENVELOPE) expect(item.json).not.toHaveProperty(key);
			expect(Object.keys(item.binary!)).toEqual(['data', 'data_1']);
			expect(item.binary!.data.mimeType).toBe('image/png');
			expect(await kindOf(item.binary!.data)).toBe('png');
			expect(item.pairedItem).toEqual({ item: 0 });
		});

		it.each([
			['off', FULL],
			['version 1 (saved before Simplify)', VERSION_1],
		])(
			'%s: the run as the service returns it (every field of the Run table) with output_urls, and the same binaries',
			async (_, version) => {
				const [item] = await run(image, generate, version);
				expect(Object.keys(item.json).sort()).toEqual([...RUN_TABLE_FIELDS, 'output_urls'].sort());
				expect(item.json).toEqual({
					...stored(item.json.id),
					output_urls: imagesOf(stored(item.json.id).output),
				});
				expect(Object.keys(item.binary!)).toEqual(['data', 'data_1']);
			},
		);

		it('Wait for Completion off: a queued run stays readable — run id, status, prompt, model', async () => {
			const [queued] = await run(image, { ...generate, waitForCompletion: false }, SIMPLIFIED);
			expect(queued.json).toEqual({
				prompt: generate.prompt,
				model: 'image.aurora-2',
				run_id: expect.stringMatching(/^run_/),
				status: 'queued',
			});
			const [full] = await run(image, { ...generate, waitForCompletion: false }, FULL);
			expect(full.json).toMatchObject({
				id: expect.stringMatching(/^run_/),
				object: 'run',
				status: 'queued',
			});
		});

		it('Continue On Fail: an error item stays the error item, paired to its input', async () => {
			const { items } = await runNode({
				nodeType: image,
				credentials: fx.credentials,
				parameters: { ...generate, prompt: '={{ $json.prompt }}' },
				input: [{ json: { prompt: 'fine' } }, { json: { prompt: '' } }],
				typeVersion: 2,
				settings: { continueOnFail: true },
			});
			expect(items[0].json).toMatchObject({ prompt: 'fine', status: 'completed' });
			expect(items[1].json).toEqual({
				error: expect.stringContaining('Prompt'),
				description: expect.any(String),
			});
			expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		});

		it("MediaGen Run → Wait for Completion: a product run read by its ID is simplified as a product (by the run's endpoint)", async () => {
			const [queued] = await run(
				new MediaGenProduct(),
				{
					resource: 'product',
					operation: 'extract',
					url: 'https://shop.example.com/p/9',
					waitForCompletion: false,
				},
				FULL,
			);
			const [item] = await run(
				new MediaGenRun(),
				{ resource: 'run', operation: 'wait', runId: String(queued.json.id) },
				SIMPLIFIED,
			);
			// the sandbox names a product whose address has no words after its site ("/p/9": "Example product 9")
			expect(item.json).toMatchObject({
				name: 'Example product 9',
				price: 49.9,
				currency: 'EUR',
				run_id: queued.json.id,
				status: 'completed',
			});
		});
	});

	describe('a product extraction (MediaGen Product → Extract From URL)', () => {
		const product = new MediaGenProduct();
		const extract = {
			resource: 'product',
			operation: 'extract',
			url: 'https://shop.example.com/products/ceramic-mug',
			additionalFields: { maxImages: 2 },
		};

		it("on: the product's fields at the top (name, description, price, brand, images as URLs and binaries), then run id, status, credits", async () => {
			const [item] = await run(product, extract, SIMPLIFIED);
			const source = stored(item.json.run_id);
			const fields = (source.output as { product: IDataObject }).product;
			const price = fields.price as { amount: number; currency: string };
			expect(item.json).toEqual({
				name: fields.title,
				title: fields.title,
				description: fields.description,
				brand: fields.brand,
				price: price.amount,
				currency: price.currency,
				url: extract.url,
				images: imagesOf(source.output),
				attributes: fields.attributes,
				credits: chargeOf(source.id),
				run_id: source.id,
				status: 'completed',
			});
			expect(item.json.name).not.toContain('https://');
			expect(Object.keys(item.binary!)).toEqual(['data', 'data_1']);
			expect(await kindOf(item.binary!.data)).toBe('png');
		});

		it.each([
			['off', FULL],
			['version 1', VERSION_1],
		])('%s: the run, the product two levels down', async (_, version) => {
			const [item] = await run(product, extract, version);
			expect(Object.keys(item.json).sort()).toEqual([...RUN_TABLE_FIELDS, 'output_urls'].sort());
			expect((item.json.output as { product: IDataObject }).product).toMatchObject({
				title: expect.any(String),
				price: { amount: 49.9, currency: 'EUR' },
			});
		});
	});

	describe('a workflow run (MediaGen Workflow → Generate Hook Pack)', () => {
		const workflow = new MediaGenWorkflow();
		const hookPack = {
			resource: 'workflow',
			operation: 'generateHookPack',
			prompt: 'merino socks',
			additionalFields: { tone: 'humorous' },
		};

		it('on: the output fields of the Workflow table at the top, then workflow, credits, run id, status', async () => {
			const [item] = await run(workflow, hookPack, SIMPLIFIED);
			const source = stored(item.json.run_id);
			const output = source.output as IDataObject;
			expect(Object.keys(item.json)).toEqual([
				...WORKFLOW_TABLE_OUTPUTS.hook_pack,
				'workflow',
				'credits',
				'run_id',
				'status',
			]);
			for (const field of WORKFLOW_TABLE_OUTPUTS.hook_pack)
				expect(item.json[field]).toEqual(output[field]);
			expect(item.json).toMatchObject({
				workflow: 'hook_pack',
				credits: chargeOf(source.id),
				status: 'completed',
			});
		});

		it.each([
			['off', FULL, 2],
			['version 1.1', VERSION_1, 1.1],
		])(
			'%s: the items of today (declared fields, run_id, workflow, credits)',
			async (_, version, typeVersion) => {
				const [item] = await run(workflow, hookPack, { ...version, typeVersion });
				expect(Object.keys(item.json).sort()).toEqual(
					[...WORKFLOW_TABLE_OUTPUTS.hook_pack, 'credits', 'run_id', 'workflow'].sort(),
				);
			},
		);
	});

	describe('ad variants (Generate Product Ad Variants, One Item per Variant)', () => {
		const workflow = new MediaGenWorkflow();
		const variants = {
			resource: 'workflow',
			operation: 'generateProductAdVariants',
			productName: 'Ceramic Mug',
			variantCount: 3,
			splitVariants: true,
		};

		it('on: one item per variant, each with its own fields and its own credits; the credits add up to the charge', async () => {
			const items = await run(workflow, variants, SIMPLIFIED);
			expect(items).toHaveLength(3);
			const runId = items[0].json.run_id;
			const source = stored(runId).output as { variants: IDataObject[]; variant_count: number };
			expect(Object.keys(source)).toEqual(WORKFLOW_TABLE_OUTPUTS.product_ad_variants);
			const charge = chargeOf(runId);
			expect(charge).toBeGreaterThan(0);
			items.forEach((item, index) => {
				expect(item.json).toEqual({
					...source.variants[index],
					variant_index: index,
					variant_count: 3,
					credits: expect.any(Number),
					run_credits: charge,
					workflow: 'product_ad_variants',
					run_id: runId,
					status: 'completed',
				});
				expect(item.json.headline).toContain('Ceramic Mug');
				expect(item.pairedItem).toEqual({ item: 0 });
			});
			expect(items.reduce((sum, item) => sum + (item.json.credits as number), 0)).toBe(charge);
		});

		it.each([
			['off', FULL],
			['version 1.1', { typeVersion: 1.1 }],
		])('%s: the items of today — credits on the first variant only', async (_, version) => {
			const items = await run(workflow, variants, version);
			expect(items.map((i) => Object.prototype.hasOwnProperty.call(i.json, 'credits'))).toEqual([
				true,
				false,
				false,
			]);
		});
	});

	describe('a batch (MediaGen Batch → Create From Items)', () => {
		const batch = new MediaGenBatch();
		const create = {
			resource: 'batch',
			operation: 'create',
			mode: 'operation',
			target: 'images/generations',
			itemBody: '={{ $json }}',
		};
		const input = [
			{ json: { prompt: 'tile one' } },
			{ json: { prompt: 'tile two', sandbox_fail: 'provider_error' } },
			{ json: { prompt: 'tile three' } },
		];

		it('on: one item per batch item, each simplified as its run (files, prompt, run id, status) plus batch id, index and item id', async () => {
			const items = await run(batch, create, SIMPLIFIED, input);
			expect(
				items.map((i) => [i.json.batch_item_index, i.json.status, i.json.prompt, i.pairedItem]),
			).toEqual([
				[0, 'completed', 'tile one', { item: 0 }],
				[1, 'failed', 'tile two', { item: 1 }],
				[2, 'completed', 'tile three', { item: 2 }],
			]);
			const [first, failed] = items;
			const source = stored(first.json.run_id);
			expect(first.json).toEqual({
				output_url: (source.output as IDataObject).output_url,
				output_urls: imagesOf(source.output),
				prompt: 'tile one',
				width: expect.any(Number),
				height: expect.any(Number),
				// the document's BatchItem carries no model and no usage: the charge is read from the run (docs/outputs.md)
				credits: fx.sandbox.state.chargesFor(String(source.id))[0].credits,
				run_id: source.id,
				status: 'completed',
				batch_id: expect.stringMatching(/^batch_/),
				batch_item_index: 0,
				batch_item_id: expect.stringMatching(/^bitem_/),
			});
			expect(first.binary!.data.mimeType).toBe('image/png');
			expect(failed.json).toMatchObject({
				status: 'failed',
				error: expect.any(String),
				error_code: 'provider_error',
				batch_item_index: 1,
			});
			expect(failed.binary).toBeUndefined();
		});

		it.each([
			['off', FULL],
			['version 1', VERSION_1],
		])(
			'%s: the batch items as the service returns them, with batch_status and output_urls',
			async (_, version) => {
				const items = await run(batch, create, version, input);
				const itemFields = Object.keys(
					(API_RESOURCES.BatchItem as { properties: IDataObject }).properties,
				);
				// a completed item also gets its run's usage (what it was charged); a failed one does not
				for (const item of items) {
					const added =
						item.json.status === 'completed'
							? ['batch_status', 'output_urls', 'usage']
							: ['batch_status', 'output_urls'];
					expect(Object.keys(item.json).sort()).toEqual([...itemFields, ...added].sort());
				}
			},
		);
	});

	describe('a transcription (MediaGen Audio → Transcription)', () => {
		const audio = new MediaGenAudio();
		const transcribe = {
			resource: 'audio',
			operation: 'transcribe',
			audioUrlSource: 'url',
			audioUrl: 'https://cdn.example.com/interview.mp3',
		};

		it('on: the text and its segments at the top, with the text file as binary', async () => {
			const [item] = await run(audio, transcribe, SIMPLIFIED);
			const source = stored(item.json.run_id);
			const output = source.output as IDataObject;
			expect(item.json).toEqual({
				output_url: output.output_url,
				output_urls: [output.output_url],
				text: output.text,
				segments: output.segments,
				language_code: output.language_code,
				model: source.model,
				credits: chargeOf(source.id),
				run_id: source.id,
				status: 'completed',
			});
			expect(item.binary!.data.mimeType).toBe('text/plain');
			expect((await binaryBytes(item.binary!.data)).toString('utf8').trim()).toBe(item.json.text);
		});

		it.each([
			['off', FULL],
			['version 1', VERSION_1],
		])('%s: the text inside output', async (_, version) => {
			const [item] = await run(audio, transcribe, version);
			expect(Object.keys(item.json).sort()).toEqual([...RUN_TABLE_FIELDS, 'output_urls'].sort());
			expect((item.json.output as IDataObject).text).toEqual(expect.any(String));
		});
	});

	describe('a 3D model (MediaGen 3D → Generate)', () => {
		const model3d = new MediaGenModel3D();
		const generate = {
			resource: 'model3d',
			operation: 'generate',
			imageUrls: ['https://cdn.example.com/front.png'],
			outputFormats: ['glb', 'obj', 'stl'],
		};

		it('on: model_urls (format → URL), every file URL in binary-key order, the files as binaries', async () => {
			const [item] = await run(model3d, generate, SIMPLIFIED);
			const source = stored(item.json.run_id);
			const output = source.output as { model_urls: Record<string, string>; output_url: string };
			expect(item.json).toMatchObject({
				output_url: output.output_url,
				output_urls: Object.values(output.model_urls),
				model_urls: output.model_urls,
				model: source.model,
				credits: chargeOf(source.id),
				run_id: source.id,
				status: 'completed',
			});
			expect(Object.keys(output.model_urls)).toEqual(['glb', 'obj', 'stl']);
			expect(Object.keys(item.binary!)).toEqual(['data', 'data_1', 'data_2']);
			expect(Object.values(item.binary!).map((b) => b.fileName!.split('.').pop())).toEqual([
				'glb',
				'obj',
				'stl',
			]);
		});

		it.each([
			['off', FULL],
			['version 1', VERSION_1],
		])('%s: model_urls inside output', async (_, version) => {
			const [item] = await run(model3d, generate, version);
			expect(Object.keys(item.json).sort()).toEqual([...RUN_TABLE_FIELDS, 'output_urls'].sort());
			expect(Object.keys((item.json.output as { model_urls: object }).model_urls)).toEqual([
				'glb',
				'obj',
				'stl',
			]);
		});
	});

	it('docs/outputs.md: each example item has the keys, in order, that the node gives for its kind', async () => {
		const page = readFileSync(join(__dirname, '..', '..', 'docs', 'outputs.md'), 'utf8');
		const examples = [...page.matchAll(/```json\n([\s\S]*?)```/g)].map((m) =>
			Object.keys(JSON.parse(m[1]) as IDataObject),
		);
		const keysOf = async (
			nodeType: INodeType,
			parameters: IDataObject,
			input?: INodeExecutionData[],
		) => Object.keys((await run(nodeType, parameters, SIMPLIFIED, input))[0].json);
		const image = {
			resource: 'image',
			operation: 'generate',
			model: 'image.aurora-2',
			prompt: 'Nobody tells you about the Ceramic Mug',
		};
		expect(examples).toEqual([
			await keysOf(new MediaGenImage(), image),
			await keysOf(new MediaGenAudio(), {
				resource: 'audio',
				operation: 'transcribe',
				audioUrlSource: 'url',
				audioUrl: 'https://cdn.example.com/interview.mp3',
			}),
			await keysOf(new MediaGenModel3D(), {
				resource: 'model3d',
				operation: 'generate',
				imageUrls: ['https://cdn.example.com/front.png'],
				outputFormats: ['glb', 'obj'],
			}),
			await keysOf(new MediaGenImage(), { ...image, waitForCompletion: false }),
			await keysOf(new MediaGenProduct(), {
				resource: 'product',
				operation: 'extract',
				url: 'https://shop.example.com/products/ceramic-mug',
			}),
			await keysOf(new MediaGenWorkflow(), {
				resource: 'workflow',
				operation: 'generateHookPack',
				prompt: 'Ceramic Mug',
			}),
			await keysOf(new MediaGenWorkflow(), {
				resource: 'workflow',
				operation: 'generateProductAdVariants',
				productName: 'Ceramic Mug',
				variantCount: 3,
			}),
			await keysOf(
				new MediaGenBatch(),
				{
					resource: 'batch',
					operation: 'create',
					mode: 'operation',
					target: 'images/generations',
					itemBody: '={{ $json }}',
				},
				[{ json: { prompt: 'tile one' } }],
			),
		]);
	});

	describe('the panel', () => {
		const shown = (type: INodeType, parameters: INodeParameters, typeVersion: number) =>
			type.description.properties.filter(
				(p) =>
					p.name === 'simplify' &&
					NodeHelpers.displayParameter(parameters, p, { typeVersion } as INode, type.description),
			);

		it.each([
			[new MediaGenImage(), { resource: 'image', operation: 'generate' }],
			[new MediaGenProduct(), { resource: 'product', operation: 'extract' }],
			[new MediaGenWorkflow(), { resource: 'workflow', operation: 'generateProductAdVariants' }],
			[new MediaGenBatch(), { resource: 'batch', operation: 'create' }],
			[new MediaGenRun(), { resource: 'run', operation: 'wait' }],
		])(
			'shows Simplify, on, from version 2 where runs, products, workflow results or batches come out: %#',
			(type, parameters) => {
				expect(type.description.defaultVersion).toBe(2);
				const [simplify] = shown(type, parameters, 2);
				expect(simplify).toMatchObject({
					displayName: 'Simplify',
					type: 'boolean',
					default: true,
					description:
						'Whether to return a simplified version of the response instead of the raw data',
				});
				expect(shown(type, parameters, 1)).toEqual([]);
				expect(shown(type, parameters, 1.1)).toEqual([]);
				expect(
					shown(
						{ ...type, description: { ...type.description, name: `${type.description.name}Tool` } },
						parameters,
						2,
					),
				).toEqual([]);
			},
		);

		it.each([
			[new MediaGenRun(), { resource: 'run', operation: 'get' }],
			[new MediaGenBatch(), { resource: 'batch', operation: 'list' }],
			[new MediaGenWorkflow(), { resource: 'workflow', operation: 'list' }],
		])('not where the output is a record or a list: %#', (type, parameters) => {
			expect(shown(type, parameters, 2)).toEqual([]);
		});
	});
});
