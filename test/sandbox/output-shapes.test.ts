import type { AxiosInstance } from 'axios';

import { makeMp3, makeWav } from '../../sandbox/media-files';
import { playingSeconds } from '../../sandbox/media-length';
import { makePng } from '../../sandbox/png';
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

	async function filesOf(
		path: string,
		body: Record<string, unknown>,
	): Promise<{ output: Record<string, unknown>; files: Buffer[] }> {
		const submit = await http.post(path, body, idem());
		expect({
			status: submit.status,
			problem: submit.status === 202 ? undefined : submit.data,
		}).toEqual({ status: 202, problem: undefined });
		const run = await waitForRun(http, submit.data.id);
		expect(run.status).toBe('completed');
		const output = run.output as { output_url: string; images?: Array<{ url: string }> };
		const urls = output.images?.map((i) => i.url) ?? [output.output_url];
		const files = await Promise.all(
			urls.map(async (url) => Buffer.from(await (await fetch(url)).arrayBuffer())),
		);
		for (const file of files) expect(file.length).toBeLessThan(300_000);
		return { output, files };
	}

	const secondsOf = async (file: Buffer) => [
		await mediaDurationSeconds(file),
		playingSeconds(file),
	];

	it.each([
		['image.aurora-2', '16:9', 16 / 9],
		['image.aurora-2', '9:16', 9 / 16],
		['image.aurora-2', '21:9', 21 / 9],
		['image.aurora-2', '4:3', 4 / 3],
		['image.lumen-xl', '3:2', 3 / 2],
		['image.lumen-xl', 'auto', 1],
	])(
		'%s at %s gives PNGs of exactly that ratio with a short side near 64 px',
		async (model, ratio, value) => {
			const { files } = await filesOf('/images/generations', {
				prompt: 'a kite',
				model,
				aspect_ratio: ratio,
				count: 2,
			});
			expect(files).toHaveLength(2);
			for (const file of files) {
				const { width, height } = pngSize(file);
				expect(width / height).toBeCloseTo(value, 10);
				expect(Math.min(width, height)).toBeGreaterThanOrEqual(56);
				expect(Math.min(width, height)).toBeLessThanOrEqual(72);
			}
		},
	);

	it('gives `count` images', async () => {
		expect(
			(await filesOf('/images/generations', { prompt: 'a kite', count: 3 })).files,
		).toHaveLength(3);
	});

	it.each([
		['video.motion-2', 10],
		['video.cine-pro', 8],
		['video.motion-2', 5],
	])('%s makes an MP4 of the asked duration (%i s)', async (model, duration) => {
		const { output, files } = await filesOf('/videos/generations', {
			prompt: 'a wave',
			model,
			duration,
		});
		expect(await secondsOf(files[0])).toEqual([duration, duration]);
		expect(output.duration_seconds).toBe(duration);
	});

	it('keeps sound in a video only when generate_audio was asked', async () => {
		const tracks = (file: Buffer) =>
			(file.toString('latin1').match(/hdlr[\s\S]{8}(vide|soun)/g) ?? [])
				.map((m) => m.slice(-4))
				.sort();
		const silent = (await filesOf('/videos/generations', { prompt: 'a wave', duration: 5 }))
			.files[0];
		const loud = (
			await filesOf('/videos/generations', { prompt: 'a wave', duration: 5, generate_audio: true })
		).files[0];
		expect(tracks(silent)).toEqual(['vide']);
		expect(tracks(loud)).toEqual(['soun', 'vide']);
	});

	it('makes sound effects as WAV of the asked duration_seconds, and 5 s when the model decides', async () => {
		expect(
			await secondsOf(
				(await filesOf('/audio/sfx', { prompt: 'rain', duration_seconds: 7 })).files[0],
			),
		).toEqual([7, 7]);
		expect(await secondsOf((await filesOf('/audio/sfx', { prompt: 'rain' })).files[0])).toEqual([
			5, 5,
		]);
	});

	it('makes music as MP3 of the asked duration_seconds', async () => {
		expect(
			mp3Seconds(
				(await filesOf('/audio/music', { prompt: 'lo-fi', duration_seconds: 20 })).files[0],
			),
		).toBeCloseTo(20, 1);
	});

	it('makes speech as long as its text takes to say (about 15 characters a second)', async () => {
		const short = mp3Seconds((await filesOf('/audio/speech', { text: 'x'.repeat(30) })).files[0]);
		const long = mp3Seconds((await filesOf('/audio/speech', { text: 'x'.repeat(150) })).files[0]);
		expect(short).toBeCloseTo(2, 1);
		expect(long).toBeCloseTo(10, 1);
	});

	/** An asset the sandbox stores, as the node's binary inputs become one (POST /uploads, then PUT). */
	async function uploaded(contentType: string, bytes: Buffer): Promise<string> {
		const upload = await http.post('/uploads', { content_type: contentType, filename: 'input' });
		const put = await fetch(upload.data.upload_url, {
			method: 'PUT',
			headers: { 'Content-Type': contentType },
			body: bytes,
		});
		expect(put.status).toBeLessThan(300);
		return upload.data.asset_url as string;
	}

	/** A JPEG's first bytes: SOI, an APP0 segment, then a baseline frame header of that size. */
	function jpegHeader(width: number, height: number): Buffer {
		const app0 = Buffer.from([
			0xff,
			0xe0,
			0x00,
			0x10,
			...Buffer.from('JFIF\0', 'latin1'),
			1,
			1,
			0,
			0,
			1,
			0,
			1,
			0,
			0,
		]);
		const frame = Buffer.from([
			0xff,
			0xc0,
			0x00,
			0x11,
			8,
			height >> 8,
			height & 0xff,
			width >> 8,
			width & 0xff,
			3,
			1,
			0x22,
			0,
			2,
			0x11,
			1,
			3,
			0x11,
			1,
		]);
		return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, frame, Buffer.from([0xff, 0xd9])]);
	}

	const ratioOf = (file: Buffer) => {
		const { width, height } = pngSize(file);
		return width / height;
	};

	it.each([
		[
			'an upscale',
			'/images/upscale',
			{ scale: 2 },
			'image_url',
			'image/png',
			makePng(320, 180, 1),
			16 / 9,
		],
		[
			'a background removal',
			'/images/background-remove',
			{},
			'image_url',
			'image/png',
			makePng(90, 120, 2),
			3 / 4,
		],
		[
			'an upscale of a JPEG',
			'/images/upscale',
			{ scale: 2 },
			'image_url',
			'image/jpeg',
			jpegHeader(1080, 1350),
			4 / 5,
		],
		[
			'an edit (ratio auto: the model decides)',
			'/images/generations',
			{ prompt: 'make it blue', model: 'image.lumen-xl', aspect_ratio: 'auto' },
			'image_urls',
			'image/png',
			makePng(300, 100, 3),
			3,
		],
	])(
		'%s of an uploaded picture keeps its aspect ratio',
		async (_case, path, body, param, contentType, picture, ratio) => {
			const asset = await uploaded(contentType, picture);
			const { files } = await filesOf(path, {
				...body,
				[param]: param === 'image_urls' ? [asset] : asset,
			});
			expect(ratioOf(files[0])).toBeCloseTo(ratio, 2);
		},
	);

	it('an upscale of an image an earlier run made keeps that image’s ratio; a URL the sandbox cannot read gives a square', async () => {
		const portrait = (
			await filesOf('/images/generations', {
				prompt: 'a tower',
				model: 'image.aurora-2',
				aspect_ratio: '9:16',
			})
		).output as { images: Array<{ url: string }> };
		expect(
			ratioOf(
				(await filesOf('/images/upscale', { image_url: portrait.images[0].url, scale: 2 }))
					.files[0],
			),
		).toBeCloseTo(9 / 16, 10);
		expect(
			ratioOf(
				(
					await filesOf('/images/upscale', {
						image_url: 'https://elsewhere.example/photo.png',
						scale: 2,
					})
				).files[0],
			),
		).toBe(1);
	});

	it.each([
		['an uploaded MP3', async () => uploaded('audio/mpeg', makeMp3(7)), 7],
		['an uploaded WAV', async () => uploaded('audio/wav', makeWav(3, 1, 2000)), 3],
		[
			'the MP3 of an earlier speech run',
			async () =>
				(await filesOf('/audio/speech', { text: 'x'.repeat(90) })).output.output_url as string,
			6,
		],
	])('lip sync to %s lasts as long as the audio', async (_case, audio, seconds) => {
		const face = await uploaded('image/png', makePng(64, 64, 4));
		const { files } = await filesOf('/lipsync/generations', {
			image_url: face,
			audio_url: await audio(),
		});
		const [measured] = await secondsOf(files[0]);
		expect(measured).toBeCloseTo(seconds, 1);
	});

	it('a video upscale lasts as long as the video an earlier run made; a final as long as its draft', async () => {
		const source = (await filesOf('/videos/generations', { prompt: 'a wave', duration: 10 })).output
			.output_url as string;
		expect(
			await secondsOf((await filesOf('/videos/upscale', { video_url: source, scale: 2 })).files[0]),
		).toEqual([10, 10]);
		const draft = await http.post(
			'/videos/generations',
			{ prompt: 'a wave', duration: 10, draft: true },
			idem(),
		);
		await waitForRun(http, draft.data.id);
		const final = await http.post(`/videos/generations/${draft.data.id}/final`, {}, idem());
		const run = (await waitForRun(http, final.data.id)) as { output: { output_url: string } };
		expect(
			await secondsOf(Buffer.from(await (await fetch(run.output.output_url)).arrayBuffer())),
		).toEqual([10, 10]);
	});

	it('makes producer videos real MP4s of their duration_seconds', async () => {
		const { files } = await filesOf('/explainers/generations', {
			prompt: 'how tides work',
			duration_seconds: 12,
		});
		expect(await secondsOf(files[0])).toEqual([12, 12]);
	});
});
