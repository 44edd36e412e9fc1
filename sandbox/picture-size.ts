import { bufferSource, type ByteSource } from './large-files';

export interface PictureSize {
	width: number;
	height: number;
}

/**
 * Width and height of a stored picture, read from its header as an image service would: PNG (IHDR),
 * GIF (logical screen), WebP (VP8, VP8L, VP8X) and JPEG (the first start-of-frame segment).
 * Undefined for anything else.
 */
export function pictureSize(file: Buffer | ByteSource): PictureSize | undefined {
	const source = Buffer.isBuffer(file) ? bufferSource(file) : file;
	const head = source.read(0, 32);
	if (
		head.length >= 24 &&
		head.readUInt32BE(0) === 0x89504e47 &&
		head.toString('latin1', 12, 16) === 'IHDR'
	) {
		return sized(head.readUInt32BE(16), head.readUInt32BE(20));
	}
	if (head.length >= 10 && /^GIF8[79]a$/.test(head.toString('latin1', 0, 6)))
		return sized(head.readUInt16LE(6), head.readUInt16LE(8));
	if (
		head.length >= 30 &&
		head.toString('latin1', 0, 4) === 'RIFF' &&
		head.toString('latin1', 8, 12) === 'WEBP'
	)
		return webpSize(head);
	if (head.length >= 4 && head[0] === 0xff && head[1] === 0xd8) return jpegSize(source);
	return undefined;
}

const sized = (width: number, height: number): PictureSize | undefined =>
	width > 0 && height > 0 ? { width, height } : undefined;

function webpSize(head: Buffer): PictureSize | undefined {
	switch (head.toString('latin1', 12, 16)) {
		case 'VP8X':
			return sized(head.readUIntLE(24, 3) + 1, head.readUIntLE(27, 3) + 1);
		case 'VP8L': {
			const bits = head.readUInt32LE(21);
			return sized((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
		}
		case 'VP8 ':
			return sized(head.readUInt16LE(26) & 0x3fff, head.readUInt16LE(28) & 0x3fff);
		default:
			return undefined;
	}
}

/** Start-of-frame markers (C0–CF) except DHT (C4), JPG (C8) and DAC (CC). */
const isStartOfFrame = (marker: number) =>
	marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** Walks the JPEG's segments (each a marker and a 16-bit length) up to the first frame header. */
function jpegSize(source: ByteSource): PictureSize | undefined {
	let offset = 2;
	while (offset + 9 <= source.size) {
		const segment = source.read(offset, 9);
		if (segment[0] !== 0xff) return undefined;
		const marker = segment[1];
		if (marker === 0xff) {
			offset += 1;
			continue;
		}
		if (isStartOfFrame(marker)) return sized(segment.readUInt16BE(7), segment.readUInt16BE(5));
		if (marker === 0xd9 || marker === 0xda) return undefined;
		offset += 2 + segment.readUInt16BE(2);
	}
	return undefined;
}
