/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import type { IBinaryData } from 'n8n-workflow';

import { binaryBytes } from './n8n-harness';

/** What a file's first bytes say it is (enough to tell the sandbox's outputs apart). */
export function sniff(bytes: Buffer): string {
	if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
		return 'png';
	if (bytes.subarray(4, 8).toString('latin1') === 'ftyp') return 'mp4';
	if (
		bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
		bytes.subarray(8, 12).toString('latin1') === 'WAVE'
	)
		return 'wav';
	if (
		bytes.subarray(0, 3).toString('latin1') === 'ID3' ||
		(bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0)
	)
		return 'mp3';
	if (bytes.subarray(0, 4).toString('latin1') === 'glTF') return 'glb';
	if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'zip';
	if (bytes.subarray(0, 7).toString('latin1') === 'BLENDER') return 'blend';
	const text = bytes.subarray(0, 64).toString('utf8');
	if (text.startsWith('; FBX')) return 'fbx';
	if (text.startsWith('solid ')) return 'stl';
	if (/^# .*\no /.test(text) || /^v /m.test(text)) return 'obj';
	return 'unknown';
}

export async function kindOf(binary: IBinaryData): Promise<string> {
	return sniff(await binaryBytes(binary));
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A mono 8-bit WAV at `rate` samples a second with `dataBytes` of samples (they play `dataBytes / rate` s). */
export function monoWav(dataBytes: number, rate: number): Buffer {
	const header = Buffer.alloc(44);
	header.write('RIFF', 0, 'ascii');
	header.writeUInt32LE(36 + dataBytes, 4);
	header.write('WAVE', 8, 'ascii');
	header.write('fmt ', 12, 'ascii');
	header.writeUInt32LE(16, 16);
	header.writeUInt16LE(1, 20);
	header.writeUInt16LE(1, 22);
	header.writeUInt32LE(rate, 24);
	header.writeUInt32LE(rate, 28);
	header.writeUInt16LE(1, 32);
	header.writeUInt16LE(8, 34);
	header.write('data', 36, 'ascii');
	header.writeUInt32LE(dataBytes, 40);
	const data = Buffer.alloc(dataBytes);
	for (let i = 0; i < dataBytes; i += 997) data[i] = (i * 31) & 0xff;
	return Buffer.concat([header, data]);
}
