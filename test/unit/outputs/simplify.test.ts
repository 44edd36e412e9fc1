import type { IDataObject } from 'n8n-workflow';

import {
	kindOfOperation,
	simplifiedBatch,
	simplifiedBatchItem,
	simplifiedRun,
	simplifiedVariants,
	variantCredits,
} from '../../../src/outputs/simplify';

/**
 * Simplify (src/outputs/simplify.ts) on the shapes the API document leaves open: every kind of item,
 * from tidy runs and from odd ones (no usage, a price object, empty variants, nulls everywhere).
 */

/** Where a simplified item holds something a user would read as broken: undefined, null, NaN, "[object Object]", an empty string or list. */
function brokenValues(value: unknown, path = '$'): string[] {
	if (value === undefined) return [`${path}: undefined`];
	if (value === null) return [`${path}: null`];
	if (typeof value === 'number') return Number.isFinite(value) ? [] : [`${path}: ${value}`];
	if (typeof value === 'string')
		return value.includes('[object Object]') || value.trim() === ''
			? [`${path}: ${JSON.stringify(value)}`]
			: [];
	if (typeof value === 'boolean') return [];
	if (Array.isArray(value))
		return value.length === 0
			? [`${path}: []`]
			: value.flatMap((entry, index) => brokenValues(entry, `${path}[${index}]`));
	if (typeof value === 'object') {
		const entries = Object.entries(value);
		return entries.length === 0
			? [`${path}: {}`]
			: entries.flatMap(([key, entry]) => brokenValues(entry, `${path}.${key}`));
	}
	return [`${path}: ${typeof value}`];
}

const at = '2026-11-26T10:00:00Z';
const run = (fields: IDataObject): IDataObject => ({
	id: 'run_1',
	object: 'run',
	status: 'completed',
	capability: 'image_generation',
	endpoint: 'POST /images/generations',
	model: 'image.aurora-2',
	request_id: 'req_1',
	input_summary: { prompt: 'a fox', model: 'image.aurora-2' },
	output: null,
	usage: { credits: 4 },
	error: null,
	resource_id: null,
	provider_request_id: null,
	created_at: at,
	updated_at: at,
	completed_at: at,
	...fields,
});

const url = (name: string) => `https://files.example.com/${name}?sig=1`;

