/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the local sandbox service: runs in Node, never shipped (CONTRIBUTING.md, Linting) */
import { crc32, deflateSync, inflateSync } from 'node:zlib';

import { bufferSource, type ByteSource } from './large-files';
import { drawableText, GLYPH_HEIGHT, GLYPH_WIDTH, glyphRows, wrapText } from './bitmap-font';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The PNG text keyword a captioned picture keeps its caption under (PNG spec: "Description"). */
export const CAPTION_KEYWORD = 'Description';

function chunk(type: string, data: Buffer): Buffer {
	const length = Buffer.alloc(4);
	length.writeUInt32BE(data.length);
	const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(body) >>> 0);
	return Buffer.concat([length, body, crc]);
}

/** An iTXt chunk (UTF-8 text, uncompressed): keyword, then flags and empty language tags, then the text. */
function textChunk(keyword: string, text: string): Buffer {
	return chunk(
		'iTXt',
		Buffer.concat([
			Buffer.from(keyword, 'latin1'),
			Buffer.from([0, 0, 0, 0, 0]),
			Buffer.from(text, 'utf8'),
		]),
	);
}

/** A picture in memory: `channels` bytes a pixel (3 RGB, 4 RGBA), rows top to bottom. */
interface Raster {
	width: number;
	height: number;
	channels: 3 | 4;
	pixels: Buffer;
}

function encodePng(
	{ width, height, channels, pixels }: Raster,
	texts: Record<string, string> = {},
): Buffer {
	const stride = width * channels;
	const rows = Buffer.alloc((stride + 1) * height);
	for (let y = 0; y < height; y++)
		pixels.copy(rows, y * (stride + 1) + 1, y * stride, (y + 1) * stride); // filter byte 0: none
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header[8] = 8; // bit depth
	header[9] = channels === 4 ? 6 : 2; // colour type: RGBA or RGB
	return Buffer.concat([
		SIGNATURE,
		chunk('IHDR', header),
		...Object.entries(texts).map(([keyword, text]) => textChunk(keyword, text)),
		chunk('IDAT', deflateSync(rows)),
		chunk('IEND', Buffer.alloc(0)),
	]);
}

/** A diagonal gradient whose colours derive from `seed` (each channel stays within 0–255: no bands). */
function gradient(width: number, height: number, seed: number, channels: 3 | 4): Raster {
	const [r0, g0, b0] = [
		(seed & 0xff) % 76,
		((seed >> 8) & 0xff) % 166,
		((seed >> 16) & 0xff) % 136,
	];
	const pixels = Buffer.alloc(width * height * channels);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const t = (x + y) / (width + height);
			const at = (y * width + x) * channels;
			pixels[at] = r0 + t * 180;
			pixels[at + 1] = g0 + t * 90;
			pixels[at + 2] = b0 + (1 - t) * 120;
			if (channels === 4) pixels[at + 3] = 255;
		}
	}
	return { width, height, channels, pixels };
}

/**
 * A real, valid RGB PNG (a diagonal gradient whose colours derive from `seed`), so outputs are
 * files any image tool opens, a few hundred bytes each.
 */
export function makePng(width: number, height: number, seed: number): Buffer {
	return encodePng(gradient(width, height, seed, 3));
}

const PANEL: [number, number, number] = [250, 249, 244];
const INK: [number, number, number] = [28, 28, 34];

function fill(
	raster: Raster,
	x0: number,
	y0: number,
	w: number,
	h: number,
	colour: [number, number, number],
): void {
	for (let y = Math.max(0, y0); y < Math.min(raster.height, y0 + h); y++) {
		for (let x = Math.max(0, x0); x < Math.min(raster.width, x0 + w); x++) {
			const at = (y * raster.width + x) * raster.channels;
			raster.pixels[at] = colour[0];
			raster.pixels[at + 1] = colour[1];
			raster.pixels[at + 2] = colour[2];
			if (raster.channels === 4) raster.pixels[at + 3] = 255;
		}
	}
}

/** The largest text scale (pixels per font pixel) a picture of this size uses. */
export const largestCaptionScale = (width: number, height: number) =>
	Math.max(1, Math.floor(Math.min(width, height) / 128));

/** Where a caption goes at a text `scale`: how many characters and lines fit. */
export function captionLayout(width: number, height: number, scale: number) {
	const margin = 6 * scale;
	const pad = 4 * scale;
	const advance = (GLYPH_WIDTH + 1) * scale;
	const lineHeight = (GLYPH_HEIGHT + 2) * scale;
	return {
		scale,
		pad,
		advance,
		lineHeight,
		perLine: Math.max(1, Math.floor((width - 2 * margin - 2 * pad + scale) / advance)),
		maxLines: Math.max(1, Math.floor((height - 2 * margin - 2 * pad + 2 * scale) / lineHeight)),
	};
}

