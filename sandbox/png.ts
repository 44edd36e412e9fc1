/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the local sandbox service: runs in Node, never shipped (CONTRIBUTING.md, Linting) */
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
	const length = Buffer.alloc(4);
	length.writeUInt32BE(data.length);
	const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(body) >>> 0);
	return Buffer.concat([length, body, crc]);
}

/**
 * A real, valid RGB PNG (a diagonal gradient whose colours derive from `seed`), so outputs are
 * files any image tool opens, a few hundred bytes each.
 */
export function makePng(width: number, height: number, seed: number): Buffer {
	const r0 = seed & 0xff;
	const g0 = (seed >> 8) & 0xff;
	const b0 = (seed >> 16) & 0xff;
	const rows: Buffer[] = [];
	for (let y = 0; y < height; y++) {
		const row = Buffer.alloc(1 + width * 3);
		for (let x = 0; x < width; x++) {
			const t = (x + y) / (width + height);
			row[1 + x * 3] = (r0 + t * 180) & 0xff;
			row[2 + x * 3] = (g0 + t * 90) & 0xff;
			row[3 + x * 3] = (b0 + (1 - t) * 120) & 0xff;
		}
		rows.push(row);
	}
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header[8] = 8; // bit depth
	header[9] = 2; // colour type: RGB
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', header),
		chunk('IDAT', deflateSync(Buffer.concat(rows))),
		chunk('IEND', Buffer.alloc(0)),
	]);
}
