/**
 * Reads a byte stream front to back: a few bytes at a time, or skips many without keeping them.
 * Used to read a file's headers from n8n's binary storage without loading the file.
 */
export class SequentialReader {
	private readonly chunks: AsyncIterator<Buffer>;
	private pending: Buffer = Buffer.alloc(0);
	private done = false;

	constructor(source: AsyncIterable<Buffer>) {
		this.chunks = source[Symbol.asyncIterator]();
	}

	static of(bytes: Buffer): SequentialReader {
		return new SequentialReader(
			(async function* () {
				yield bytes;
			})(),
		);
	}

	/** The next `length` bytes (fewer at the end). */
	async read(length: number): Promise<Buffer> {
		const parts = [this.pending];
		let have = this.pending.length;
		while (have < length) {
			const chunk = await this.next();
			if (!chunk) break;
			parts.push(chunk);
			have += chunk.length;
		}
		const all = parts.length === 1 ? parts[0] : Buffer.concat(parts);
		const out = all.subarray(0, length);
		this.pending = all.subarray(out.length);
		return out;
	}

	/** Passes over the next `length` bytes without keeping them; returns how many there were. */
	async skip(length: number): Promise<number> {
		let skipped = Math.min(length, this.pending.length);
		this.pending = this.pending.subarray(skipped);
		while (skipped < length) {
			const chunk = await this.next();
			if (!chunk) break;
			const take = Math.min(length - skipped, chunk.length);
			this.pending = chunk.subarray(take);
			skipped += take;
		}
		return skipped;
	}

	/** Stops reading: the stream is closed. */
	async close(): Promise<void> {
		this.pending = Buffer.alloc(0);
		if (this.done) return;
		this.done = true;
		await this.chunks.return?.();
	}

	private async next(): Promise<Buffer | undefined> {
		if (this.done) return undefined;
		const next = await this.chunks.next();
		if (!next.done) return next.value;
		this.done = true;
		return undefined;
	}
}
