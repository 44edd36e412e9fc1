/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// n8n 2.41.1's own SSRF protection (N8N_SSRF_PROTECTION_ENABLED) around the request helpers the
// nodes use (issue 24): n8n-core's httpRequest goes through @n8n/backend-network's OutboundHttp,
// which checks the address before the request and again at connect time. Turned on for this file
// (the config is read when n8n-core first makes a request); the service on 127.0.0.1 is allowed
// the way an operator allows a private service: N8N_SSRF_ALLOWED_IP_RANGES.
import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenTrigger } from '../../nodes/MediaGenTrigger/MediaGenTrigger.node';
import { runNode } from '../helpers/n8n-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';
import { startTriggerHarness } from '../helpers/trigger-harness';

const SECRET = 'whsec_ssrf_protection_test';
/** a name of this test that resolves to another loopback address than the allowed one */
const LOOPBACK_NAME = 'files.loopback-name.test';

describe("n8n's SSRF protection, on, covers what the nodes request and download", () => {
	let fx: Fixture;
	let files: Server;
	let port = 0;
	const connections: Socket[] = [];
	const originalPromiseLookup = dns.promises.lookup;

	beforeAll(async () => {
		process.env.N8N_SSRF_PROTECTION_ENABLED = 'true';
		process.env.N8N_SSRF_ALLOWED_IP_RANGES = '127.0.0.1/32';
		dns.promises.lookup = (async (hostname: string, options?: { all?: boolean }) => {
			if (hostname !== LOOPBACK_NAME)
				return await originalPromiseLookup(hostname, options as dns.LookupAllOptions);
			const record = { address: '127.0.0.2', family: 4 };
			return options?.all ? [record] : record;
		}) as typeof dns.promises.lookup;
		files = createServer((socket) => {
			connections.push(socket);
			socket.destroy();
		});
		await new Promise<void>((resolve) => files.listen(0, '127.0.0.2', resolve));
		port = (files.address() as AddressInfo).port;
		fx = await startFixture({ latencyMs: 50 });
	});
	afterAll(async () => {
		dns.promises.lookup = originalPromiseLookup;
		delete process.env.N8N_SSRF_PROTECTION_ENABLED;
		delete process.env.N8N_SSRF_ALLOWED_IP_RANGES;
		await new Promise((resolve) => files.close(resolve));
		await fx.sandbox.close();
	});

	it('lets the allowed service through: a generated image is downloaded from it', async () => {
		const { items, error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: { resource: 'image', operation: 'generate', prompt: 'a fox' },
		});
		expect(error).toBeUndefined();
		expect(items[0].binary?.data.mimeType).toBe('image/png');
	});

	it('refuses a service address it does not allow, once, with its own words (blocked_by_n8n, no retries)', async () => {
		const before = connections.length;
		fx.credentials.set('mediaGenApi', {
			baseUrl: `http://127.0.0.2:${port}/v1`,
			apiKey: 'mg_sandbox_full_access_key',
		});
		const { items } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: {
				resource: 'image',
				operation: 'generate',
				prompt: 'a fox',
				model: 'image.aurora-2',
			},
			settings: { onError: 'continueRegularOutput' },
		});
		fx.credentials.set('mediaGenApi', {
			baseUrl: fx.sandbox.baseUrl,
			apiKey: 'mg_sandbox_full_access_key',
		});
		expect(items[0].json).toEqual(
			expect.objectContaining({
				code: 'blocked_by_n8n',
				error: expect.stringContaining('restricted IP address'),
			}),
		);
		expect(String(items[0].json.detail)).toContain('N8N_SSRF_ALLOWED_HOSTNAMES');
		expect(connections.length).toBe(before);
	});

	it('refuses an output file whose host name resolves to a loopback address it does not allow, without connecting (the trigger, Download Outputs)', async () => {
		const before = connections.length;
		const trigger = await startTriggerHarness({
			nodeType: new MediaGenTrigger(),
			credentials: fx.credentials,
			parameters: { events: ['run.completed'], options: { downloadOutputs: true } },
		});
		try {
			trigger.setStaticData({ endpointId: 'whe_ssrf', signingSecret: SECRET });
			const body = JSON.stringify({
				id: 'evt_ssrf',
				object: 'event',
				type: 'run.completed',
				created_at: new Date().toISOString(),
				data: {
					object: {
						id: 'run_ssrf',
						object: 'run',
						status: 'completed',
						output: { output_url: `https://${LOOPBACK_NAME}:${port}/a.png` },
					},
				},
			});
			const answer = await fetch(trigger.productionUrl, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'X-Service-Signature': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
				},
				body,
			});
			expect(answer.status).toBe(200);
			const [call] = await trigger.waitForCalls(1);
			expect(call.emitted![0].json.download_error).toEqual({
				code: 'download_refused',
				message: expect.stringContaining(
					"n8n's SSRF protection refused an output file of run run_ssrf",
				),
			});
			expect(connections.length).toBe(before);
		} finally {
			await trigger.close();
		}
	});
});
