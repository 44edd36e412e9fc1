/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';

import { MediaGenAccount } from '../../nodes/MediaGenAccount/MediaGenAccount.node';
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenTrigger } from '../../nodes/MediaGenTrigger/MediaGenTrigger.node';
import { MediaGenVideo } from '../../nodes/MediaGenVideo/MediaGenVideo.node';
import { SANDBOX_OAUTH_CLIENT_SECRET } from '../../sandbox/options';
import { runNode, type NodeRun } from '../helpers/n8n-harness';
import { PausedExecutionHost } from '../helpers/paused-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';
import { startTriggerHarness } from '../helpers/trigger-harness';

/** Everything a user or a log could see of a node run: items, the error with its context and causes. */
function visible(result: NodeRun): string {
	return [
		JSON.stringify(result.items),
		inspect(result.error, { depth: 6 }),
		JSON.stringify(result.run.data.resultData),
	].join('\n');
}

const generate = { resource: 'image', operation: 'generate', prompt: 'a fox' };

describe('secrets never appear in error messages, error items or run data', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture();
	});
	afterEach(async () => fx.sandbox.close());

	it.each([
		['continue on fail', { onError: 'continueRegularOutput' as const }],
		['stop on error', {}],
	])('a rejected API key (%s)', async (_label, settings) => {
		const apiKey = 'mg_key_this_one_is_unknown_and_secret_0123456789';
		fx.credentials.set('mediaGenApi', { baseUrl: fx.sandbox.baseUrl, apiKey });
		const result = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: generate,
			settings,
		});
		const seen = visible(result);
		expect(seen).toContain('unauthorized');
		expect(seen).not.toContain(apiKey);
	});

	it('an API key lacking a scope, failing on submit after models were listed', async () => {
		const apiKey = fx.sandbox.state.createApiKey(['models:read']);
		fx.credentials.set('mediaGenApi', { baseUrl: fx.sandbox.baseUrl, apiKey });
		const result = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: generate,
		});
		expect(visible(result)).toContain('insufficient_scope');
		expect(visible(result)).not.toContain(apiKey);
	});

	it('an OAuth2 client with a wrong secret', async () => {
		const wrongSecret = 'client_secret_that_must_not_leak_987654';
		fx.credentials.set('mediaGenOAuth2Api', {
			baseUrl: fx.sandbox.baseUrl,
			clientId: 'mg_sandbox_client',
			clientSecret: wrongSecret,
			authentication: 'body',
		});
		const result = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			credentialType: 'mediaGenOAuth2Api',
			parameters: generate,
		});
		expect(result.error?.message).toMatch(/^invalid_client/);
		expect(visible(result)).not.toContain(wrongSecret);
	});

	it('an OAuth2 access token whose scopes do not cover the operation, and the client secret behind it', async () => {
		fx.credentials.set('mediaGenOAuth2Api', {
			baseUrl: fx.sandbox.baseUrl,
			clientId: 'mg_sandbox_client',
			clientSecret: SANDBOX_OAUTH_CLIENT_SECRET,
			scope: 'models:read runs:read',
			authentication: 'header',
		});
		const result = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			credentialType: 'mediaGenOAuth2Api',
			parameters: generate,
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.items[0].json.code).toBe('insufficient_scope');
		const [token] = [...fx.sandbox.state.tokens.keys()];
		expect(token).toBeDefined();
		expect(visible(result)).not.toContain(token);
		expect(visible(result)).not.toContain(SANDBOX_OAUTH_CLIENT_SECRET);
	});

	it('a network failure (nothing listening) does not print the credential', async () => {
		const apiKey = 'mg_key_network_case_secret_abcdef';
		fx.credentials.set('mediaGenApi', { baseUrl: 'http://127.0.0.1:9/v1', apiKey });
		const result = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: { ...generate, model: 'image.aurora-2' },
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.items[0].json.code).toBe('network_error');
		expect(visible(result)).not.toContain(apiKey);
	}, 120_000);

	it('a base URL with user:password is never printed with its password', async () => {
		const apiKey = 'mg_key_userinfo_case_secret_42';
		fx.credentials.set('mediaGenApi', {
			baseUrl: 'http://admin:hunter2-password@127.0.0.1:9/v1',
			apiKey,
		});
		const result = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: { ...generate, model: 'image.aurora-2' },
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.items[0].json.code).toBe('network_error');
		expect(visible(result)).toContain('127.0.0.1:9');
		expect(visible(result)).not.toContain('hunter2-password');
		expect(visible(result)).not.toContain(apiKey);
	}, 120_000);

	// a pre-signed address may carry its signature in the query or in the path (issue 24: the field was only tried with a query)
	it.each([
		[
			'in its query',
			'https://storage.example/put/asset_1?X-Amz-Signature=presigned0123456789abcdef',
			'presigned0123456789abcdef',
		],
		[
			'in its path',
			'https://storage.example/put/presigned0123456789abcdef/asset_1.png',
			'presigned0123456789abcdef',
		],
	])(
		'an upload answer without asset_url does not show its pre-signed upload_url (signature %s)',
		async (_where, uploadUrl, signature) => {
			const service = createServer((req, res) => {
				req.resume();
				res.writeHead(200, { 'content-type': 'application/json' }).end(
					JSON.stringify({
						asset_id: 'asset_1',
						upload_url: uploadUrl,
						content_type: 'image/png',
					}),
				);
			});
			await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
			try {
				fx.credentials.set('mediaGenApi', {
					baseUrl: `http://127.0.0.1:${(service.address() as AddressInfo).port}/v1`,
					apiKey: 'mg_key_upload_case',
				});
				const result = await runNode({
					nodeType: new MediaGenAccount(),
					credentials: fx.credentials,
					parameters: { resource: 'upload', operation: 'create' },
					input: [
						{
							json: {},
							binary: {
								data: {
									data: Buffer.from('png').toString('base64'),
									mimeType: 'image/png',
									fileName: 'a.png',
								},
							},
						},
					],
					settings: { onError: 'continueRegularOutput' },
				});
				expect(result.items[0].json.code).toBe('unexpected_response');
				expect(visible(result)).not.toContain(signature);
			} finally {
				await new Promise((r) => service.close(r));
			}
		},
	);
});

