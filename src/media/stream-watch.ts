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
 */
export async function peekHead(stream: ByteStream, bytes: number): Promise<{ head: Buffer; ended: boolean }> {
	return await new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let length = 0;
		const stop = () => {
			stream.off('data', onData);
			stream.off('end', onEnd);
			stream.off('error', onError);
			stream.off('close', onClose);
		};
		const onData = (chunk: Buffer) => {
			chunks.push(chunk);
			length += chunk.length;
			if (length < bytes) return;
			stream.pause();
			stop();
			const head = Buffer.concat(chunks);
			// in the same tick as the pause, before the stream could emit 'end': the bytes go back in front
			stream.unshift(head);
			resolve({ head, ended: false });
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
		stream.on('data', onData);
		stream.once('end', onEnd);
		stream.once('error', onError);
		stream.once('close', onClose);
	});
}

/**
 * Counts the bytes a stream yields to its reader and destroys it once they pass `maxBytes`. Must be
 * called while the stream is paused (after `peekHead`): listening does not start the flow, the
 * reader does, and every byte it reads is counted (`read()` and the flowing mode both emit 'data').
 */
export function watchBytes(stream: ByteStream, maxBytes: number, onTooMany: () => void): void {
	let seen = 0;
	stream.on('data', (chunk: Buffer) => {
		seen += chunk.length;
		if (seen <= maxBytes) return;
		onTooMany();
		stream.destroy(new Error(`more than ${maxBytes} bytes`));
	});
}
