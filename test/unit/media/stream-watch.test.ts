/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { PassThrough, Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

// what n8n's binary storage in database mode (queue mode's default) reads a stream with: a 'data' listener
import { binaryToBuffer } from '@n8n/backend-network';

import { peekHead, watchBytes } from '../../../src/media/stream-watch';

const bytes = Buffer.from(Array.from({ length: 100 }, (_, i) => i));

/** A stream that yields `data` in pieces of `size` bytes, one per tick. */
function trickle(data: Buffer, size: number): Readable {
	const stream = new PassThrough();
	let at = 0;
	const next = () => {
		if (at >= data.length) return void stream.end();
		stream.write(data.subarray(at, (at += size)));
		setImmediate(next);
	};
	setImmediate(next);
	return stream;
}

async function readAll(stream: Readable): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

describe('peekHead', () => {
	it('gathers the head across small chunks and gives every byte back to the next reader, in order', async () => {
		const stream = trickle(bytes, 3);
		const { head, ended } = await peekHead(stream, 16);
		expect(ended).toBe(false);
		expect(head.length).toBeGreaterThanOrEqual(16);
		expect(head.equals(bytes.subarray(0, head.length))).toBe(true);
		expect((await readAll(stream)).equals(bytes)).toBe(true);
	});

	it('returns a stream shorter than the head whole, as ended', async () => {
		const { head, ended } = await peekHead(trickle(bytes.subarray(0, 5), 2), 16);
		expect(ended).toBe(true);
		expect(head.equals(bytes.subarray(0, 5))).toBe(true);
	});

	it('gives back a head that arrived with the end in one chunk (no end is emitted before the reader comes)', async () => {
		const stream = Readable.from([bytes]);
		const { head, ended } = await peekHead(stream, 16);
		expect(ended).toBe(false);
		expect(head.equals(bytes)).toBe(true);
		expect((await readAll(stream)).equals(bytes)).toBe(true);
	});

	it("leaves the stream for a reader that only listens for 'data' (n8n's database binary mode): every byte arrives", async () => {
		const stream = trickle(bytes, 3);
		await peekHead(stream, 16);
		expect((await binaryToBuffer(stream)).equals(bytes)).toBe(true);
		const whole = Readable.from([bytes]);
		await peekHead(whole, 16);
		expect((await binaryToBuffer(whole)).equals(bytes)).toBe(true);
	});

	it('rejects for a stream that fails or was already destroyed', async () => {
		const failing = new PassThrough();
		setImmediate(() => failing.destroy(new Error('connection reset')));
		await expect(peekHead(failing, 16)).rejects.toThrow('connection reset');
		const gone = new PassThrough();
		gone.on('error', () => undefined);
		gone.destroy(new Error('gone'));
		await expect(peekHead(gone, 16)).rejects.toThrow('gone');
	});
});

describe('watchBytes', () => {
	it('counts what an async-iterating reader reads (as n8n writes a file) and lets it through up to the limit', async () => {
		const stream = trickle(bytes, 7);
		await peekHead(stream, 16);
		let tooMany = false;
		watchBytes(stream, 100, () => (tooMany = true));
		expect((await readAll(stream)).equals(bytes)).toBe(true);
		expect(tooMany).toBe(false);
	});

	it('destroys the stream once a piping reader passes the limit', async () => {
		const stream = trickle(bytes, 7);
		await peekHead(stream, 16);
		let tooMany = false;
		watchBytes(stream, 50, () => (tooMany = true));
		let received = 0;
		const sink = new Writable({
			write: (chunk: Buffer, _e, done) => ((received += chunk.length), done()),
		});
		await expect(pipeline(stream, sink)).rejects.toThrow('more than 50 bytes');
		expect(tooMany).toBe(true);
		// the chunk that crossed the limit may reach the reader; the write then fails as a whole
		expect(received).toBeLessThan(50 + 7);
	});

	it("lets every byte through to a reader that only listens for 'data', and stops it past the limit", async () => {
		const small = trickle(bytes, 7);
		await peekHead(small, 16);
		let tooMany = false;
		watchBytes(small, 100, () => (tooMany = true));
		expect((await binaryToBuffer(small)).equals(bytes)).toBe(true);
		expect(tooMany).toBe(false);

		const large = trickle(bytes, 7);
		await peekHead(large, 16);
		watchBytes(large, 50, () => (tooMany = true));
		await expect(binaryToBuffer(large)).rejects.toThrow('more than 50 bytes');
		expect(tooMany).toBe(true);
	});

	it('counts the bytes the stream already holds: a head larger than the limit is caught at the next arrival', async () => {
		const stream = trickle(bytes, 40);
		const { head } = await peekHead(stream, 16);
		expect(head.length).toBe(40);
		let tooMany = false;
		watchBytes(stream, 60, () => (tooMany = true));
		await expect(readAll(stream)).rejects.toThrow('more than 60 bytes');
		expect(tooMany).toBe(true);
	});

	it('does not start the flow by itself: bytes wait for the reader', async () => {
		const stream = trickle(bytes, 7);
		await peekHead(stream, 16);
		watchBytes(stream, 1000, () => undefined);
		await new Promise((r) => setTimeout(r, 50));
		expect((await readAll(stream)).equals(bytes)).toBe(true);
	});
});