/** Every form a careless service could echo a value in (written here, independently of the package's redaction). */
const forms = (value: string) => [
	value,
	JSON.stringify(value).slice(1, -1),
	encodeURIComponent(value),
	Buffer.from(value).toString('base64'),
];
const expectNoneOf = (seen: string, value: string) => {
	for (const form of forms(value))
		expect({ form, shown: seen.includes(form) }).toEqual({ form, shown: false });
};

describe('secrets the service echoes back are redacted from every error, error item, message and hint (issue 24)', () => {
	// characters that JSON and URL encoding write differently, so each form is another string
	const API_KEY = 'mg_key_"echo"\\back/slash+plus=eq&and%pct~0123456789';
	const CLIENT_ID = 'mg_client_"id"/+=&%';
	const CLIENT_SECRET = 'mg_secret_"sec"\\/+=&%~9876543210';
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture();
		fx.sandbox.state.apiKeys.set(API_KEY, {
			accountId: 'acc_sandbox',
			scopes: [...fx.sandbox.state.apiKeys.get('mg_sandbox_full_access_key')!.scopes],
			label: 'echo test',
		});
		fx.sandbox.state.oauthClients.set(CLIENT_ID, {
			...fx.sandbox.state.oauthClients.get('mg_sandbox_client')!,
			secret: CLIENT_SECRET,
		});
	});
	afterEach(async () => fx.sandbox.close());

	const places = ['detail', 'title', 'text'] as const;
	const where = {
		detail: "a problem's detail",
		title: "a problem's title",
		text: 'a text/plain 400 body',
	};
	const encodings = ['raw', 'json', 'url', 'base64'] as const;
	const settings = {
		'continue on fail': { onError: 'continueRegularOutput' as const },
		'stop on error': {},
	};

	describe.each(Object.entries(settings))('%s', (_label, nodeSettings) => {
		it.each(
			places.flatMap((place) =>
				encodings.map((encoding) => [where[place], encoding, place] as const),
			),
		)('the API key echoed in %s, %s', async (_where, encoding, place) => {
			fx.credentials.set('mediaGenApi', { baseUrl: fx.sandbox.baseUrl, apiKey: API_KEY });
			fx.sandbox.injectFault({
				when: 'before',
				method: 'POST',
				path: '/images/generations',
				echo: { secret: 'bearer', in: place, encoding },
			});
			const result = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: { ...generate, model: 'image.aurora-2' },
				settings: nodeSettings,
			});
			const seen = visible(result);
			// the fault happened, its place shows redacted, the code is still there
			expect(seen).toContain('[redacted]');
			expect(seen).toMatch(place === 'text' ? /http_400/ : /invalid_parameter/);
			expectNoneOf(seen, API_KEY);
		});

		it.each(['raw', 'json', 'url'] as const)(
			"the OAuth2 client secret echoed in the token endpoint's error_description, %s (the client id is public, RFC 6749 §2.2: issue 32)",
			async (encoding) => {
				for (const secret of ['client_id', 'client_secret'] as const) {
					fx.credentials.set('mediaGenOAuth2Api', {
						baseUrl: fx.sandbox.baseUrl,
						clientId: CLIENT_ID,
						clientSecret: CLIENT_SECRET,
						authentication: 'body',
					});
					fx.sandbox.injectFault({
						when: 'before',
						method: 'POST',
						path: '/oauth/token',
						echo: { secret, in: 'error_description', encoding },
					});
					const result = await runNode({
						nodeType: new MediaGenImage(),
						credentials: fx.credentials,
						credentialType: 'mediaGenOAuth2Api',
						parameters: { ...generate, model: 'image.aurora-2' },
						settings: nodeSettings,
					});
					const seen = visible(result);
					expect(seen).toContain('invalid_client');
					if (secret === 'client_secret') expect(seen).toContain('[redacted]');
					else expect(seen).not.toContain('[redacted]');
					expectNoneOf(seen, CLIENT_SECRET);
				}
			},
		);

		it('the HTTP Basic header of the OAuth2 client echoed as sent (base64 of id:secret)', async () => {
			fx.credentials.set('mediaGenOAuth2Api', {
				baseUrl: fx.sandbox.baseUrl,
				clientId: CLIENT_ID,
				clientSecret: CLIENT_SECRET,
				authentication: 'header',
			});
			fx.sandbox.injectFault({
				when: 'before',
				method: 'POST',
				path: '/oauth/token',
				echo: { secret: 'basic', in: 'error_description' },
			});
			const result = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				credentialType: 'mediaGenOAuth2Api',
				parameters: { ...generate, model: 'image.aurora-2' },
				settings: nodeSettings,
			});
			const seen = visible(result);
			expect(seen).toContain('[redacted]');
			const pair = `${encodeURIComponent(CLIENT_ID)}:${encodeURIComponent(CLIENT_SECRET)}`;
			expect(seen).not.toContain(Buffer.from(pair).toString('base64'));
			expectNoneOf(seen, CLIENT_SECRET);
		});

		it.each(['detail', 'text'] as const)(
			'the OAuth2 access token n8n fetched during the execution, echoed in %s',
			async (place) => {
				fx.credentials.set('mediaGenOAuth2Api', {
					baseUrl: fx.sandbox.baseUrl,
					clientId: CLIENT_ID,
					clientSecret: CLIENT_SECRET,
					authentication: 'body',
				});
				fx.sandbox.injectFault({
					when: 'before',
					method: 'POST',
					path: '/images/generations',
					echo: { secret: 'bearer', in: place },
				});
				const result = await runNode({
					nodeType: new MediaGenImage(),
					credentials: fx.credentials,
					credentialType: 'mediaGenOAuth2Api',
					parameters: { ...generate, model: 'image.aurora-2' },
					settings: nodeSettings,
				});
				const [token] = [...fx.sandbox.state.tokens.keys()];
				expect(token).toBeDefined();
				const seen = visible(result);
				expect(seen).toContain('[redacted]');
				expectNoneOf(seen, token);
				expectNoneOf(seen, CLIENT_SECRET);
			},
		);
	});

	it('a text/plain 400 body longer than what is shown, with the key where the cut falls: no half of it either', async () => {
		fx.credentials.set('mediaGenApi', { baseUrl: fx.sandbox.baseUrl, apiKey: API_KEY });
		fx.sandbox.injectFault({
			when: 'before',
			method: 'POST',
			path: '/images/generations',
			status: 400,
			contentType: 'text/plain',
			body: `${'x'.repeat(280)} ${API_KEY} and more`,
		});
		const result = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: { ...generate, model: 'image.aurora-2' },
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.items[0].json.code).toBe('http_400');
		expectNoneOf(visible(result), API_KEY.slice(0, 12));
	});

	it("a paused execution's signing secret echoed while its delivery reads the runs: the answer to the service does not show it", async () => {
		fx.sandbox.state.options.latencyMs = 600_000;
		const host = await PausedExecutionHost.start();
		try {
			const executionId = `secrets-${process.pid}`;
			// two runs, one finished: its delivery has to read the other (a delivery that carried every run reads nothing)
			const input = [{ json: { prompt: 'a fox' } }, { json: { prompt: 'a hare' } }];
			const paused = await host.run({
				nodeType: new MediaGenVideo(),
				credentials: fx.credentials,
				parameters: {
					resource: 'video',
					operation: 'generate',
					prompt: '={{ $json.prompt }}',
					duration: 5,
					waitMode: 'parked',
				},
				executionId,
				input,
			});
			expect(paused.run.status).toBe('waiting');
			const [endpoint] = fx.sandbox.services.webhooks.listEndpoints('acc_sandbox');
			const secret = (
				fx.sandbox.services.webhooks as unknown as { endpoints: Map<string, { secret: string }> }
			).endpoints.get(endpoint.id)!.secret;
			fx.sandbox.injectFault({
				when: 'before',
				method: 'GET',
				path: '/runs',
				status: 400,
				code: 'invalid_parameter',
				echo: { secret: 'value', value: secret, in: 'detail' },
				count: 20,
			});
			fx.sandbox.services.runs.finishNow(String(paused.items[0].json.run_id));
			for (const end = Date.now() + 20_000; !host.deliveries.some((d) => d.status === 500); ) {
				if (Date.now() > end) throw new Error('no delivery answered 500');
				await new Promise((r) => setTimeout(r, 20));
			}
			const answered = JSON.stringify(host.deliveries.map((d) => d.body));
			expect(answered).toContain('invalid_parameter');
			expect(answered).toContain('[redacted]');
			expectNoneOf(answered, secret);
			expect(host.status(executionId)).toBe('waiting');
			host.cancel(executionId);
		} finally {
			await host.close();
		}
	});

	it("the trigger's signing secret echoed while it re-enables its endpoint: the activation error does not show it", async () => {
		const trigger = await startTriggerHarness({
			nodeType: new MediaGenTrigger(),
			credentials: fx.credentials,
			parameters: { events: ['run.completed'] },
		});
		try {
			await trigger.hook('create');
			const endpointId = String(trigger.staticData().endpointId);
			const secret = (
				fx.sandbox.services.webhooks as unknown as { endpoints: Map<string, { secret: string }> }
			).endpoints.get(endpointId)!.secret;
			fx.sandbox.services.webhooks.updateEndpoint('acc_sandbox', endpointId, {
				status: 'disabled',
			});
			fx.sandbox.injectFault({
				when: 'before',
				method: 'PATCH',
				path: '/webhooks/',
				status: 403,
				code: 'insufficient_scope',
				echo: { secret: 'value', value: secret, in: 'detail' },
			});
			const error = await trigger.hook('checkExists').then(
				() => undefined,
				(e: unknown) => e,
			);
			const seen = inspect(error, { depth: 6 });
			expect(seen).toContain('insufficient_scope');
			expect(seen).toContain('[redacted]');
			expectNoneOf(seen, secret);
		} finally {
			await trigger.close();
		}
	});
});
