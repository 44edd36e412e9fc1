/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the local sandbox service: runs in Node, never shipped (CONTRIBUTING.md, Linting) */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';

/**
 * Small but real media files for the sandbox's run outputs: each opens in the tools of its kind.
 * Audio and 3D files are generated here; the MP4 (H.264 + AAC, 1 s, 64×64) is a committed fixture
 * made once with ffmpeg, since writing an H.264 stream by hand is not worth it.
 */

/** A mono 16-bit PCM WAV: a sine tone whose pitch derives from `seed`. */
export function makeWav(seconds: number, seed: number, sampleRate = 8000): Buffer {
	const samples = Math.max(1, Math.round(seconds * sampleRate));
	const frequency = 220 + (seed % 660);
	const data = Buffer.alloc(samples * 2);
	for (let i = 0; i < samples; i++) {
		data.writeInt16LE(
			Math.round(Math.sin((2 * Math.PI * frequency * i) / sampleRate) * 8000),
			i * 2,
		);
	}
	const header = Buffer.alloc(44);
	header.write('RIFF', 0, 'ascii');
	header.writeUInt32LE(36 + data.length, 4);
	header.write('WAVE', 8, 'ascii');
	header.write('fmt ', 12, 'ascii');
	header.writeUInt32LE(16, 16);
	header.writeUInt16LE(1, 20); // PCM
	header.writeUInt16LE(1, 22); // mono
	header.writeUInt32LE(sampleRate, 24);
	header.writeUInt32LE(sampleRate * 2, 28);
	header.writeUInt16LE(2, 32);
	header.writeUInt16LE(16, 34);
	header.write('data', 36, 'ascii');
	header.writeUInt32LE(data.length, 40);
	return Buffer.concat([header, data]);
}

/**
 * An MP3 of silent MPEG-2 Layer III frames (8 kbit/s, 16 kHz, mono): each frame is a valid header
 * with zeroed side information, which decoders play as silence. 36 bytes and 36 ms per frame, so a
 * second costs 1 kB (a 3-minute song 180 kB).
 */
export function makeMp3(seconds: number): Buffer {
	const frameBytes = (72 * 8000) / 16000; // 72 * bitrate / sample rate (MPEG-2 Layer III)
	const frames = Math.max(1, Math.round((seconds * 16000) / 576));
	const frame = Buffer.alloc(frameBytes);
	// sync 0xFFF, MPEG-2, Layer III, no CRC | bitrate index 1 (8k), 16 kHz (2), no padding | mono, original
	frame.set([0xff, 0xf3, 0x18, 0xc4], 0);
	const id3 = Buffer.from('ID3\x03\x00\x00\x00\x00\x00\x00', 'latin1');
	return Buffer.concat([id3, ...Array.from({ length: frames }, () => frame)]);
}

interface Mesh {
	positions: number[][];
	triangles: number[][];
}

/** A tetrahedron scaled by the seed: the smallest closed mesh. */
function tetrahedron(seed: number): Mesh {
	const s = 1 + (seed % 5) / 10;
	return {
		positions: [
			[0, s, 0],
			[-s, -s, s],
			[s, -s, s],
			[0, -s, -s],
		],
		triangles: [
			[0, 1, 2],
			[0, 2, 3],
			[0, 3, 1],
			[1, 3, 2],
		],
	};
}

function pad4(buffer: Buffer, fill: number): Buffer {
	const extra = (4 - (buffer.length % 4)) % 4;
	return extra ? Buffer.concat([buffer, Buffer.alloc(extra, fill)]) : buffer;
}

