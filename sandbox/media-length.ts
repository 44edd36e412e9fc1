/**
 * How long a stored media file plays, as the service measures uploads to check `limits` such as
 * `max_duration_seconds` or `source_video_max_seconds`: MP4/MOV from the movie header (`moov/mvhd`),
 * WAV from its PCM format and the size of its sample data. Other files are not measured (undefined).
 */
export function playingSeconds(bytes: Buffer): number | undefined {
	if (isWave(bytes)) return waveSeconds(bytes);
	if (bytes.length >= 8 && bytes.subarray(4, 8).toString('ascii') === 'ftyp') return movieSeconds(bytes);
	return undefined;
}

function isWave(bytes: Buffer): boolean {
	return bytes.length >= 12 && bytes.subarray(0, 4).toString('ascii') === 'RIFF' && bytes.subarray(8, 12).toString('ascii') === 'WAVE';
}

/** Samples in the data chunk divided by the sample rate, both read from the chunks themselves. */
function waveSeconds(bytes: Buffer): number | undefined {
	const chunks = new Map<string, Buffer>();
	let offset = 12;
	while (offset + 8 <= bytes.length) {
		const id = bytes.subarray(offset, offset + 4).toString('ascii');
		const declared = bytes.readUInt32LE(offset + 4);
		const body = bytes.subarray(offset + 8, Math.min(bytes.length, offset + 8 + declared));
		if (!chunks.has(id)) chunks.set(id, body);
		offset += 8 + declared + (declared & 1);
	}
	const format = chunks.get('fmt ');
	const data = chunks.get('data');
	if (!format || format.length < 16 || !data) return undefined;
	const channels = format.readUInt16LE(2);
	const sampleRate = format.readUInt32LE(4);
	const bitsPerSample = format.readUInt16LE(14);
	const frameBytes = channels * Math.ceil(bitsPerSample / 8);
	if (!sampleRate || !frameBytes) return undefined;
	return Math.floor(data.length / frameBytes) / sampleRate;
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

/** Duration / timescale of the movie header; version 1 headers carry 64-bit times. */
function movieSeconds(bytes: Buffer): number | undefined {
	const movie = boxesIn(bytes).find((b) => b.type === 'moov');
	const header = movie && boxesIn(movie.body).find((b) => b.type === 'mvhd');
	if (!header) return undefined;
	const { body } = header;
	const longTimes = body[0] === 1;
	const timescaleAt = longTimes ? 20 : 12;
	if (body.length < timescaleAt + (longTimes ? 12 : 8)) return undefined;
	const timescale = body.readUInt32BE(timescaleAt);
	const duration = longTimes ? Number(body.readBigUInt64BE(timescaleAt + 4)) : body.readUInt32BE(timescaleAt + 4);
	return timescale ? duration / timescale : undefined;
}
