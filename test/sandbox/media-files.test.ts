/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { crc32 } from 'node:zlib';

import {
	makeBlend,
	makeGlb,
	makeModelFile,
	makeMp3,
	makeObj,
	makeStl,
	makeUsdz,
	makeWav,
	mp4Clip,
} from '../../sandbox/media-files';

/** Top-level MP4 boxes: [type, size]. */
function boxes(bytes: Buffer): Array<[string, number]> {
	const out: Array<[string, number]> = [];
	for (let at = 0; at + 8 <= bytes.length; ) {
		const size = bytes.readUInt32BE(at);
		out.push([bytes.subarray(at + 4, at + 8).toString('latin1'), size]);
		if (size < 8) break;
		at += size;
	}
	return out;
}

describe('sandbox media files are real files of their type', () => {
	it('MP4 fixture: a few kB with ftyp, moov and mdat boxes that span the file', () => {
		const mp4 = mp4Clip();
		expect(mp4.length).toBeLessThan(20_000);
		const list = boxes(mp4);
		expect(list.map(([type]) => type)).toEqual(expect.arrayContaining(['ftyp', 'moov', 'mdat']));
		expect(list.reduce((n, [, size]) => n + size, 0)).toBe(mp4.length);
	});

	it('WAV: RIFF/WAVE with a PCM fmt chunk and a data chunk of the stated length', () => {
		const wav = makeWav(0.5, 1, 8000);
		expect(wav.subarray(0, 4).toString('latin1')).toBe('RIFF');
		expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
		expect(wav.readUInt16LE(20)).toBe(1);
		expect(wav.readUInt32LE(24)).toBe(8000);
		expect(wav.readUInt32LE(40)).toBe(4000 * 2);
	});

	it('MP3: an ID3 header then back-to-back MPEG-2 Layer III frames of 36 bytes (8 kbit/s, 16 kHz)', () => {
		const mp3 = makeMp3(1);
		expect(mp3.subarray(0, 3).toString('latin1')).toBe('ID3');
		const frames = mp3.subarray(10);
		expect(frames.length % 36).toBe(0);
		for (let at = 0; at < frames.length; at += 36)
			expect([...frames.subarray(at, at + 4)]).toEqual([0xff, 0xf3, 0x18, 0xc4]);
		expect(frames.length / 36).toBe(Math.round(16000 / 576));
	});

	it('GLB: glTF 2.0 header, a JSON chunk whose buffer views fit the BIN chunk', () => {
		const glb = makeGlb(3);
		expect(glb.subarray(0, 4).toString('latin1')).toBe('glTF');
		expect(glb.readUInt32LE(4)).toBe(2);
		expect(glb.readUInt32LE(8)).toBe(glb.length);
		const jsonLength = glb.readUInt32LE(12);
		expect(glb.subarray(16, 20).toString('latin1')).toBe('JSON');
		const gltf = JSON.parse(glb.subarray(20, 20 + jsonLength).toString('utf8'));
		const binLength = glb.readUInt32LE(20 + jsonLength);
		expect(glb.subarray(24 + jsonLength, 28 + jsonLength).toString('latin1')).toBe('BIN\0');
		expect(gltf.buffers[0].byteLength).toBe(binLength);
		for (const view of gltf.bufferViews)
			expect(view.byteOffset + view.byteLength).toBeLessThanOrEqual(binLength);
		expect(gltf.accessors[0]).toMatchObject({ type: 'VEC3', count: 4 });
	});

	it('USDZ: an uncompressed zip whose file data starts on a 64-byte boundary', () => {
		const usdz = makeUsdz(1);
		expect(usdz.readUInt32LE(0)).toBe(0x04034b50);
		expect(usdz.readUInt16LE(8)).toBe(0);
		const nameLength = usdz.readUInt16LE(26);
		const extraLength = usdz.readUInt16LE(28);
		const dataAt = 30 + nameLength + extraLength;
		expect(dataAt % 64).toBe(0);
		const size = usdz.readUInt32LE(18);
		expect(usdz.subarray(dataAt, dataAt + size).toString('utf8')).toMatch(/^#usda 1\.0/);
		expect(usdz.readUInt32LE(usdz.length - 22)).toBe(0x06054b50);
		expect(usdz.readUInt32LE(14)).toBe(crc32(usdz.subarray(dataAt, dataAt + size)) >>> 0);
	});

	it('OBJ, STL, FBX and BLEND: the text and header forms their tools read', () => {
		expect(makeObj(1).toString('utf8')).toMatch(/^# .*\no model\n(v .+\n){4}(f \d+ \d+ \d+\n){4}$/);
		expect(makeStl(1).toString('utf8')).toMatch(/^solid model\n[\s\S]*endsolid model\n$/);
		expect(
			(
				makeStl(1)
					.toString('utf8')
					.match(/facet normal/g) ?? []
			).length,
		).toBe(4);
		expect(makeModelFile('fbx', 1).toString('utf8')).toMatch(
			/^; FBX 7\.4\.0 project file\n[\s\S]*PolygonVertexIndex: \*12/,
		);
		expect(makeBlend().subarray(0, 12).toString('latin1')).toBe('BLENDER-v300');
		expect(makeBlend().subarray(12, 16).toString('latin1')).toBe('ENDB');
	});
});
