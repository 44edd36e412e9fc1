/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// No Authorization header ever reaches another origin: the API's redirects are refused, output files
// are fetched without credentials and every redirect hop is checked again. A relay in front of the
// sandbox (the credential's Base URL) redirects chosen requests to a second server that records what
// reaches it.
import {
	createServer,
	request as httpRequest,
	type IncomingHttpHeaders,
	type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';

import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { SANDBOX_API_KEY } from '../../sandbox/options';
import { runNode } from '../helpers/n8n-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';

interface Seen {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
}

async function listen(server: Server): Promise<string> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('redirects never carry the credential to another origin', () => {
	let fx: Fixture;
	let other: Server;
	let relay: Server;
	let otherOrigin = '';
	let relayOrigin = '';
	const seenByOther: Seen[] = [];
	/** requests the relay answers with a redirect: "METHOD /path-prefix" → Location */
	const redirects = new Map<string, string>();
	const redirectFor = (method?: string, url?: string) =>
		[...redirects].find(([key]) => `${method} ${url}`.startsWith(key))?.[1];

	beforeEach(async () => {
		fx = await startFixture({ latencyMs: 50 });
		seenByOther.length = 0;
		redirects.clear();
		other = createServer((req, res) => {
			seenByOther.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
			res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
		});
		otherOrigin = await listen(other);
		const sandbox = new URL(fx.sandbox.baseUrl);
		relay = createServer((req, res) => {
			const location = redirectFor(req.method, req.url);
			if (location) return void res.writeHead(302, { location }).end();
			// everything else goes to the sandbox; JSON answers get the relay's origin in their URLs
			const upstream = httpRequest(
				{
					host: sandbox.hostname,
					port: sandbox.port,
					method: req.method,
					path: req.url,
					headers: { ...req.headers, host: sandbox.host },
				},
				(answer) => {
					const chunks: Buffer[] = [];
					answer.on('data', (c: Buffer) => chunks.push(c));
					answer.on('end', () => {
						let body = Buffer.concat(chunks);
						if (String(answer.headers['content-type']).includes('json'))
							body = Buffer.from(body.toString().split(sandbox.origin).join(relayOrigin));
						const headers = { ...answer.headers, 'content-length': String(body.length) };
						res.writeHead(answer.statusCode ?? 502, headers).end(body);
					});
				},
			);
			req.pipe(upstream);
		});
		relayOrigin = await listen(relay);
		fx.credentials.set('mediaGenApi', { baseUrl: `${relayOrigin}/v1`, apiKey: SANDBOX_API_KEY });
	});

	afterEach(async () => {
		await new Promise((r) => other.close(r));
		await new Promise((r) => relay.close(r));
		await fx.sandbox.close();
	});

	const generate = { resource: 'image', operation: 'generate', prompt: 'a fox' };

	it('refuses a redirect from the API (the submit is not sent anywhere else) and names it', async () => {
		redirects.set('POST /v1/images/generations', `${otherOrigin}/v1/images/generations`);
		const { error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: generate,
		});
		expect(error?.message).toMatch(/^redirect_refused/);
		expect(error?.description ?? '').not.toContain(SANDBOX_API_KEY);
		expect(seenByOther).toEqual([]);
		expect(fx.sandbox.state.ledger).toHaveLength(0);
	});

	it('refuses a redirect of a read from the API to another host', async () => {
		redirects.set('GET /v1/models', `${otherOrigin}/v1/models`);
		const { error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: generate,
		});
		expect(error?.message).toMatch(/^redirect_refused/);
		expect(seenByOther).toEqual([]);
	});

	it('follows a redirect of an output file without any credential, checking the new address', async () => {
		const { items, error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: { ...generate, options: { returnUrlsOnly: true } },
		});
		expect(error).toBeUndefined();
		const fileUrl = new URL(String((items[0].json.output_urls as string[])[0]));
		expect(fileUrl.origin).toBe(relayOrigin);
		redirects.set('GET /storage/files/', `${otherOrigin}/moved/a.png`);
		const download = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: generate,
		});
		// the second server answered JSON for a PNG: the file arrives, and no credential went with it
		expect(download.error).toBeUndefined();
		const moved = seenByOther.filter((s) => s.url === '/moved/a.png');
		expect(moved).toHaveLength(1);
		expect(moved[0].headers.authorization).toBeUndefined();
		expect(JSON.stringify(moved[0].headers)).not.toContain(SANDBOX_API_KEY);
	});

	it('refuses an output file redirected to plain http on another host', async () => {
		redirects.set('GET /storage/files/', 'http://files.example.com/a.png');
		const { error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: generate,
		});
		expect(error?.message).toMatch(/^download_refused/);
		expect(error?.message).toContain('only https');
	});
});
