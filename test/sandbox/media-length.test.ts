import { playingSeconds } from '../../sandbox/media-length';

function chunk(id: string, body: Buffer): Buffer {
	const head = Buffer.alloc(8);
	head.write(id, 0, 'ascii');
	head.writeUInt32LE(body.length, 4);
	return Buffer.concat([head, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

/** A WAV written by hand: fmt fields, then `dataBytes` of samples, with a LIST chunk of odd size first. */
function wav(channels: number, sampleRate: number, bits: number, dataBytes: number): Buffer {
	const fmt = Buffer.alloc(16);
	fmt.writeUInt16LE(1, 0);
	fmt.writeUInt16LE(channels, 2);
	fmt.writeUInt32LE(sampleRate, 4);
	fmt.writeUInt32LE((sampleRate * channels * bits) / 8, 8);
	fmt.writeUInt16LE((channels * bits) / 8, 12);
	fmt.writeUInt16LE(bits, 14);
	const body = Buffer.concat([
		Buffer.from('WAVE'),
		chunk('LIST', Buffer.from('INFOabc')),
		chunk('fmt ', fmt),
		chunk('data', Buffer.alloc(dataBytes)),
	]);
	const riff = Buffer.alloc(8);
	riff.write('RIFF', 0, 'ascii');
	riff.writeUInt32LE(body.length, 4);
	return Buffer.concat([riff, body]);
}

function box(type: string, body: Buffer): Buffer {
	const head = Buffer.alloc(8);
	head.writeUInt32BE(8 + body.length);
	head.write(type, 4, 'latin1');
	return Buffer.concat([head, body]);
}

/** ftyp, free, moov with an mvhd of the given version, then mdat. */
function movie(version: 0 | 1, timescale: number, duration: number): Buffer {
	const mvhd = Buffer.alloc(version === 1 ? 112 : 100);
	mvhd[0] = version;
	if (version === 1) {
		mvhd.writeUInt32BE(timescale, 20);
		mvhd.writeBigUInt64BE(BigInt(duration), 24);
	} else {
		mvhd.writeUInt32BE(timescale, 12);
		mvhd.writeUInt32BE(duration, 16);
	}
	return Buffer.concat([
		box('ftyp', Buffer.from('isom\0\0\0\0isom')),
		box('free', Buffer.alloc(4)),
		box('moov', Buffer.concat([box('udta', Buffer.alloc(6)), box('mvhd', mvhd)])),
		box('mdat', Buffer.alloc(10)),
	]);
}

describe('the sandbox measures stored media (file limits)', () => {
	it.each([
		['mono 16-bit 8 kHz', 1, 8000, 16, 32000, 2],
		['stereo 16-bit 8 kHz', 2, 8000, 16, 32000, 1],
		['stereo 24-bit 48 kHz', 2, 48000, 24, 288000, 1],
		['mono 8-bit 2 kHz', 1, 2000, 8, 5000, 2.5],
	])('WAV %s', (_what, channels, rate, bits, bytes, seconds) => {
		expect(playingSeconds(wav(channels, rate, bits, bytes))).toBeCloseTo(seconds, 6);
	});

	it('MP4/MOV from the movie header, version 0 and version 1 (64-bit times)', () => {
		expect(playingSeconds(movie(0, 1000, 12500))).toBe(12.5);
		expect(playingSeconds(movie(1, 600, 3000))).toBe(5);
		expect(playingSeconds(movie(1, 90000, 2 ** 33))).toBeCloseTo(2 ** 33 / 90000, 6);
	});

	it('does not measure what it cannot read', () => {
		expect(playingSeconds(Buffer.from('not media at all'))).toBeUndefined();
		expect(playingSeconds(movie(0, 1000, 5000).subarray(0, 40))).toBeUndefined();
		expect(playingSeconds(movie(0, 0, 5000))).toBeUndefined();
		expect(playingSeconds(wav(1, 8000, 16, 100).subarray(0, 30))).toBeUndefined();
	});
});