/** A glTF 2.0 binary (GLB) with one mesh. */
export function makeGlb(seed: number): Buffer {
	const mesh = tetrahedron(seed);
	const positions = Buffer.alloc(mesh.positions.length * 12);
	mesh.positions.flat().forEach((v, i) => positions.writeFloatLE(v, i * 4));
	const indices = pad4(Buffer.from(new Uint16Array(mesh.triangles.flat()).buffer), 0);
	const bin = Buffer.concat([positions, indices]);
	const flat = mesh.positions.flat();
	const axis = (k: number, f: (a: number, b: number) => number) =>
		mesh.positions.map((p) => p[k]).reduce(f);
	const gltf = {
		asset: { version: '2.0', generator: 'mediagen-sandbox' },
		scene: 0,
		scenes: [{ nodes: [0] }],
		nodes: [{ mesh: 0 }],
		meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] }],
		buffers: [{ byteLength: bin.length }],
		bufferViews: [
			{ buffer: 0, byteOffset: 0, byteLength: positions.length, target: 34962 },
			{
				buffer: 0,
				byteOffset: positions.length,
				byteLength: mesh.triangles.length * 6,
				target: 34963,
			},
		],
		accessors: [
			{
				bufferView: 0,
				componentType: 5126,
				count: flat.length / 3,
				type: 'VEC3',
				min: [0, 1, 2].map((k) => axis(k, Math.min)),
				max: [0, 1, 2].map((k) => axis(k, Math.max)),
			},
			{ bufferView: 1, componentType: 5123, count: mesh.triangles.length * 3, type: 'SCALAR' },
		],
	};
	const json = pad4(Buffer.from(JSON.stringify(gltf), 'utf8'), 0x20);
	const chunk = (type: string, data: Buffer) => {
		const head = Buffer.alloc(8);
		head.writeUInt32LE(data.length, 0);
		head.write(type, 4, 'ascii');
		return Buffer.concat([head, data]);
	};
	const body = Buffer.concat([chunk('JSON', json), chunk('BIN\0', bin)]);
	const header = Buffer.alloc(12);
	header.write('glTF', 0, 'ascii');
	header.writeUInt32LE(2, 4);
	header.writeUInt32LE(12 + body.length, 8);
	return Buffer.concat([header, body]);
}

