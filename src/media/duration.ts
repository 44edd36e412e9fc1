import { SequentialReader } from './sequential-reader';

/** A movie box larger than this is not read (a real one holds sample tables of a few MB). */
const MAX_MOVIE_BOX = 64 * 1024 * 1024;

/**
 * Length in seconds of a media file, read from its header where that is cheap: MP4/MOV (the `mvhd`
 * box of `moov`) and WAV (data size / byte rate). Undefined for anything else: the node then does not
 * check a duration limit (the service still does). Reads the file in order and keeps only headers:
 * a WAV stops after its `data` chunk header, an MP4 after its `moov` box (sample data is passed over).
 */
export async function mediaDurationSeconds(
	file: Buffer | AsyncIterable<Buffer>,
): Promise<number | undefined> {
	const reader = Buffer.isBuffer(file) ? SequentialReader.of(file) : new SequentialReader(file);
	try {
		const first = await reader.read(8);
		if (first.length === 8 && first.toString('latin1', 4, 8) === 'ftyp')
			return await mp4Seconds(reader, first);
		const wave = Buffer.concat([first, await reader.read(4)]);
		if (
			wave.length === 12 &&
			wave.toString('latin1', 0, 4) === 'RIFF' &&
			wave.toString('latin1', 8, 12) === 'WAVE'
		)
			return await wavSeconds(reader);
		return undefined;
	} finally {
		await reader.close();
	}
}

async function wavSeconds(reader: SequentialReader): Promise<number | undefined> {
	let byteRate: number | undefined;
	for (;;) {
		const header = await reader.read(8);
		if (header.length < 8) return undefined;
		const id = header.toString('latin1', 0, 4);
		const size = header.readUInt32LE(4);
		if (id === 'data') return byteRate ? size / byteRate : undefined;
		let read = 0;
		if (id === 'fmt ') {
			const format = await reader.read(Math.min(size, 12));
			read = format.length;
			if (format.length >= 12) byteRate = format.readUInt32LE(8);
		}
		const rest = size - read + (size % 2);
		if ((await reader.skip(rest)) < rest) return undefined;
	}
}

async function mp4Seconds(reader: SequentialReader, first: Buffer): Promise<number | undefined> {
	for (let header = first; header.length === 8; header = await reader.read(8)) {
		let size = header.readUInt32BE(0);
		const type = header.toString('latin1', 4, 8);
		let headerLength = 8;
		if (size === 1) {
			const large = await reader.read(8);
			if (large.length < 8) return undefined;
			size = Number(large.readBigUInt64BE(0));
			headerLength = 16;
		}
		const body = size === 0 ? Infinity : size - headerLength;
		if (body < 0) return undefined;
		if (type === 'moov') {
			if (body > MAX_MOVIE_BOX) return undefined;
			const movie = await reader.read(body === Infinity ? MAX_MOVIE_BOX : body);
			return body !== Infinity && movie.length < body ? undefined : movieSeconds(movie);
		}
		if (body === Infinity || (await reader.skip(body)) < body) return undefined;
	}
	return undefined;
}

/** The children of a box region: [type, start of content, end]. */
function* boxes(bytes: Buffer, start: number, end: number): Generator<[string, number, number]> {
	for (let at = start; at + 8 <= end; ) {
		let size = bytes.readUInt32BE(at);
		let header = 8;
		if (size === 1 && at + 16 <= end) {
			size = Number(bytes.readBigUInt64BE(at + 8));
			header = 16;
		} else if (size === 0) size = end - at;
		if (size < header || at + size > end) return;
		yield [bytes.toString('latin1', at + 4, at + 8), at + header, at + size];
		at += size;
	}
}

/** Duration / timescale of the `mvhd` box inside a `moov` body. */
function movieSeconds(movie: Buffer): number | undefined {
	for (const [inner, body, end] of boxes(movie, 0, movie.length)) {
		if (inner !== 'mvhd') continue;
		const version = movie[body];
		if (end - body < (version === 1 ? 32 : 20)) return undefined;
		const timescale = version === 1 ? movie.readUInt32BE(body + 20) : movie.readUInt32BE(body + 12);
		const duration =
			version === 1 ? Number(movie.readBigUInt64BE(body + 24)) : movie.readUInt32BE(body + 16);
		return timescale ? duration / timescale : undefined;
	}
	return undefined;
}
