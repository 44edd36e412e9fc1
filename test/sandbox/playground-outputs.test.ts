import type { AxiosInstance } from 'axios';

import { GLYPH_HEIGHT, GLYPH_WIDTH, glyphRows } from '../../sandbox/bitmap-font';
import { captionLayout, largestCaptionScale, pngText, readRaster } from '../../sandbox/png';
import { isLongRun } from '../../sandbox/run-durations';
import type { Sandbox } from '../../sandbox/server';
import { SUBMITS } from '../../sandbox/submits';
import { idem, openSandbox, PNG_SIGNATURE, sleep, waitForRun } from './helpers';

const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
/** Each printable character by its glyph's pixels. */
const BY_GLYPH = new Map(PRINTABLE.map((c) => [JSON.stringify(glyphRows(c)), c]));
const PANEL = [250, 249, 244];
const INK = [28, 28, 34];

/**
 * The text a captioned picture shows, read back from its pixels alone with the font: find the light
 * panel, then match each character cell against every glyph, line by line, at the largest text
 * scale that reads as text.
 */
function readCaption(png: Buffer): { text: string; scale: number } {
	const { width, height, channels, pixels } = readRaster(png);
	const colourAt = (x: number, y: number) => [
		...pixels.subarray((y * width + x) * channels, (y * width + x) * channels + 3),
	];
	const is = (x: number, y: number, colour: number[]) =>
		x < width && y < height && colourAt(x, y).every((v, i) => v === colour[i]);
	const start = Array.from({ length: width * height }, (_, i) => i).find((i) =>
		is(i % width, Math.floor(i / width), PANEL),
	);
	if (start === undefined) return { text: '', scale: 0 };
	const [panelX, panelY] = [start % width, Math.floor(start / width)];
	for (let scale = largestCaptionScale(width, height); scale >= 1; scale--) {
		const { pad, advance, lineHeight } = captionLayout(width, height, scale);
		const lines: string[] = [];
		for (let row = 0; panelY + pad + row * lineHeight + GLYPH_HEIGHT * scale <= height; row++) {
			const top = panelY + pad + row * lineHeight;
			let line = '';
			for (let column = 0; ; column++) {
				const left = panelX + pad + column * advance;
				if (left + GLYPH_WIDTH * scale > width || !(is(left, top, PANEL) || is(left, top, INK)))
					break;
				const cell = Array.from({ length: GLYPH_HEIGHT }, (_, gy) =>
					Array.from({ length: GLYPH_WIDTH }, (_, gx) =>
						is(left + gx * scale, top + gy * scale, INK),
					),
				);
				line += BY_GLYPH.get(JSON.stringify(cell)) ?? '\u0000';
			}
			if (!line.trim()) break;
			lines.push(line.trimEnd());
		}
		const text = lines.join(' ');
		if (text && !text.includes('\u0000')) return { text, scale };
	}
	return { text: '', scale: 0 };
}

