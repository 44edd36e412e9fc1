import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * n8n's byte stream (node:stream's Readable), named through n8n-workflow's types: community nodes
 * may import only n8n-workflow and node:crypto, so this module works with the stream's own methods.
 */
export type ByteStream = Awaited<ReturnType<IExecuteFunctions['helpers']['getBinaryStream']>>;

/**
 * Reads the first `bytes` bytes of a stream (or all of it, if shorter) and puts them back in front,
 * so whoever reads the stream next still gets every byte. `ended`: the stream had no more, `head`
 * is then the whole content and the stream is used up.
 *
 * Reads with `read()` on 'readable', never with a 'data' listener and `pause()`: a stream paused
 * explicitly stays paused when its next reader only listens for 'data' (n8n's binary storage in
 * database mode, the default in queue mode, reads that way and would wait forever). Once the
 * 'readable' listener is gone the stream is back where it started: the next reader's first
 * listener or pipe starts it.
 */
export async function peekHead(
	stream: ByteStream,
	bytes: number,
): Promise<{ head: Buffer; ended: boolean }> {
	return await new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let length = 0;
		const stop = () => {
			stream.off('readable', onReadable);
			stream.off('end', onEnd);
			stream.off('error', onError);
			stream.off('close', onClose);
		};
		const onReadable = () => {
			for (let chunk: Buffer | null; (chunk = stream.read() as Buffer | null) !== null; ) {
				chunks.push(chunk);
				length += chunk.length;
				if (length < bytes) continue;
				stop();
				const head = Buffer.concat(chunks);
				// before the stream could emit 'end': the bytes go back in front
				stream.unshift(head);
				return resolve({ head, ended: false });
			}
		};
		const onEnd = () => {
			stop();
			resolve({ head: Buffer.concat(chunks), ended: true });
		};
		const onError = (error: Error) => {
			stop();
			reject(error);
		};
		const onClose = () => {
			stop();
			reject(stream.errored ?? new Error('The stream closed before its end'));
		};
		if (stream.destroyed) return reject(stream.errored ?? new Error('The stream was closed'));
		stream.on('readable', onReadable);
		stream.once('end', onEnd);
		stream.once('error', onError);
		stream.once('close', onClose);
	});
}

/**
 * Counts the bytes that arrive in a stream (from the bytes it holds now on) and destroys it once
 * they pass `maxBytes`, whoever reads it and however. It wraps the stream's own `push`, the one
 * door every arriving byte goes through: a 'data' listener of its own would start the flow
 * before the reader came (bytes lost), and n8n's readers differ (pipe to a file, 'data' listener,
 * async iteration). Call it after `peekHead`, before the stream is handed on.
 */
export function watchBytes(stream: ByteStream, maxBytes: number, onTooMany: () => void): void {
	let seen = stream.readableLength;
	const push = stream.push.bind(stream);
	stream.push = (chunk: unknown, encoding?: BufferEncoding) => {
		if (chunk !== null && chunk !== undefined)
			seen +=
				typeof chunk === 'string'
					? Buffer.byteLength(chunk, encoding)
					: (chunk as Uint8Array).length;
		if (seen <= maxBytes) return push(chunk, encoding);
		onTooMany();
		stream.destroy(new Error(`more than ${maxBytes} bytes`));
		return false;
	};
}
