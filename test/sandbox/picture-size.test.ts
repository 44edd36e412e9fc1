import { makeMp3 } from '../../sandbox/media-files';
import { mp3Seconds, playingSeconds } from '../../sandbox/media-length';
import { pictureSize } from '../../sandbox/picture-size';
import { makePng } from '../../sandbox/png';

/** A RIFF/WEBP file's first 30 bytes: the chunk header, then the size fields of that chunk kind. */
function webp(kind: 'VP8X' | 'VP8L' | 'VP8 ', width: number, height: number): Buffer {
	const head = Buffer.alloc(30);
	head.write('RIFF', 0, 'latin1');
	head.write('WEBP', 8, 'latin1');
	head.write(kind, 12, 'latin1');
	if (kind === 'VP8X') {
		head.writeUIntLE(width - 1, 24, 3);
		head.writeUIntLE(height - 1, 27, 3);
	} else if (kind === 'VP8L') {
		head[20] = 0x2f;
		head.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 21);
	} else {
		head.writeUInt16LE(width, 26);
		head.writeUInt16LE(height, 28);
	}
	return head;
}

/** SOI, a comment segment, a fill byte, then a progressive frame header (SOF2). */
function jpeg(width: number, height: number): Buffer {
	const comment = Buffer.from([0xff, 0xfe, 0x00, 0x07, ...Buffer.from('hello', 'latin1')]);
	const frame = Buffer.from([
		0xff,
		0xff,
		0xc2,
		0x00,
		0x0b,
		8,
		height >> 8,
		height & 0xff,
		width >> 8,
		width & 0xff,
		1,
		1,
		0x11,
		0,
	]);
	return Buffer.concat([Buffer.from([0xff, 0xd8]), comment, frame]);
}

describe('the sandbox reads the size of stored pictures (outputs shaped like their input)', () => {
	it.each([
		['PNG', makePng(30, 20, 1), { width: 30, height: 20 }],
		[
			'GIF',
			Buffer.from([...Buffer.from('GIF89a', 'latin1'), 0x40, 0x01, 0xf0, 0x00, 0, 0, 0]),
			{ width: 320, height: 240 },
		],
		['WebP (extended)', webp('VP8X', 1920, 1080), { width: 1920, height: 1080 }],
		['WebP (lossless)', webp('VP8L', 800, 600), { width: 800, height: 600 }],
		['WebP (lossy)', webp('VP8 ', 640, 480), { width: 640, height: 480 }],
		['JPEG', jpeg(1080, 1350), { width: 1080, height: 1350 }],
	])('%s', (_kind, file, size) => {
		expect(pictureSize(file)).toEqual(size);
	});

	it('gives no size for what is no picture, or a JPEG without a frame header', () => {
		expect(pictureSize(Buffer.from('not a picture'))).toBeUndefined();
		expect(pictureSize(jpeg(10, 10).subarray(0, 11))).toBeUndefined();
		expect(pictureSize(makeMp3(1))).toBeUndefined();
	});
});

describe('the sandbox measures MP3 inputs (outputs as long as their input)', () => {
	it('sums the frames after an ID3 tag: the sandbox’s own speech files', () => {
		expect(mp3Seconds(makeMp3(7))).toBeCloseTo(7, 1);
	});

	it('reads MPEG-1 Layer III frames with and without padding (128 kbit/s, 44.1 kHz: 417 or 418 bytes, 1152 samples)', () => {
		const frame = (padded: boolean) =>
			Buffer.concat([
				Buffer.from([0xff, 0xfb, padded ? 0x92 : 0x90, 0x64]),
				Buffer.alloc(padded ? 414 : 413),
			]);
		const file = Buffer.concat(Array.from({ length: 100 }, (_, i) => frame(i % 3 === 0)));
		expect(mp3Seconds(file)).toBeCloseTo((100 * 1152) / 44100, 3);
	});

	it('is not MPEG audio for other files; the limit checks still measure MP4 and WAV only', () => {
		expect(mp3Seconds(makePng(8, 8, 1))).toBeUndefined();
		expect(playingSeconds(makeMp3(7))).toBeUndefined();
	});
});