/** Every kind of simplified item, each from a tidy shape and from odd ones. */
const cases: Array<[string, () => IDataObject[]]> = [
	[
		'an image run',
		() => [
			simplifiedRun(
				run({
					output: {
						output_url: url('a.png'),
						images: [{ url: url('a.png') }, { url: url('b.png') }],
						width: 64,
						height: 64,
					},
				}),
				{ sent: { prompt: 'a fox' } },
			),
		],
	],
	[
		'an image run with nulls in its output and no usage',
		() => [
			simplifiedRun(
				run({
					usage: null,
					model: null,
					input_summary: null,
					output: {
						images: [{ url: null }, null, { url: url('a.png') }],
						width: null,
						seed: Number.NaN,
						note: '',
					},
				}),
			),
		],
	],
	[
		'a run with no output at all',
		() => [simplifiedRun(run({ output: undefined, usage: undefined, input_summary: undefined }))],
	],
	[
		'a queued run (Wait for Completion off)',
		() => [
			simplifiedRun(run({ status: 'queued', output: null, usage: null, completed_at: null }), {
				sent: { prompt: { not: 'text' } },
			}),
		],
	],
	[
		'a transcription',
		() => [
			simplifiedRun(
				run({
					capability: 'transcription',
					endpoint: 'POST /audio/transcriptions',
					output: {
						output_url: url('t.txt'),
						text: 'Hello.',
						segments: [{ start: 0, end: 1, text: 'Hello.', speaker: null }],
						language_code: 'en',
					},
				}),
			),
		],
	],
	[
		'a 3D run',
		() => [
			simplifiedRun(
				run({
					capability: 'model_3d_generation',
					output: {
						model_urls: { glb: url('m.glb'), obj: null, fbx: url('m.fbx') },
						polycount: 5000,
					},
				}),
			),
		],
	],
	[
		'a product',
		() => [
			simplifiedRun(
				run({
					endpoint: 'POST /products/extract',
					output: {
						product: {
							title: 'Mug',
							brand: { name: 'Acme' },
							price: { amount: '12.50', currency: 'EUR' },
							attributes: { color: 'blue', size: null },
						},
						images: [{ url: url('p.png') }],
					},
				}),
			),
		],
	],
	[
		'a product with a price string, no currency and the fields on the output itself',
		() => [
			simplifiedRun(
				run({
					endpoint: 'POST /products/extract',
					output: {
						product_name: 'Lamp',
						price: '$19.99',
						brand: { id: 7 },
						images: ['https://x.example/l.png'],
					},
					usage: null,
				}),
			),
		],
	],
	[
		'a product whose price object has no amount',
		() => [
			simplifiedRun(
				run({
					endpoint: 'POST /products/extract',
					output: { product: { name: 'Desk', price: { note: 'on request' } } },
				}),
			),
		],
	],
	[
		'a product run with no output',
		() => [
			simplifiedRun(run({ endpoint: 'POST /products/extract', output: null }), {
				operation: '/products/extract',
				sent: { url: 'https://shop.example/p/1' },
			}),
		],
	],
	[
		'a hook pack',
		() => [
			simplifiedRun(
				run({
					endpoint: 'POST /workflows/{workflowKey}/runs',
					input_summary: { workflow: 'hook_pack' },
					output: { hooks: ['a', null], body: 'b', call_to_action: null, full_script: 's' },
				}),
			),
		],
	],
	[
		'a storyboard (its own status field)',
		() => [
			simplifiedRun(
				run({
					output: {
						project_id: 'proj_1',
						status: 'in_progress',
						current_stage: 'script',
						next_action: 'review',
					},
				}),
				{ operation: '/workflows/storyboard/runs' },
			),
		],
	],
	[
		'ad variants, one item each',
		() =>
			simplifiedVariants(
				run({
					output: {
						variant_count: 3,
						variants: [{ headline: 'A', body: null }, { headline: 'B', credits: 1 }, 'just text'],
					},
					usage: { credits: 10 },
				}),
				{ operation: '/workflows/product_ad_variants/runs' },
			)!,
	],
	[
		'ad variants of a run without usage',
		() =>
			simplifiedVariants(run({ usage: null, output: { variants: [{ headline: 'A' }, {}] } }), {
				operation: '/workflows/product_ad_variants/runs',
			})!,
	],
	[
		'ad variants: an empty list falls back to the one workflow item',
		() =>
			simplifiedVariants(run({ output: { variant_count: 0, variants: [] } }), {
				operation: '/workflows/product_ad_variants/runs',
			}) ?? [
				simplifiedRun(run({ output: { variant_count: 0, variants: [] } }), {
					operation: '/workflows/product_ad_variants/runs',
				}),
			],
	],
	[
		'a completed batch item',
		() => [
			simplifiedBatchItem(
				{
					id: 'bitem_1',
					object: 'batch_item',
					batch_id: 'batch_1',
					index: 2,
					target: 'POST /images/generations',
					status: 'completed',
					run_id: 'run_9',
					input_summary: { prompt: 'tile' },
					output: { output_url: url('t.png'), images: [{ url: url('t.png') }] },
					error: null,
				},
				{ id: 'batch_1', target: 'POST /images/generations' },
			),
		],
	],
	[
		'a queued batch item without a run yet',
		() => [
			simplifiedBatchItem(
				{
					id: 'bitem_2',
					batch_id: null,
					index: 0,
					target: null,
					status: 'queued',
					run_id: null,
					input_summary: null,
					output: null,
					error: null,
				},
				{ id: 'batch_1', target: 'hook_pack' },
			),
		],
	],
	[
		'a failed batch item',
		() => [
			simplifiedBatchItem(
				{
					id: 'bitem_3',
					batch_id: 'batch_1',
					index: 1,
					target: 'POST /images/generations',
					status: 'failed',
					run_id: 'run_8',
					output: null,
					error: { code: 'provider_error', message: 'The provider failed' },
				},
				{ id: 'batch_1' },
			),
		],
	],
	[
		'a batch (a batch event)',
		() => [
			simplifiedBatch({
				id: 'batch_1',
				object: 'batch',
				mode: 'operation',
				target: 'POST /images/generations',
				status: 'partial',
				total_items: 3,
				completed_items: 2,
				failed_items: 1,
				error: null,
				output: null,
			}),
		],
	],
];

