import { mediaDurationSeconds } from '../../../src/media/duration';
import { makeMp3, makeWav, mp4Clip } from '../../../sandbox/media-files';
import { makePng } from '../../../sandbox/png';

const MB = 1024 * 1024;

/** The top-level boxes of an MP4, as [type, whole box]. */
function topBoxes(file: Buffer): Array<[string, Buffer]> {
	const found: Array<[string, Buffer]> = [];
	for (let at = 0; at + 8 <= file.length; ) {
		const size = file.readUInt32BE(at);
		found.push([file.toString('latin1', at + 4, at + 8), file.subarray(at, at + size)]);
		at += size;
	}
	return found;
}

/** A stream of `parts` (buffers, or a count of zero bytes sent in 1 MB chunks), counting the chunks taken. */
function streamOf(parts: Array<Buffer | number>): {
	stream: AsyncIterable<Buffer>;
	taken: () => number;
	closed: () => boolean;
} {
	let taken = 0;
	let closed = false;
	async function* chunks() {
		try {
			for (const part of parts) {
				if (Buffer.isBuffer(part)) {
					taken++;
					yield part;
					continue;
				}
				for (let left = part; left > 0; left -= MB) {
					taken++;
					yield Buffer.alloc(Math.min(MB, left));
				}
			}
		} finally {
			closed = true;
		}
	}
	return { stream: chunks(), taken: () => taken, closed: () => closed };
}

describe('mediaDurationSeconds', () => {
	it('reads an MP4 from its mvhd box (the 1 s fixture)', async () => {
		expect(await mediaDurationSeconds(mp4Clip())).toBeCloseTo(1, 1);
	});

	it('reads a WAV from its data size and byte rate', async () => {
		expect(await mediaDurationSeconds(makeWav(2.5, 1, 8000))).toBeCloseTo(2.5, 3);
	});

	it('answers undefined where the header does not tell cheaply (MP3, PNG, truncated MP4)', async () => {
		expect(await mediaDurationSeconds(makeMp3(1))).toBeUndefined();
		expect(await mediaDurationSeconds(makePng(4, 4, 1))).toBeUndefined();
		expect(await mediaDurationSeconds(mp4Clip().subarray(0, 40))).toBeUndefined();
	});

	it('reads a streamed WAV only up to its data chunk header, then closes the stream', async () => {
		const wav = makeWav(1, 1, 8000);
		const { stream, taken, closed } = streamOf([wav.subarray(0, 44), 200 * MB]);
		expect(await mediaDurationSeconds(stream)).toBeCloseTo(1, 3);
		expect(taken()).toBe(1);
		expect(closed()).toBe(true);
	});

	it('passes over the sample data of an MP4 whose moov comes last, and stops after a moov that comes first', async () => {
		const boxes = topBoxes(mp4Clip());
		const box = (type: string) => boxes.find(([t]) => t === type)![1];
		const mdatHeader = Buffer.alloc(8);
		mdatHeader.writeUInt32BE(8 + 64 * MB, 0);
		mdatHeader.write('mdat', 4, 'latin1');

		const moovLast = streamOf([box('ftyp'), mdatHeader, 64 * MB, box('moov')]);
		expect(await mediaDurationSeconds(moovLast.stream)).toBeCloseTo(1, 1);
		expect(moovLast.taken()).toBe(2 + 64 + 1);

		const moovFirst = streamOf([box('ftyp'), box('moov'), mdatHeader, 64 * MB]);
		expect(await mediaDurationSeconds(moovFirst.stream)).toBeCloseTo(1, 1);
		expect(moovFirst.taken()).toBe(2);
		expect(moovFirst.closed()).toBe(true);
	});
});