/** The caption's lines at the largest scale where all of it fits (at scale 1 what does not fit ends in "..."). */
function fitCaption(width: number, height: number, text: string) {
	for (let scale = largestCaptionScale(width, height); ; scale--) {
		const layout = captionLayout(width, height, scale);
		const whole = wrapText(text, layout.perLine, Number.MAX_SAFE_INTEGER);
		if (whole.length <= layout.maxLines || scale === 1)
			return { ...layout, lines: wrapText(text, layout.perLine, layout.maxLines) };
	}
}

/**
 * A picture that shows the text it was made from: the seeded gradient with the caption, word
 * wrapped, on a light panel in the middle (a playground user sees which prompt made which picture),
 * as large as it fits. The caption is also kept whole in the file's `Description` text chunk. A
 * cut-out keeps only the panel: everything around it is transparent, as a background removal
 * leaves it.
 */
export function makeCaptionedPng(
	width: number,
	height: number,
	seed: number,
	caption: string,
	options: { cutOut?: boolean } = {},
): Buffer {
	const raster = gradient(width, height, seed, options.cutOut ? 4 : 3);
	if (options.cutOut) for (let i = 3; i < raster.pixels.length; i += 4) raster.pixels[i] = 0;
	const { scale, pad, advance, lineHeight, lines } = fitCaption(
		width,
		height,
		drawableText(caption),
	);
	const longest = Math.max(1, ...lines.map((l) => l.length));
	const panelWidth = longest * advance - scale + 2 * pad;
	const panelHeight = Math.max(1, lines.length) * lineHeight - 2 * scale + 2 * pad;
	const panelX = Math.floor((width - panelWidth) / 2);
	const panelY = Math.floor((height - panelHeight) / 2);
	fill(raster, panelX, panelY, panelWidth, panelHeight, PANEL);
	lines.forEach((line, row) => {
		[...line].forEach((char, column) => {
			const left = panelX + pad + column * advance;
			const top = panelY + pad + row * lineHeight;
			glyphRows(char).forEach((bits, gy) =>
				bits.forEach(
					(on, gx) => on && fill(raster, left + gx * scale, top + gy * scale, scale, scale, INK),
				),
			);
		});
	});
	return encodePng(raster, { [CAPTION_KEYWORD]: caption });
}

/**
 * The text a PNG keeps under `keyword` (tEXt or uncompressed iTXt), or undefined. Reads only the
 * chunks before the image data, so a large upload costs a few small reads.
 */
export function pngText(
	file: Buffer | ByteSource,
	keyword: string = CAPTION_KEYWORD,
): string | undefined {
	const source = Buffer.isBuffer(file) ? bufferSource(file) : file;
	if (!source.read(0, 8).equals(SIGNATURE)) return undefined;
	for (let at = 8; at + 8 <= source.size; ) {
		const head = source.read(at, 8);
		const length = head.readUInt32BE(0);
		const type = head.toString('latin1', 4, 8);
		if (type === 'IDAT' || type === 'IEND') return undefined;
		if (type === 'tEXt' || type === 'iTXt') {
			const data = source.read(at + 8, length);
			const end = data.indexOf(0);
			if (end > 0 && data.toString('latin1', 0, end) === keyword) {
				if (type === 'tEXt') return data.toString('latin1', end + 1);
				if (data[end + 1] === 0) {
					const language = data.indexOf(0, end + 3);
					const translated = data.indexOf(0, language + 1);
					return data.toString('utf8', translated + 1);
				}
			}
		}
		at += 12 + length;
	}
	return undefined;
}

/** The pixels of a PNG this module wrote (8-bit RGB or RGBA, filter none): for tests that look at pictures. */
export function readRaster(file: Buffer): Raster {
	let at = 8;
	let header: Buffer | undefined;
	const data: Buffer[] = [];
	while (at + 8 <= file.length) {
		const length = file.readUInt32BE(at);
		const type = file.toString('latin1', at + 4, at + 8);
		if (type === 'IHDR') header = file.subarray(at + 8, at + 8 + length);
		if (type === 'IDAT') data.push(file.subarray(at + 8, at + 8 + length));
		at += 12 + length;
	}
	if (!header || header[8] !== 8 || (header[9] !== 2 && header[9] !== 6))
		throw new Error('not an 8-bit RGB or RGBA PNG');
	const [width, height, channels] = [
		header.readUInt32BE(0),
		header.readUInt32BE(4),
		header[9] === 6 ? 4 : 3,
	] as const;
	const rows = inflateSync(Buffer.concat(data));
	const stride = width * channels;
	const pixels = Buffer.alloc(stride * height);
	for (let y = 0; y < height; y++) {
		if (rows[y * (stride + 1)] !== 0) throw new Error('filtered rows are not read here');
		rows.copy(pixels, y * stride, y * (stride + 1) + 1, (y + 1) * (stride + 1));
	}
	return { width, height, channels, pixels };
}
