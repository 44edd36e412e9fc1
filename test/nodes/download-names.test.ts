/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// Output downloads from host names that resolve to private addresses (issue 24), through n8n-core
// 2.41.1's own egress filter (getSecureEgressFilter). Names resolve only here: node:dns is stubbed
// for them (the promise API is what n8n's filter asks; the callback API is where connections go).
import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

import type { IExecuteFunctions } from 'n8n-workflow';

import { MediaGenTrigger } from '../../nodes/MediaGenTrigger/MediaGenTrigger.node';
import { downloadOutput } from '../../src/media/download';
import { problemOf } from '../../src/transport/problem';
import { TestCredentialsHelper } from '../helpers/n8n-harness';
import { startTriggerHarness, type TriggerHarness } from '../helpers/trigger-harness';

const SECRET = 'whsec_download_names_test';
/** name → [what n8n's filter is told, where a connection goes] */
const NAMES: Record<string, [string, string]> = {
	'files.private-name.test': ['127.0.0.1', '127.0.0.1'],
	'files.metadata-name.test': ['169.254.169.254', '127.0.0.1'],
	// answers a public address to the check and loopback to the connection: DNS rebinding
	'files.rebinding-name.test': ['93.184.216.34', '127.0.0.1'],
	'api.mediagen-names.test': ['93.184.216.35', '127.0.0.1'],
	// a service on a private network: its files may be there too
	'api.private-service.test': ['10.0.0.5', '127.0.0.1'],
	'files.private-service.test': ['10.0.0.6', '127.0.0.1'],
};

describe('output downloads from host names resolving to private addresses (n8n egress filter)', () => {
	let files: Server;
	let port = 0;
	const connections: Socket[] = [];
	let trigger: TriggerHarness;
	const originalLookup = dns.lookup;
	const originalPromiseLookup = dns.promises.lookup;

	beforeAll(async () => {
		// a TCP listener that records each connection and drops it (no TLS: reaching it is what counts)
		files = createServer((socket) => {
			connections.push(socket);
			socket.destroy();
		});
		await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
		port = (files.address() as AddressInfo).port;
		dns.promises.lookup = (async (hostname: string, options?: { all?: boolean }) => {
			const known = NAMES[hostname];
			if (!known) return await originalPromiseLookup(hostname, options as dns.LookupAllOptions);
			const record = { address: known[0], family: 4 };
			return options?.all ? [record] : record;
		}) as typeof dns.promises.lookup;
		dns.lookup = ((hostname: string, options: unknown, callback?: unknown) => {
			const done = (typeof options === 'function' ? options : callback) as (
				e: Error | null,
				a: unknown,
				f?: number,
			) => void;
			const known = NAMES[hostname];
			if (!known)
				return (originalLookup as (...args: unknown[]) => void)(hostname, options, callback);
			return (options as { all?: boolean })?.all
				? done(null, [{ address: known[1], family: 4 }])
				: done(null, known[1], 4);
		}) as typeof dns.lookup;
	});
	afterAll(async () => {
		dns.lookup = originalLookup;
		dns.promises.lookup = originalPromiseLookup;
		await new Promise((resolve) => files.close(resolve));
	});
	afterEach(async () => trigger?.close());

	async function received(fileUrl: string, baseUrl = 'https://api.mediagen-names.test/v1') {
		const credentials = new TestCredentialsHelper();
		credentials.set('mediaGenApi', { baseUrl, apiKey: 'mg_key_download_names' });
		trigger = await startTriggerHarness({
			nodeType: new MediaGenTrigger(),
			credentials,
			parameters: { events: ['run.completed'], options: { downloadOutputs: true } },
		});
		trigger.setStaticData({ endpointId: 'whe_names', signingSecret: SECRET });
		const body = JSON.stringify({
			id: `evt_${fileUrl.length}_${Date.now()}`,
			object: 'event',
			type: 'run.completed',
			created_at: new Date().toISOString(),
			data: {
				object: {
					id: 'run_names',
					object: 'run',
					status: 'completed',
					output: { output_url: fileUrl },
				},
			},
		});
		const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
		const answer = await fetch(trigger.productionUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'X-Service-Signature': signature },
			body,
		});
		expect(answer.status).toBe(200);
		const [call] = await trigger.waitForCalls(1);
		return call.emitted![0].json;
	}

	it.each(['files.private-name.test', 'files.metadata-name.test'])(
		'refuses %s, which resolves to a non-public address, without connecting',
		async (name) => {
			const before = connections.length;
			const item = await received(`https://${name}:${port}/a.png`);
			expect(item.download_error).toEqual({
				code: 'download_refused',
				message: expect.stringContaining(
					"its host name resolves to an address n8n's SSRF rules block",
				),
			});
			expect(connections.length).toBe(before);
		},
	);

	it('checks before connecting, not at it: a name whose answer changes in between still connects (what N8N_SSRF_PROTECTION_ENABLED adds)', async () => {
		const before = connections.length;
		const item = await received(`https://files.rebinding-name.test:${port}/a.png`);
		expect(item.download_error).toEqual(expect.objectContaining({ code: 'download_failed' }));
		expect(connections.length).toBe(before + 1);
	});

	it("downloads from a private name when the Base URL's name resolves to a private address too (the service runs there)", async () => {
		const before = connections.length;
		const item = await received(
			`https://files.private-service.test:${port}/a.png`,
			'https://api.private-service.test/v1',
		);
		expect(item.download_error).toEqual(expect.objectContaining({ code: 'download_failed' }));
		expect(connections.length).toBe(before + 1);
	});

	it('checks every redirect hop: a public file URL redirecting to a private name is refused at that hop', async () => {
		const asked: string[] = [];
		const ctx = {
			getNode: () => ({
				name: 'MediaGen',
				type: 'n8n-nodes-mediagen.mediaGenImage',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			}),
			helpers: {
				getSecureEgressFilter: () => ({
					validateUrl: async (url: string) =>
						new URL(url).hostname === 'files.private-name.test'
							? { ok: false, error: new Error('blocked') }
							: { ok: true, result: undefined },
				}),
				httpRequest: async (request: { url: string }) => {
					asked.push(request.url);
					return {
						statusCode: 302,
						headers: { location: 'https://files.private-name.test/a.png' },
						body: { on: () => undefined },
					};
				},
			},
		} as unknown as IExecuteFunctions;
		const error = await downloadOutput(
			ctx,
			{ url: 'https://cdn.mediagen-names.test/a.png' },
			'run_x',
			'https://api.mediagen-names.test/v1',
			{ runId: 'run_x', maxBytes: 1000 },
		).catch((e: unknown) => e);
		expect(problemOf(error)?.code).toBe('download_refused');
		expect(asked).toEqual(['https://cdn.mediagen-names.test/a.png']);
	});
});
