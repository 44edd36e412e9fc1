/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
	headers: IncomingHttpHeaders;
	rawBody: Buffer;
	body: Record<string, unknown>;
}

export interface Receiver {
	url: string;
	received: Received[];
	/** statuses answered to the next requests, in order; afterwards 200 */
	answers: number[];
	waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
	close(): Promise<void>;
}

/** A plain HTTP endpoint on 127.0.0.1 that records what webhook deliveries send it. */
export async function startReceiver(answers: number[] = []): Promise<Receiver> {
	const received: Received[] = [];
	const queue = [...answers];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const rawBody = Buffer.concat(chunks);
			received.push({
				headers: req.headers,
				rawBody,
				body: JSON.parse(rawBody.toString('utf8') || '{}'),
			});
			const status = receiver.answers.length ? receiver.answers.shift()! : 200;
			res
				.writeHead(status, { 'Content-Type': 'text/plain' })
				.end(status < 300 ? 'ok' : `refused with ${status}`);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const receiver: Receiver = {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
		received,
		answers: queue,
		async waitFor(count, timeoutMs = 10_000) {
			const end = Date.now() + timeoutMs;
			while (received.length < count) {
				if (Date.now() > end)
					throw new Error(`expected ${count} deliveries, got ${received.length}`);
				await new Promise((r) => setTimeout(r, 20));
			}
			return received;
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
	return receiver;
}
