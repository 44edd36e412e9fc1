import type { AxiosInstance } from 'axios';

import { playingSeconds } from '../../sandbox/media-length';
import type { Sandbox } from '../../sandbox/server';
import { mediaDurationSeconds } from '../../src/media/duration';
import { idem, openSandbox, PNG_SIGNATURE, waitForRun } from './helpers';

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
	expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
	expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
	return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Seconds of back-to-back MPEG-2 Layer III frames (8 kbit/s, 16 kHz: 36 bytes, 576 samples each) after a 10-byte ID3 header. */
function mp3Seconds(bytes: Buffer): number {
	expect(bytes.subarray(0, 3).toString('latin1')).toBe('ID3');
	expect([...bytes.subarray(10, 14)]).toEqual([0xff, 0xf3, 0x18, 0xc4]);
	return (((bytes.length - 10) / 36) * 576) / 16000;
}

/**
 * Issue 14, item 12: the playground's outputs have the asked shape, so a user sees the parameters
 * arrive. Lengths are measured twice: by the package's reader (src/media/duration) and the sandbox's.
 */
describe('sandbox outputs have the requested shape', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 20 }));
	});
	afterAll(() => sandbox.close());

	async function filesOf(path: string, body: Record<string, unknown>): Promise<{ output: Record<string, unknown>; files: Buffer[] }> {
		const submit = await http.post(path, body, idem());
		expect({ status: submit.status, problem: submit.status === 202 ? undefined : submit.data }).toEqual({ status: 202, problem: undefined });
		const run = await waitForRun(http, submit.data.id);
		expect(run.status).toBe('completed');
		const output = run.output as { output_url: string; images?: Array<{ url: string }> };
		const urls = output.images?.map((i) => i.url) ?? [output.output_url];
		const files = await Promise.all(urls.map(async (url) => Buffer.from(await (await fetch(url)).arrayBuffer())));
		for (const file of files) expect(file.length).toBeLessThan(300_000);
		return { output, files };
	}

	const secondsOf = async (file: Buffer) => [await mediaDurationSeconds(file), playingSeconds(file)];

	it.each([
		['image.aurora-2', '16:9', 16 / 9],
		['image.aurora-2', '9:16', 9 / 16],
		['image.aurora-2', '21:9', 21 / 9],
		['image.aurora-2', '4:3', 4 / 3],
		['image.lumen-xl', '3:2', 3 / 2],
		['image.lumen-xl', 'auto', 1],
	])('%s at %s gives PNGs of exactly that ratio with a short side near 64 px', async (model, ratio, value) => {
		const { files } = await filesOf('/images/generations', { prompt: 'a kite', model, aspect_ratio: ratio, count: 2 });
		expect(files).toHaveLength(2);
		for (const file of files) {
			const { width, height } = pngSize(file);
			expect(width / height).toBeCloseTo(value, 10);
			expect(Math.min(width, height)).toBeGreaterThanOrEqual(56);
			expect(Math.min(width, height)).toBeLessThanOrEqual(72);
		}
	});

	it('gives `count` images', async () => {
		expect((await filesOf('/images/generations', { prompt: 'a kite', count: 3 })).files).toHaveLength(3);
	});

	it.each([
		['video.motion-2', 10],
		['video.cine-pro', 8],
		['video.motion-2', 5],
	])('%s makes an MP4 of the asked duration (%i s)', async (model, duration) => {
		const { output, files } = await filesOf('/videos/generations', { prompt: 'a wave', model, duration });
		expect(await secondsOf(files[0])).toEqual([duration, duration]);
		expect(output.duration_seconds).toBe(duration);
	});

	it('keeps sound in a video only when generate_audio was asked', async () => {
		const tracks = (file: Buffer) => (file.toString('latin1').match(/hdlr[\s\S]{8}(vide|soun)/g) ?? []).map((m) => m.slice(-4)).sort();
		const silent = (await filesOf('/videos/generations', { prompt: 'a wave', duration: 5 })).files[0];
		const loud = (await filesOf('/videos/generations', { prompt: 'a wave', duration: 5, generate_audio: true })).files[0];
		expect(tracks(silent)).toEqual(['vide']);
		expect(tracks(loud)).toEqual(['soun', 'vide']);
	});

	it('makes sound effects as WAV of the asked duration_seconds, and 5 s when the model decides', async () => {
		expect(await secondsOf((await filesOf('/audio/sfx', { prompt: 'rain', duration_seconds: 7 })).files[0])).toEqual([7, 7]);
		expect(await secondsOf((await filesOf('/audio/sfx', { prompt: 'rain' })).files[0])).toEqual([5, 5]);
	});

	it('makes music as MP3 of the asked duration_seconds', async () => {
		expect(mp3Seconds((await filesOf('/audio/music', { prompt: 'lo-fi', duration_seconds: 20 })).files[0])).toBeCloseTo(20, 1);
	});

	it('makes speech as long as its text takes to say (about 15 characters a second)', async () => {
		const short = mp3Seconds((await filesOf('/audio/speech', { text: 'x'.repeat(30) })).files[0]);
		const long = mp3Seconds((await filesOf('/audio/speech', { text: 'x'.repeat(150) })).files[0]);
		expect(short).toBeCloseTo(2, 1);
		expect(long).toBeCloseTo(10, 1);
	});

	it('makes producer videos real MP4s of their duration_seconds', async () => {
		const { files } = await filesOf('/explainers/generations', { prompt: 'how tides work', duration_seconds: 12 });
		expect(await secondsOf(files[0])).toEqual([12, 12]);
	});
});
