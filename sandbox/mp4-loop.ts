/**
 * An MP4 of any length made from the committed one-second clip by looping it: the sample tables
 * of each track are repeated (every repetition points at the same bytes in `mdat`, and starts on
 * the clip's key frame), and the movie header, track headers and edit lists say the asked length.
 * The file grows by about 100 bytes a second, so a 30 s video stays near 8 kB.
 */

interface Box {
	type: string;
	/** the box's content after its 8-byte header (for containers: the encoded children) */
	body: Buffer;
	children?: Box[];
}

const CONTAINERS = new Set(['moov', 'trak', 'edts', 'mdia', 'minf', 'stbl']);

function parse(region: Buffer): Box[] {
	const out: Box[] = [];
	for (let at = 0; at + 8 <= region.length; ) {
		const size = region.readUInt32BE(at);
		if (size < 8 || at + size > region.length) throw new Error('clip.mp4: unexpected box layout');
		const type = region.toString('latin1', at + 4, at + 8);
		const body = region.subarray(at + 8, at + size);
		out.push(CONTAINERS.has(type) ? { type, body, children: parse(body) } : { type, body });
		at += size;
	}
	return out;
}

function encode(boxes: Box[]): Buffer {
	return Buffer.concat(
		boxes.map((box) => {
			const body = box.children ? encode(box.children) : box.body;
			const header = Buffer.alloc(8);
			header.writeUInt32BE(8 + body.length);
			header.write(box.type, 4, 'latin1');
			return Buffer.concat([header, body]);
		}),
	);
}

const child = (box: Box, type: string): Box => {
	const found = box.children?.find((c) => c.type === type);
	if (!found) throw new Error(`clip.mp4: no ${type} in ${box.type}`);
	return found;
};

/** A full box (version + flags) whose body is a 32-bit entry count followed by fixed-size entries. */
function tableOf(box: Box, entryBytes: number): { head: Buffer; entries: Buffer[] } {
	const count = box.body.readUInt32BE(4);
	const entries = Array.from({ length: count }, (_, i) =>
		box.body.subarray(8 + i * entryBytes, 8 + (i + 1) * entryBytes),
	);
	return { head: box.body.subarray(0, 4), entries };
}

function table(head: Buffer, entries: Buffer[]): Buffer {
	const count = Buffer.alloc(4);
	count.writeUInt32BE(entries.length);
	return Buffer.concat([head, count, ...entries]);
}

function uint32s(...values: number[]): Buffer {
	const out = Buffer.alloc(values.length * 4);
	values.forEach((v, i) => out.writeUInt32BE(v, i * 4));
	return out;
}

const times = <T>(n: number, make: (round: number) => T[]): T[] =>
	Array.from({ length: n }, (_, r) => make(r)).flat();

/** Repeats a track's samples `loops` times; chunk offsets are moved by `shift` bytes (the grown moov). */
function loopSampleTables(stbl: Box, loops: number, shift: number): void {
	const boxes = new Map(stbl.children!.map((b) => [b.type, b]));
	const stsz = boxes.get('stsz')!;
	const fixedSize = stsz.body.readUInt32BE(4);
	const samples = stsz.body.readUInt32BE(8);
	const chunkOffsets = tableOf(boxes.get('stco')!, 4);
	const chunks = chunkOffsets.entries.length;
	for (const [type, box] of boxes) {
		switch (type) {
			case 'stts':
			case 'ctts': {
				const { head, entries } = tableOf(box, 8);
				box.body = table(
					head,
					times(loops, () => entries),
				);
				break;
			}
			case 'stss': {
				const { head, entries } = tableOf(box, 4);
				box.body = table(
					head,
					times(loops, (r) => entries.map((e) => uint32s(e.readUInt32BE(0) + r * samples))),
				);
				break;
			}
			case 'stsc': {
				const { head, entries } = tableOf(box, 12);
				box.body = table(
					head,
					times(loops, (r) =>
						entries.map((e) =>
							uint32s(e.readUInt32BE(0) + r * chunks, e.readUInt32BE(4), e.readUInt32BE(8)),
						),
					),
				);
				break;
			}
			case 'stsz': {
				const sizes = fixedSize
					? []
					: Array.from({ length: samples }, (_, i) => stsz.body.subarray(12 + i * 4, 16 + i * 4));
				box.body = Buffer.concat([
					box.body.subarray(0, 8),
					uint32s(samples * loops),
					...times(loops, () => sizes),
				]);
				break;
			}
			case 'stco':
				box.body = table(
					chunkOffsets.head,
					times(loops, () => chunkOffsets.entries.map((e) => uint32s(e.readUInt32BE(0) + shift))),
				);
				break;
		}
	}
}

/** Sets a version-0 header's duration field (mvhd, tkhd, mdhd) at `at` bytes into its body. */
function setDuration(box: Box, at: number, value: number): void {
	if (box.body[0] !== 0) throw new Error(`clip.mp4: ${box.type} is not version 0`);
	box.body = Buffer.from(box.body);
	box.body.writeUInt32BE(value, at);
}

function handlerOf(trak: Box): string {
	return child(child(trak, 'mdia'), 'hdlr').body.toString('latin1', 8, 12);
}

/**
 * The clip looped to `seconds` (rounded to milliseconds). `withAudio: false` drops the sound track
 * (a video generated without audio).
 */
export function loopedClip(clip: Buffer, seconds: number, withAudio: boolean): Buffer {
	const top = parse(clip);
	const moov = top.find((b) => b.type === 'moov')!;
	const mvhd = child(moov, 'mvhd');
	const movieTimescale = mvhd.body.readUInt32BE(12);
	const clipSeconds = mvhd.body.readUInt32BE(16) / movieTimescale;
	const loops = Math.max(1, Math.ceil(seconds / clipSeconds - 1e-9));
	const length = Math.round(seconds * movieTimescale);
	moov.children = moov.children!.filter(
		(b) => b.type !== 'trak' || withAudio || handlerOf(b) !== 'soun',
	);
	setDuration(mvhd, 16, length);
	for (const trak of moov.children.filter((b) => b.type === 'trak')) {
		setDuration(child(trak, 'tkhd'), 20, length);
		const mdhd = child(child(trak, 'mdia'), 'mdhd');
		setDuration(mdhd, 16, mdhd.body.readUInt32BE(16) * loops);
		const elst = child(child(trak, 'edts'), 'elst');
		setDuration(elst, 8, length);
	}
	const originalMoovSize = moov.body.length + 8;
	const stbls = moov.children
		.filter((b) => b.type === 'trak')
		.map((t) => child(child(child(t, 'mdia'), 'minf'), 'stbl'));
	const originals = stbls.map((s) => s.children!.map((c) => ({ ...c })));
	// mdat follows moov, so every chunk offset moves by what moov grew; the offsets' values do not
	// change moov's size, so loop once to measure it, then again with the shift
	stbls.forEach((s) => loopSampleTables(s, loops, 0));
	const shift = encode([moov]).length - originalMoovSize;
	stbls.forEach((s, i) => {
		s.children = originals[i];
		loopSampleTables(s, loops, shift);
	});
	return encode(top);
}