describe('the playground sandbox: pictures that show their prompt, plausible products and ads, long jobs that take long', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 30, captionPictures: true }));
	});
	afterAll(() => sandbox.close());

	async function completed(
		path: string,
		body: Record<string, unknown>,
	): Promise<Record<string, unknown>> {
		const submit = await http.post(path, body, idem());
		expect({
			status: submit.status,
			problem: submit.status === 202 ? undefined : submit.data,
		}).toEqual({ status: 202, problem: undefined });
		const run = await waitForRun(http, submit.data.id);
		expect(run.status).toBe('completed');
		return run.output as Record<string, unknown>;
	}
	const download = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

	it('the font draws every printable character differently, so a picture can be read back', () => {
		expect(BY_GLYPH.size).toBe(PRINTABLE.length);
	});

	it('a generated picture spells its prompt in its pixels at twice the font size (and keeps it in its Description chunk), short side near 320 px', async () => {
		const prompt =
			'Nobody tells you about Ceramic Mug. A hand-glazed 350 ml stoneware mug. Square product ad, clean studio light.';
		const output = await completed('/images/generations', {
			prompt,
			model: 'image.aurora-2',
			aspect_ratio: '16:9',
			count: 2,
		});
		expect(output).toEqual(expect.objectContaining({ width: 576, height: 324 })); // exactly 16:9, short side near 320 px
		for (const { url } of output.images as Array<{ url: string }>) {
			const png = await download(url);
			expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
			expect(readCaption(png)).toEqual({ text: prompt, scale: 2 });
			expect(pngText(png)).toBe(prompt);
			expect(png.length).toBeLessThan(40_000);
		}
	});

	it('a longer prompt is drawn smaller to fit whole; one too long for that ends in "..."; typographic marks are drawn as ASCII', async () => {
		const picture = async (prompt: string) => {
			const output = await completed('/images/generations', {
				prompt,
				model: 'image.aurora-2',
				aspect_ratio: '1:1',
			});
			return download((output.images as Array<{ url: string }>)[0].url);
		};
		const longer = `A “quoted” café – ${'and more words '.repeat(30)}end`;
		expect(readCaption(await picture(longer))).toEqual({
			text: longer.replace('“', '"').replace('”', '"').replace('é', 'e').replace('–', '-'),
			scale: 1,
		});
		const tooLong = `${'and more words '.repeat(120)}end`;
		const png = await picture(tooLong);
		const shown = readCaption(png);
		expect(shown.scale).toBe(1);
		expect(shown.text.startsWith('and more words')).toBe(true);
		expect(shown.text.endsWith('...')).toBe(true);
		expect(shown.text.length).toBeLessThan(tooLong.length);
		expect(pngText(png)).toBe(tooLong);
	});

	it('a background removal of a sandbox picture is transparent around a panel that names the edit and the picture it was made from', async () => {
		const prompt = 'a ceramic coffee mug on a wooden table, product photo';
		const generated = await completed('/images/generations', {
			prompt,
			model: 'image.aurora-2',
			aspect_ratio: '1:1',
		});
		const cutOut = await completed('/images/background-remove', {
			image_url: generated.output_url,
		});
		const png = await download(String(cutOut.output_url));
		expect(readCaption(png).text).toBe(`Background removed: ${prompt}`);
		expect(pngText(png)).toBe(`Background removed: ${prompt}`);
		const raster = readRaster(png);
		expect(raster.channels).toBe(4);
		expect(raster.pixels[3]).toBe(0); // the top-left corner: background gone
	});

	it('without captionPictures, pictures stay 64 px gradients without text', async () => {
		const plain = await openSandbox({ latencyMs: 30 });
		try {
			const submit = await plain.http.post(
				'/images/generations',
				{ prompt: 'a kite', model: 'image.aurora-2', aspect_ratio: '1:1' },
				idem(),
			);
			const run = await waitForRun(plain.http, submit.data.id);
			const png = await download((run.output as { output_url: string }).output_url);
			expect(readRaster(png)).toEqual(
				expect.objectContaining({ width: 64, height: 64, channels: 3 }),
			);
			expect(pngText(png)).toBeUndefined();
		} finally {
			await plain.sandbox.close();
		}
	});

	it('product extraction names the product from its page address, and its photos say so', async () => {
		const output = await completed('/products/extract', {
			url: 'https://shop.example.com/products/ceramic-mug',
		});
		const product = output.product as Record<string, unknown>;
		expect(product).toEqual(
			expect.objectContaining({
				url: 'https://shop.example.com/products/ceramic-mug',
				title: 'Ceramic Mug',
				brand: 'Example',
			}),
		);
		expect(product.description).toEqual(expect.stringContaining('Ceramic Mug'));
		expect(JSON.stringify(product)).not.toMatch(/Sample product|sandbox/i);
		const photo = await download((output.images as Array<{ url: string }>)[0].url);
		expect(readCaption(photo).text).toBe('Ceramic Mug, photo 1 of 2');
	});

	it('ad variants: three different ads, every headline carries the product name given (not the prompt), every body its description', async () => {
		const output = await completed('/workflows/product_ad_variants/runs', {
			prompt: 'https://shop.example.com/products/ceramic-mug',
			product_name: 'Ceramic Mug',
			product_description: 'A hand-glazed 350 ml stoneware mug.',
			audience: 'home coffee lovers',
			variant_count: 3,
		});
		const variants = output.variants as Array<Record<string, string>>;
		expect(variants).toHaveLength(3);
		for (const field of ['angle', 'headline', 'call_to_action'])
			expect(new Set(variants.map((v) => v[field])).size).toBe(3);
		for (const variant of variants) {
			expect(variant.headline).toContain('Ceramic Mug');
			expect(variant.headline).not.toContain('https://');
			expect(variant.body).toContain('A hand-glazed 350 ml stoneware mug');
			expect(Object.keys(variant).sort()).toEqual(['angle', 'body', 'call_to_action', 'headline']);
		}
	});

	it('with longRunLatencyMs, video, lip sync, 3D and producer runs stay processing while images and speech finish at latencyMs', async () => {
		const slow = await openSandbox({ latencyMs: 30, longRunLatencyMs: 60_000 });
		try {
			const video = await slow.http.post(
				'/videos/generations',
				{ prompt: 'waves', model: 'video.motion-2' },
				idem(),
			);
			expect(video.status).toBe(202);
			const image = await slow.http.post('/images/generations', { prompt: 'a kite' }, idem());
			const speech = await slow.http.post('/audio/speech', { text: 'hello there' }, idem());
			expect((await waitForRun(slow.http, image.data.id)).status).toBe('completed');
			expect((await waitForRun(slow.http, speech.data.id)).status).toBe('completed');
			await sleep(200);
			expect((await slow.http.get(`/runs/${video.data.id}`)).data.status).toBe('processing');
		} finally {
			await slow.sandbox.close();
		}
		const long = Object.keys(SUBMITS).filter(isLongRun);
		expect(long).toEqual(
			expect.arrayContaining([
				'POST /videos/generations',
				'POST /lipsync/generations',
				'POST /models/3d/generations',
				'POST /explainers/generations',
				'POST /games/generations',
			]),
		);
		for (const quick of [
			'POST /images/generations',
			'POST /images/background-remove',
			'POST /audio/speech',
			'POST /audio/music',
			'POST /products/extract',
			'POST /workflows/{workflowKey}/runs',
		]) {
			expect({ quick, long: isLongRun(quick) }).toEqual({ quick, long: false });
		}
	});
});