describe('Simplify: the simplified items of every kind', () => {
	it.each(cases)(
		'%s: no undefined, null, NaN, "[object Object]" or empty value anywhere',
		(_, make) => {
			const items = make();
			expect(items.length).toBeGreaterThan(0);
			for (const item of items) expect(brokenValues(item)).toEqual([]);
		},
	);

	it('the check finds what it looks for', () => {
		expect(
			brokenValues({
				a: undefined,
				b: [null],
				c: { d: Number.NaN },
				e: `x ${String({})}`,
				f: '',
				g: [],
				h: {},
			}),
		).toEqual([
			'$.a: undefined',
			'$.b[0]: null',
			'$.c.d: NaN',
			'$.e: "x [object Object]"',
			'$.f: ""',
			'$.g: []',
			'$.h: {}',
		]);
	});
});

describe('Simplify: generation runs', () => {
	it('gives the prompt the node sent first, then the output values, model, credits, run id and status, and the file URLs last', () => {
		const json = simplifiedRun(
			run({
				output: {
					output_url: url('a.png'),
					images: [{ url: url('a.png') }, { url: url('b.png') }],
					width: 64,
					height: 36,
				},
			}),
			{ sent: { prompt: 'a red fox' } },
		);
		expect(json).toEqual({
			output_url: url('a.png'),
			output_urls: [url('a.png'), url('b.png')],
			prompt: 'a red fox',
			width: 64,
			height: 36,
			model: 'image.aurora-2',
			credits: 4,
			run_id: 'run_1',
			status: 'completed',
		});
		expect(Object.keys(json)).toEqual([
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
	});

	it("takes the prompt from what was sent, else the text of a speech, else the service's echo", () => {
		expect(simplifiedRun(run({}), { sent: { text: 'Hello there' } }).prompt).toBe('Hello there');
		expect(simplifiedRun(run({}), { sent: {} }).prompt).toBe('a fox');
		expect(
			simplifiedRun(run({ input_summary: { prompt: { nested: true } } })).prompt,
		).toBeUndefined();
	});

	it('reads credits from usage.credits as a number or a numeric string, and leaves them out when missing', () => {
		expect(simplifiedRun(run({ usage: { credits: '2.5' } })).credits).toBe(2.5);
		expect(simplifiedRun(run({ usage: { credits: 'lots' } }))).not.toHaveProperty('credits');
		expect(simplifiedRun(run({ usage: null }))).not.toHaveProperty('credits');
	});

	it('3D: model_urls as given, output_urls in their order, the main file from output_url else the first', () => {
		const json = simplifiedRun(
			run({ output: { model_urls: { glb: url('m.glb'), fbx: url('m.fbx') } } }),
		);
		expect(json).toMatchObject({
			output_url: url('m.glb'),
			output_urls: [url('m.glb'), url('m.fbx')],
			model_urls: { glb: url('m.glb'), fbx: url('m.fbx') },
		});
	});

	it('an output value named like a key of the item moves to output_<key>', () => {
		const json = simplifiedRun(
			run({ output: { output_url: url('a.mp4'), status: 'rendered', model: 'x' } }),
		);
		expect(json).toMatchObject({
			status: 'completed',
			output_status: 'rendered',
			model: 'image.aurora-2',
			output_model: 'x',
		});
	});

	it('a failed run says why', () => {
		expect(
			simplifiedRun(
				run({
					status: 'failed',
					output: null,
					error: { code: 'provider_error', message: 'The provider failed' },
				}),
			),
		).toMatchObject({
			status: 'failed',
			error: 'The provider failed',
			error_code: 'provider_error',
		});
	});
});

describe('Simplify: products', () => {
	const product = (output: IDataObject, sent?: IDataObject) =>
		simplifiedRun(run({ endpoint: 'POST /products/extract', model: null, output }), {
			operation: '/products/extract',
			sent,
		});

	it("puts the product's fields at the top: name from title, price and currency from a price object, images as URLs, other fields as they are", () => {
		const json = product({
			product: {
				url: 'https://shop.example/p/1',
				title: 'Mug',
				brand: 'acme',
				price: { amount: 49.9, currency: 'EUR' },
				description: 'A mug.',
				attributes: { color: 'blue' },
			},
			images: [{ url: url('p.png') }],
		});
		expect(json).toEqual({
			name: 'Mug',
			title: 'Mug',
			description: 'A mug.',
			brand: 'acme',
			price: 49.9,
			currency: 'EUR',
			url: 'https://shop.example/p/1',
			images: [url('p.png')],
			attributes: { color: 'blue' },
			credits: 4,
			run_id: 'run_1',
			status: 'completed',
		});
	});

	it.each([
		[{ name: 'A', title: 'B' }, 'A'],
		[{ title: 'B' }, 'B'],
		[{ product_name: 'C' }, 'C'],
		[{ name: { first: 'x' }, product_name: 'D' }, 'D'],
	])('name from name, title or product_name: %j', (fields, name) => {
		expect(product({ product: fields }).name).toBe(name);
	});

	it.each([
		[49.9, { price: 49.9 }],
		['49.90', { price: 49.9 }],
		['€49.90', { price: '€49.90' }],
		[
			{ amount: '12', currency_code: 'USD' },
			{ price: 12, currency: 'USD' },
		],
		[
			{ value: 3, currency: 'GBP' },
			{ price: 3, currency: 'GBP' },
		],
		[{ note: 'on request' }, { price: { note: 'on request' } }],
	])('price %j', (price, expected) => {
		const json = product({ product: { name: 'X', price } });
		expect({ price: json.price, ...(json.currency ? { currency: json.currency } : {}) }).toEqual(
			expected,
		);
	});

	it('takes the currency named beside a plain price, the brand name of a brand object, image URLs of several shapes', () => {
		expect(
			product({
				product: {
					name: 'X',
					price: 5,
					currency: 'EUR',
					brand: { name: 'Acme' },
					image_urls: ['https://x/1.png', { src: 'https://x/2.png' }],
				},
			}),
		).toMatchObject({
			price: 5,
			currency: 'EUR',
			brand: 'Acme',
			images: ['https://x/1.png', 'https://x/2.png'],
		});
	});

	it('reads the product from output.products[0] or from the output itself, and the page from what was sent', () => {
		expect(product({ products: [{ name: 'First' }, { name: 'Second' }] }).name).toBe('First');
		expect(
			product(
				{ name: 'Flat', images: [{ url: url('f.png') }] },
				{ url: 'https://shop.example/p/2' },
			),
		).toMatchObject({ name: 'Flat', url: 'https://shop.example/p/2', images: [url('f.png')] });
	});

	it('a product field named like a key of the item moves to product_<key>', () => {
		expect(product({ product: { name: 'X', status: 'in_stock', run_id: 'p1' } })).toMatchObject({
			status: 'completed',
			product_status: 'in_stock',
			run_id: 'run_1',
			product_run_id: 'p1',
		});
	});

	it("is chosen for a product run read by its ID (Run → Wait for Completion: the run's endpoint names it)", () => {
		expect(
			simplifiedRun(
				run({ endpoint: 'POST /products/extract', output: { product: { title: 'Mug' } } }),
				{ operation: '/runs/run_1' },
			).name,
		).toBe('Mug');
	});
});

describe('Simplify: workflows', () => {
	it('gives the declared output fields of the workflow, then workflow, credits, run id and status', () => {
		const json = simplifiedRun(
			run({
				output: {
					hooks: ['h1'],
					body: 'b',
					call_to_action: 'c',
					full_script: 's',
					extra: 'not declared',
				},
			}),
			{ operation: '/workflows/hook_pack/runs' },
		);
		expect(json).toEqual({
			hooks: ['h1'],
			body: 'b',
			call_to_action: 'c',
			full_script: 's',
			workflow: 'hook_pack',
			credits: 4,
			run_id: 'run_1',
			status: 'completed',
		});
	});

	it("a workflow that declares its own status (storyboard) keeps it; the run's goes to run_status", () => {
		const json = simplifiedRun(run({ output: { project_id: 'proj_1', status: 'in_progress' } }), {
			operation: '/workflows/storyboard/runs',
		});
		expect(json).toMatchObject({
			project_id: 'proj_1',
			status: 'in_progress',
			run_status: 'completed',
			workflow: 'storyboard',
		});
	});

	it('takes the fields read elsewhere (the JSON document at output_url) over run.output', () => {
		expect(
			simplifiedRun(run({ output: { output_url: url('f.json') } }), {
				operation: '/workflows/hook_pack/runs',
				fields: { hooks: ['x'], body: 'y' },
			}),
		).toMatchObject({ hooks: ['x'], body: 'y' });
	});

	it('an ad analysis (no declared fields) gives every output field', () => {
		expect(
			simplifiedRun(run({ output: { score: 7, suggestions: ['shorter'] } }), {
				operation: '/ads/analyze',
			}),
		).toEqual({
			score: 7,
			suggestions: ['shorter'],
			credits: 4,
			run_id: 'run_1',
			status: 'completed',
		});
	});
});

describe('Simplify: ad variants', () => {
	const variants = (list: unknown[], credits: number | null = 6) =>
		simplifiedVariants(
			run({
				usage: credits === null ? null : { credits },
				output: { variant_count: list.length, variants: list },
			}),
			{ operation: '/workflows/product_ad_variants/runs' },
		);

	it("one item per variant with its fields, place, its own share of the credits and the run's", () => {
		expect(variants([{ headline: 'A', body: 'a' }, { headline: 'B' }, { headline: 'C' }])).toEqual([
			{
				headline: 'A',
				body: 'a',
				variant_index: 0,
				variant_count: 3,
				credits: 2,
				run_credits: 6,
				workflow: 'product_ad_variants',
				run_id: 'run_1',
				status: 'completed',
			},
			{
				headline: 'B',
				variant_index: 1,
				variant_count: 3,
				credits: 2,
				run_credits: 6,
				workflow: 'product_ad_variants',
				run_id: 'run_1',
				status: 'completed',
			},
			{
				headline: 'C',
				variant_index: 2,
				variant_count: 3,
				credits: 2,
				run_credits: 6,
				workflow: 'product_ad_variants',
				run_id: 'run_1',
				status: 'completed',
			},
		]);
	});

	it('shares credits that do not divide evenly so that they add up to the charge', () => {
		const shares = variants([{}, {}, {}], 10)!.map((item) => item.credits as number);
		expect(shares).toEqual([3.3334, 3.3333, 3.3333]);
		expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(10, 10);
	});

	it('a variant that carries its own credits keeps them; the others share the rest', () => {
		expect(variantCredits(10, [4, undefined, undefined])).toEqual([4, 3, 3]);
		expect(variantCredits(undefined, [undefined, 2])).toEqual([undefined, 2]);
		expect(variantCredits(3, [5, undefined])).toEqual([5, 0]);
	});

	it("without the run's credits, no item claims any", () => {
		for (const item of variants([{ headline: 'A' }, { headline: 'B' }], null)!) {
			expect(item).not.toHaveProperty('credits');
			expect(item).not.toHaveProperty('run_credits');
		}
	});

	it('no variants: undefined (the caller gives the one workflow item)', () => {
		expect(variants([])).toBeUndefined();
		expect(simplifiedVariants(run({ output: null }))).toBeUndefined();
	});
});

describe('Simplify: batch items', () => {
	it('each as the kind of its target, with batch id, place and item id; the prompt from what was sent, else the echo', () => {
		const item = {
			id: 'bitem_1',
			batch_id: 'batch_1',
			index: 1,
			target: 'hook_pack',
			status: 'completed',
			run_id: 'run_7',
			output: { hooks: ['h'], body: 'b' },
			error: null,
		};
		expect(simplifiedBatchItem(item, { id: 'batch_1' })).toEqual({
			hooks: ['h'],
			body: 'b',
			workflow: 'hook_pack',
			run_id: 'run_7',
			status: 'completed',
			batch_id: 'batch_1',
			batch_item_index: 1,
			batch_item_id: 'bitem_1',
		});
		const image = {
			...item,
			target: 'POST /images/generations',
			input_summary: { prompt: 'echo' },
			output: { output_url: url('i.png'), images: [{ url: url('i.png') }] },
		};
		expect(simplifiedBatchItem(image, {}, { sent: { prompt: 'sent' } })).toMatchObject({
			output_url: url('i.png'),
			prompt: 'sent',
			run_id: 'run_7',
		});
		expect(simplifiedBatchItem(image, {})).toMatchObject({ prompt: 'echo' });
	});
});

describe('Simplify: the kind of a run', () => {
	it.each([
		['POST /products/extract', { kind: 'product' }],
		['/products/extract', { kind: 'product' }],
		['/workflows/hook_pack/runs', { kind: 'workflow', workflow: 'hook_pack' }],
		['POST /workflows/{workflowKey}/runs', { kind: 'workflow' }],
		['creative_pack', { kind: 'workflow', workflow: 'creative_pack' }],
		['POST /ads/analyze', { kind: 'workflow' }],
		['/user-workflows/uwf_1/runs', undefined],
		['/presets/preset_1/runs', undefined],
		['POST /images/generations', undefined],
		[undefined, undefined],
	])('%s', (operation, kind) => {
		expect(kindOfOperation(operation)).toEqual(kind);
	});
});
