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
	if (source.size >= 8 && source.read(4, 4).toString('ascii') === 'ftyp')
		return movieSeconds(source);
	return undefined;
}

function isWave(source: ByteSource): boolean {
	return (
		source.size >= 12 &&
		source.read(0, 4).toString('ascii') === 'RIFF' &&
		source.read(8, 4).toString('ascii') === 'WAVE'
	);
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
		if (type === 'moov')
			return size - headerLength <= MAX_MOVIE_BOX
				? source.read(offset + headerLength, size - headerLength)
				: undefined;
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
	const duration = longTimes
		? Number(body.readBigUInt64BE(timescaleAt + 4))
		: body.readUInt32BE(timescaleAt + 4);
	return timescale ? duration / timescale : undefined;
}

/** kbit/s by bitrate index: MPEG-1 layers I, II, III, then MPEG-2/2.5 layer I and layers II/III. */
const MPEG_BITRATES: Record<string, number[]> = {
	'1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
	'1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
	'1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
	'2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
	'2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
/** Hz by sample-rate index, per MPEG version bits (3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5). */
const MPEG_SAMPLE_RATES: Record<number, number[]> = {
	3: [44100, 48000, 32000],
	2: [22050, 24000, 16000],
	0: [11025, 12000, 8000],
};

/**
 * How long an MP3 (MPEG audio) plays: its frames walked one header at a time after an ID3v2 tag,
 * samples summed over the sample rate. Undefined when the file is not MPEG audio. Kept apart from
 * playingSeconds: the limit checks measure what the package measures too (MP4, WAV); this one
 * gives outputs the length of an MP3 input.
 */
export function mp3Seconds(file: Buffer | ByteSource): number | undefined {
	const source = Buffer.isBuffer(file) ? bufferSource(file) : file;
	let offset = 0;
	const tag = source.read(0, 10);
	if (tag.length === 10 && tag.toString('latin1', 0, 3) === 'ID3')
		offset =
			10 +
			((tag[6] & 0x7f) << 21) +
			((tag[7] & 0x7f) << 14) +
			((tag[8] & 0x7f) << 7) +
			(tag[9] & 0x7f);
	let seconds = 0;
	let frames = 0;
	while (offset + 4 <= source.size) {
		const frame = mpegFrame(source.read(offset, 4));
		if (!frame) break;
		seconds += frame.samples / frame.sampleRate;
		offset += frame.bytes;
		frames++;
	}
	return frames ? Math.round(seconds * 1000) / 1000 : undefined;
}

function mpegFrame(
	header: Buffer,
): { bytes: number; samples: number; sampleRate: number } | undefined {
	if (header.length < 4 || header[0] !== 0xff || (header[1] & 0xe0) !== 0xe0) return undefined;
	const version = (header[1] >> 3) & 3;
	const layer = 4 - ((header[1] >> 1) & 3);
	const sampleRate = MPEG_SAMPLE_RATES[version]?.[(header[2] >> 2) & 3];
	if (version === 1 || layer === 4 || !sampleRate) return undefined;
	const mpeg1 = version === 3;
	const kbits = MPEG_BITRATES[mpeg1 ? `1-${layer}` : layer === 1 ? '2-1' : '2-2'][header[2] >> 4];
	if (!kbits) return undefined;
	const padding = (header[2] >> 1) & 1;
	const bitrate = kbits * 1000;
	if (layer === 1)
		return {
			bytes: (Math.floor((12 * bitrate) / sampleRate) + padding) * 4,
			samples: 384,
			sampleRate,
		};
	const samples = layer === 3 && !mpeg1 ? 576 : 1152;
	return {
		bytes: Math.floor(((samples / 8) * bitrate) / sampleRate) + padding,
		samples,
		sampleRate,
	};
}
