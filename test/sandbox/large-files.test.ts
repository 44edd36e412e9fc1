/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// Files far larger than the sandbox holds in memory: a large upload goes to a temporary file as it
// arrives (and is measured from its header there), a large video output is generated while it is sent.
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';

import axios, { type AxiosInstance } from 'axios';

import { SPILL_BYTES } from '../../sandbox/large-files';
import { playingSeconds } from '../../sandbox/media-length';
import type { Sandbox } from '../../sandbox/server';
import { monoWav } from '../helpers/media';
import { expectProblem, idem, openSandbox, waitForRun } from './helpers';

const MB = 1024 * 1024;

/** Reads a response stream through: size, sha256 and the first bytes, without keeping it. */
async function drain(
	stream: Readable,
): Promise<{ size: number; sha256: string; head: Buffer; tail: Buffer }> {
	const hash = createHash('sha256');
	let size = 0;
	let head = Buffer.alloc(0);
	let tail = Buffer.alloc(0);
	for await (const chunk of stream as AsyncIterable<Buffer>) {
		hash.update(chunk);
		size += chunk.length;
		if (head.length < 64) head = Buffer.concat([head, chunk]).subarray(0, 64);
		tail = Buffer.concat([tail, chunk]).subarray(-64);
	}
	return { size, sha256: hash.digest('hex'), head, tail };
}

describe('sandbox: large uploads and outputs', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 50 }));
	});
	afterAll(() => sandbox.close());

	it('keeps an upload above the spill size in a temporary file, serves it back byte for byte, and measures it from its header', async () => {
		const wav = monoWav(SPILL_BYTES + 12 * MB, 1000);
		const { data: upload } = await http.post('/uploads', {
			content_type: 'audio/wav',
			filename: 'long.wav',
		});
		const put = await axios.put(upload.upload_url, wav, {
			headers: { 'Content-Type': 'audio/wav' },
			maxBodyLength: Infinity,
		});
		expect(put.status).toBe(200);
		const kept = sandbox.state.uploads.get(upload.asset_id)!;
		expect(kept.bytes).toBeUndefined();
		expect(existsSync(kept.spool!.path)).toBe(true);
		expect(statSync(kept.spool!.path).size).toBe(wav.length);

		const read = await axios.get<Readable>(upload.asset_url, { responseType: 'stream' });
		expect(read.headers['content-length']).toBe(String(wav.length));
		expect((await drain(read.data)).sha256).toBe(createHash('sha256').update(wav).digest('hex'));

		// 20 MB of 1 kHz 8-bit mono plays ~20,900 s: the transcription model takes at most 7,200 s
		const refused = await http.post(
			'/audio/transcriptions',
			{ audio_url: upload.asset_url },
			idem(),
		);
		expect(expectProblem(refused, 400, 'invalid_parameter').detail).toMatch(
			/audio_url: the file plays 20\d{3}\.\d\d s, at most 7200 s/,
		);
	});

	it('removes its temporary files when it closes', async () => {
		const other = await openSandbox({ latencyMs: 50 });
		const { data: upload } = await other.http.post('/uploads', { content_type: 'audio/wav' });
		await axios.put(upload.upload_url, monoWav(SPILL_BYTES + MB, 1000), {
			headers: { 'Content-Type': 'audio/wav' },
			maxBodyLength: Infinity,
		});
		const path = other.sandbox.state.uploads.get(upload.asset_id)!.spool!.path;
		expect(existsSync(path)).toBe(true);
		await other.sandbox.close();
		expect(existsSync(path)).toBe(false);
	});

	it('keeps a small upload in memory, as before', async () => {
		const wav = monoWav(1000, 1000);
		const { data: upload } = await http.post('/uploads', { content_type: 'audio/wav' });
		await axios.put(upload.upload_url, wav, { headers: { 'Content-Type': 'audio/wav' } });
		expect(sandbox.state.uploads.get(upload.asset_id)?.bytes?.equals(wav)).toBe(true);
		expect(playingSeconds(wav)).toBe(1);
	});

	it('sends an MP4 output of videoOutputBytes: the clip, then one free box up to that size, with Content-Length and the asked duration', async () => {
		sandbox.state.options.videoOutputBytes = 24 * MB + 7;
		try {
			const submitted = await http.post(
				'/videos/generations',
				{ prompt: 'a long take', duration: 5 },
				idem(),
			);
			expect(submitted.status).toBe(202);
			const run = await waitForRun(http, submitted.data.id);
			const url = (run.output as { output_url: string }).output_url;
			const read = await axios.get<Readable>(url, { responseType: 'stream' });
			expect(read.headers['content-type']).toMatch(/^video\/mp4/);
			expect(read.headers['content-length']).toBe(String(24 * MB + 7));
			const { size, head, tail } = await drain(read.data);
			expect(size).toBe(24 * MB + 7);
			expect(head.subarray(4, 8).toString('latin1')).toBe('ftyp');
			expect(tail.equals(Buffer.alloc(64))).toBe(true);

			// what the sandbox holds is the clip alone; the rest is one free box, and the movie still plays 5 s
			const file = sandbox.state.runs.get(submitted.data.id)!.files.values().next().value!;
			expect(file.bytes.length).toBeLessThan(MB);
			expect(file.padding).toBe(24 * MB + 7 - file.bytes.length);
			const whole = Buffer.from(
				(await axios.get<ArrayBuffer>(url, { responseType: 'arraybuffer' })).data,
			);
			expect(whole.readUInt32BE(file.bytes.length)).toBe(file.padding);
			expect(whole.subarray(file.bytes.length + 4, file.bytes.length + 8).toString('latin1')).toBe(
				'free',
			);
			expect(playingSeconds(whole)).toBe(5);
		} finally {
			sandbox.state.options.videoOutputBytes = 0;
		}
	});
});
