import { bufferSource, type ByteSource } from './large-files';

/**
 * How long a stored media file plays, as the service measures uploads to check `limits` such as
 * `max_duration_seconds` or `source_video_max_seconds`: MP4/MOV from the movie header (`moov/mvhd`),
 * WAV from its PCM format and the size of its sample data. Other files are not measured (undefined).
 * Only the headers are read, so a file kept on disk is measured without loading it.
 */
export function playingSeconds(file: Buffer | ByteSource): number | undefined {
	const source = Buffer.isBuffer(file) ? bufferSource(file) : file;
	if (isWave(source)) return waveSeconds(source);
	if (source.size >= 8 && source.read(4, 4).toString('ascii') === 'ftyp') return movieSeconds(source);
	return undefined;
}

function isWave(source: ByteSource): boolean {
	return source.size >= 12 && source.read(0, 4).toString('ascii') === 'RIFF' && source.read(8, 4).toString('ascii') === 'WAVE';
}

/** Samples in the data chunk divided by the sample rate, both read from the chunks themselves. */
function waveSeconds(source: ByteSource): number | undefined {
	let format: Buffer | undefined;
	let dataLength: number | undefined;
	let offset = 12;
	while (offset + 8 <= source.size) {
		const header = source.read(offset, 8);
		const id = header.subarray(0, 4).toString('ascii');
		const declared = header.readUInt32LE(4);
		const available = Math.min(declared, source.size - offset - 8);
		if (id === 'fmt ' && !format) format = source.read(offset + 8, Math.min(available, 64));
		if (id === 'data' && dataLength === undefined) dataLength = available;
		offset += 8 + declared + (declared & 1);
	}
	if (!format || format.length < 16 || dataLength === undefined) return undefined;
	const channels = format.readUInt16LE(2);
	const sampleRate = format.readUInt32LE(4);
	const bitsPerSample = format.readUInt16LE(14);
	const frameBytes = channels * Math.ceil(bitsPerSample / 8);
	if (!sampleRate || !frameBytes) return undefined;
	return Math.floor(dataLength / frameBytes) / sampleRate;
}

interface Box {
	type: string;
	body: Buffer;
}

/** The boxes laid side by side in `region` (ISO base media file format). */
function boxesIn(region: Buffer): Box[] {
	const found: Box[] = [];
	let offset = 0;
	while (offset + 8 <= region.length) {
		const size32 = region.readUInt32BE(offset);
		const type = region.subarray(offset + 4, offset + 8).toString('latin1');
		let headerLength = 8;
		let size = size32;
		if (size32 === 1) {
			if (offset + 16 > region.length) break;
			size = Number(region.readBigUInt64BE(offset + 8));
			headerLength = 16;
		} else if (size32 === 0) {
			size = region.length - offset;
		}
		if (size < headerLength || offset + size > region.length) break;
		found.push({ type, body: region.subarray(offset + headerLength, offset + size) });
		offset += size;
	}
	return found;
}

/** A movie box larger than this is not read (a real one holds sample tables of a few MB at most). */
const MAX_MOVIE_BOX = 64 * 1024 * 1024;

/** The body of the top-level `moov` box, found by reading only the top-level box headers. */
function movieBox(source: ByteSource): Buffer | undefined {
	let offset = 0;
	while (offset + 8 <= source.size) {
		const header = source.read(offset, 16);
		const size32 = header.readUInt32BE(0);
		const type = header.subarray(4, 8).toString('latin1');
		let headerLength = 8;
		let size = size32;
		if (size32 === 1) {
			if (header.length < 16) return undefined;
			size = Number(header.readBigUInt64BE(8));
			headerLength = 16;
		} else if (size32 === 0) {
			size = source.size - offset;
		}
		if (size < headerLength || offset + size > source.size) return undefined;
		if (type === 'moov') return size - headerLength <= MAX_MOVIE_BOX ? source.read(offset + headerLength, size - headerLength) : undefined;
		offset += size;
	}
	return undefined;
}

/** Duration / timescale of the movie header; version 1 headers carry 64-bit times. */
function movieSeconds(source: ByteSource): number | undefined {
	const movie = movieBox(source);
	const header = movie && boxesIn(movie).find((b) => b.type === 'mvhd');
	if (!header) return undefined;
	const { body } = header;
	const longTimes = body[0] === 1;
	const timescaleAt = longTimes ? 20 : 12;
	if (body.length < timescaleAt + (longTimes ? 12 : 8)) return undefined;
	const timescale = body.readUInt32BE(timescaleAt);
	const duration = longTimes ? Number(body.readBigUInt64BE(timescaleAt + 4)) : body.readUInt32BE(timescaleAt + 4);
	return timescale ? duration / timescale : undefined;
}
