/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import {
	createServer,
	request as httpRequest,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

import { SANDBOX_API_KEY, type SandboxOptions } from '../../sandbox/options';
import { startFixture, type Fixture } from './sandbox-fixture';

/** How the relay passes an output file on. */
export type FileMode =
	/** as the sandbox sent it */
	| 'as-is'
	/** with `Content-Type: text/html` (the bytes are still what they are) */
	| 'mislabelled'
	/** without Content-Length, in small chunks (the size shows only while streaming) */
	| 'chunked'
	/** the headers and the first 64 kB, then nothing until the client goes away */
	| 'stalled';

export interface FileRequest {
	path: string;
	/** when the request reached the relay (ms since epoch) */
	at: number;
	/** when its connection closed (ms since epoch; 0 while open) */
	closedAt: number;
	/** bytes the relay wrote to the client */
	sent: number;
	/** the client closed the connection before the relay finished */
	closedEarly: boolean;
	done: Promise<void>;
}

/**
 * A relay in front of the sandbox (the credential's Base URL points at it): API answers get the
 * relay's origin in their URLs, so output files are fetched through it too, where `mode` changes
 * how they arrive.
 */
export class FileRelay {
	mode: FileMode = 'as-is';
	/** how long the relay holds the answer of the n-th file request (0-based) before sending it */
	holdFile: (index: number) => number = () => 0;
	/** answer every PUT with a 307 to the same address at the sandbox (a client that follows resends the body) */
	redirectPuts = false;
	readonly files: FileRequest[] = [];
	/** every request that passed, with its headers */
	readonly requests: Array<{ method: string; path: string; headers: IncomingMessage['headers'] }> =
		[];
	origin = '';
	private server?: Server;

	constructor(private readonly sandboxOrigin: string) {}

	async start(): Promise<string> {
		this.server = createServer((req, res) => this.relay(req, res));
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this.origin;
	}

	async close(): Promise<void> {
		this.server?.closeAllConnections();
		await new Promise((resolve) => this.server?.close(resolve));
	}

	private relay(req: IncomingMessage, res: ServerResponse): void {
		this.requests.push({
			method: req.method ?? '',
			path: (req.url ?? '').split('?')[0],
			headers: req.headers,
		});
		if (this.redirectPuts && req.method === 'PUT') {
			req.resume();
			req.on('end', () =>
				res
					.writeHead(307, {
						location: `${this.sandboxOrigin}${req.url ?? ''}`,
						'content-length': '0',
					})
					.end(),
			);
			return;
		}
		const sandbox = new URL(this.sandboxOrigin);
		const upstream = httpRequest(
			{
				host: sandbox.hostname,
				port: sandbox.port,
				method: req.method,
				path: req.url,
				headers: { ...req.headers, host: sandbox.host },
			},
			(answer) => {
				if (req.url?.startsWith('/storage/files/')) return this.sendFile(req, res, answer);
				const chunks: Buffer[] = [];
				answer.on('data', (c: Buffer) => chunks.push(c));
				answer.on('end', () => {
					let body = Buffer.concat(chunks);
					if (String(answer.headers['content-type']).includes('json'))
						body = Buffer.from(body.toString().split(this.sandboxOrigin).join(this.origin));
					res
						.writeHead(answer.statusCode ?? 502, {
							...answer.headers,
							'content-length': String(body.length),
						})
						.end(body);
				});
			},
		);
		req.pipe(upstream);
	}

	private sendFile(req: IncomingMessage, res: ServerResponse, answer: IncomingMessage): void {
		let finished!: () => void;
		const file: FileRequest = {
			path: req.url ?? '',
			at: Date.now(),
			closedAt: 0,
			sent: 0,
			closedEarly: false,
			done: new Promise((resolve) => (finished = resolve)),
		};
		const hold = this.holdFile(this.files.length);
		this.files.push(file);
		if (hold > 0) {
			answer.pause();
			setTimeout(() => {
				this.passFile(file, res, answer, finished);
				answer.resume(); // a stream paused on purpose stays paused when a 'data' listener comes
			}, hold);
			return;
		}
		this.passFile(file, res, answer, finished);
	}

	private passFile(
		file: FileRequest,
		res: ServerResponse,
		answer: IncomingMessage,
		finished: () => void,
	): void {
		res.on('close', () => {
			file.closedEarly = !res.writableFinished;
			file.closedAt = Date.now();
			answer.destroy();
			finished();
		});
		const headers = { ...answer.headers };
		if (this.mode === 'mislabelled') headers['content-type'] = 'text/html; charset=utf-8';
		if (this.mode === 'chunked' || this.mode === 'stalled') delete headers['content-length'];
		res.writeHead(answer.statusCode ?? 502, headers);
		const write = (chunk: Buffer) => {
			file.sent += chunk.length;
			return res.write(chunk);
		};
		if (this.mode === 'stalled') {
			let held = 0;
			answer.on('data', (chunk: Buffer) => {
				if (held >= 65536) {
					answer.pause();
					return;
				}
				held += chunk.length;
				write(chunk);
			});
			return;
		}
		answer.on('data', (chunk: Buffer) => {
			const pieces = this.mode === 'chunked' ? Math.ceil(chunk.length / 4096) : 1;
			let ok = true;
			for (let i = 0; i < pieces; i++)
				ok =
					write(chunk.subarray((i * chunk.length) / pieces, ((i + 1) * chunk.length) / pieces)) &&
					ok;
			if (!ok) {
				answer.pause();
				res.once('drain', () => answer.resume());
			}
		});
		answer.on('end', () => res.end());
	}
}

/** A sandbox fixture whose API key credential goes through a relay (so output files do too). */
export async function startRelayed(
	options: Partial<SandboxOptions>,
): Promise<{ fx: Fixture; relay: FileRelay }> {
	const fx = await startFixture(options);
	const relay = new FileRelay(fx.sandbox.origin);
	fx.credentials.set('mediaGenApi', {
		baseUrl: `${await relay.start()}/v1`,
		apiKey: SANDBOX_API_KEY,
	});
	return { fx, relay };
}
