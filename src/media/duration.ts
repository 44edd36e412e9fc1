/**
 * Length in seconds of a media file, read from its header where that is cheap: MP4/MOV (the `mvhd`
 * box of `moov`) and WAV (data size / byte rate). Undefined for anything else: the node then does not
 * check a duration limit (the service still does).
 */
export function mediaDurationSeconds(bytes: Buffer): number | undefined {
	if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WAVE') return wavSeconds(bytes);
	if (bytes.length >= 8 && bytes.toString('latin1', 4, 8) === 'ftyp') return mp4Seconds(bytes);
	return undefined;
}

function wavSeconds(bytes: Buffer): number | undefined {
	let byteRate: number | undefined;
	for (let at = 12; at + 8 <= bytes.length; ) {
		const id = bytes.toString('latin1', at, at + 4);
		const size = bytes.readUInt32LE(at + 4);
		if (id === 'fmt ' && at + 20 <= bytes.length) byteRate = bytes.readUInt32LE(at + 16);
		if (id === 'data') return byteRate ? size / byteRate : undefined;
		at += 8 + size + (size % 2);
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

function mp4Seconds(bytes: Buffer): number | undefined {
	for (const [type, start, end] of boxes(bytes, 0, bytes.length)) {
		if (type !== 'moov') continue;
		for (const [inner, body] of boxes(bytes, start, end)) {
			if (inner !== 'mvhd') continue;
			const version = bytes[body];
			const timescale = version === 1 ? bytes.readUInt32BE(body + 20) : bytes.readUInt32BE(body + 12);
			const duration = version === 1 ? Number(bytes.readBigUInt64BE(body + 24)) : bytes.readUInt32BE(body + 16);
			return timescale ? duration / timescale : undefined;
		}
	}
	return undefined;
}