export function makeObj(seed: number): Buffer {
	const mesh = tetrahedron(seed);
	const lines = [
		'# mediagen sandbox mesh',
		'o model',
		...mesh.positions.map((p) => `v ${p.join(' ')}`),
		...mesh.triangles.map((t) => `f ${t.map((i) => i + 1).join(' ')}`),
	];
	return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

export function makeStl(seed: number): Buffer {
	const mesh = tetrahedron(seed);
	const facets = mesh.triangles.map((t) =>
		[
			'  facet normal 0 0 0',
			'    outer loop',
			...t.map((i) => `      vertex ${mesh.positions[i].join(' ')}`),
			'    endloop',
			'  endfacet',
		].join('\n'),
	);
	return Buffer.from(`solid model\n${facets.join('\n')}\nendsolid model\n`, 'utf8');
}

/** FBX 7.4 in its ASCII form, with the mesh as a Geometry object. */
export function makeFbx(seed: number): Buffer {
	const mesh = tetrahedron(seed);
	const vertices = mesh.positions.flat().join(',');
	// FBX marks the last index of each polygon by its bitwise complement
	const indices = mesh.triangles.map((t) => [t[0], t[1], -t[2] - 1].join(',')).join(',');
	const text = [
		'; FBX 7.4.0 project file',
		'FBXHeaderExtension:  {',
		'\tFBXHeaderVersion: 1003',
		'\tFBXVersion: 7400',
		'\tCreator: "mediagen-sandbox"',
		'}',
		'Objects:  {',
		'\tGeometry: 1000, "Geometry::model", "Mesh" {',
		`\t\tVertices: *${mesh.positions.length * 3} {`,
		`\t\t\ta: ${vertices}`,
		'\t\t}',
		`\t\tPolygonVertexIndex: *${mesh.triangles.length * 3} {`,
		`\t\t\ta: ${indices}`,
		'\t\t}',
		'\t}',
		'}',
		'',
	].join('\n');
	return Buffer.from(text, 'utf8');
}

/** An uncompressed zip whose file data starts on 64-byte boundaries, as USDZ requires. */
function zipStored(files: Array<{ name: string; data: Buffer }>): Buffer {
	const parts: Buffer[] = [];
	const central: Buffer[] = [];
	let offset = 0;
	for (const file of files) {
		const name = Buffer.from(file.name, 'utf8');
		const headerLength = 30 + name.length;
		const padding = (64 - ((offset + headerLength + 4) % 64)) % 64;
		const extra = Buffer.alloc(4 + padding);
		extra.writeUInt16LE(0x1986, 0); // private padding block, as Pixar's writer uses
		extra.writeUInt16LE(padding, 2);
		const crc = crc32(file.data) >>> 0;
		const local = Buffer.alloc(30);
		local.writeUInt32LE(0x04034b50, 0);
		local.writeUInt16LE(20, 4);
		local.writeUInt32LE(crc, 14);
		local.writeUInt32LE(file.data.length, 18);
		local.writeUInt32LE(file.data.length, 22);
		local.writeUInt16LE(name.length, 26);
		local.writeUInt16LE(extra.length, 28);
		const entry = Buffer.alloc(46);
		entry.writeUInt32LE(0x02014b50, 0);
		entry.writeUInt16LE(20, 4);
		entry.writeUInt16LE(20, 6);
		entry.writeUInt32LE(crc, 16);
		entry.writeUInt32LE(file.data.length, 20);
		entry.writeUInt32LE(file.data.length, 24);
		entry.writeUInt16LE(name.length, 28);
		entry.writeUInt32LE(offset, 42);
		central.push(entry, name);
		parts.push(local, name, extra, file.data);
		offset += local.length + name.length + extra.length + file.data.length;
	}
	const directory = Buffer.concat(central);
	const end = Buffer.alloc(22);
	end.writeUInt32LE(0x06054b50, 0);
	end.writeUInt16LE(files.length, 8);
	end.writeUInt16LE(files.length, 10);
	end.writeUInt32LE(directory.length, 12);
	end.writeUInt32LE(offset, 16);
	return Buffer.concat([...parts, directory, end]);
}

/** USDZ: a zip holding one ASCII USD layer with the mesh. */
export function makeUsdz(seed: number): Buffer {
	const mesh = tetrahedron(seed);
	const usda = [
		'#usda 1.0',
		'(',
		'    defaultPrim = "model"',
		'    upAxis = "Y"',
		')',
		'',
		'def Mesh "model"',
		'{',
		`    int[] faceVertexCounts = [${mesh.triangles.map(() => 3).join(', ')}]`,
		`    int[] faceVertexIndices = [${mesh.triangles.flat().join(', ')}]`,
		`    point3f[] points = [${mesh.positions.map((p) => `(${p.join(', ')})`).join(', ')}]`,
		'}',
		'',
	].join('\n');
	return zipStored([{ name: 'model.usda', data: Buffer.from(usda, 'utf8') }]);
}

/** A .blend header (64-bit pointers, little-endian, version 3.00) closed by its ENDB block. */
export function makeBlend(): Buffer {
	const header = Buffer.from('BLENDER-v300', 'ascii');
	const endBlock = Buffer.alloc(24);
	endBlock.write('ENDB', 0, 'ascii');
	return Buffer.concat([header, endBlock]);
}

let mp4: Buffer | undefined;

/** The committed MP4 fixture (sandbox/fixtures/clip.mp4, ~5 kB), found from source or from build/. */
export function mp4Clip(): Buffer {
	if (mp4) return mp4;
	const candidates = [
		join(__dirname, 'fixtures'),
		join(__dirname, '..', '..', 'sandbox', 'fixtures'),
		join(process.cwd(), 'sandbox', 'fixtures'),
	];
	const dir = candidates.find((d) => existsSync(join(d, 'clip.mp4')));
	if (!dir) throw new Error(`clip.mp4 fixture not found (looked in ${candidates.join(', ')})`);
	mp4 = readFileSync(join(dir, 'clip.mp4'));
	return mp4;
}

export const MODEL_CONTENT_TYPES: Record<string, string> = {
	glb: 'model/gltf-binary',
	fbx: 'application/octet-stream',
	obj: 'model/obj',
	usdz: 'model/vnd.usdz+zip',
	blend: 'application/x-blender',
	stl: 'model/stl',
};

export function makeModelFile(format: string, seed: number): Buffer {
	switch (format) {
		case 'glb':
			return makeGlb(seed);
		case 'fbx':
			return makeFbx(seed);
		case 'obj':
			return makeObj(seed);
		case 'usdz':
			return makeUsdz(seed);
		case 'blend':
			return makeBlend();
		case 'stl':
			return makeStl(seed);
		default:
			throw new Error(`no 3D format ${format}`);
	}
}
