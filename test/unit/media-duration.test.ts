import { mediaDurationSeconds } from '../../src/media/duration';
import { makeMp3, makeWav, mp4Clip } from '../../sandbox/media-files';
import { makePng } from '../../sandbox/png';

describe('mediaDurationSeconds', () => {
	it('reads an MP4 from its mvhd box (the 1 s fixture)', () => {
		expect(mediaDurationSeconds(mp4Clip())).toBeCloseTo(1, 1);
	});

	it('reads a WAV from its data size and byte rate', () => {
		expect(mediaDurationSeconds(makeWav(2.5, 1, 8000))).toBeCloseTo(2.5, 3);
	});

	it('answers undefined where the header does not tell cheaply (MP3, PNG, truncated MP4)', () => {
		expect(mediaDurationSeconds(makeMp3(1))).toBeUndefined();
		expect(mediaDurationSeconds(makePng(4, 4, 1))).toBeUndefined();
		expect(mediaDurationSeconds(mp4Clip().subarray(0, 40))).toBeUndefined();
	});
});
