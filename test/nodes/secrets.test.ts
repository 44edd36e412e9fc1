/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';

import { MediaGenAccount } from '../../nodes/MediaGenAccount/MediaGenAccount.node';
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { SANDBOX_OAUTH_CLIENT_SECRET } from '../../sandbox/options';
import { runNode, type NodeRun } from '../helpers/n8n-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';

/** Everything a user or a log could see of a node run: items, the error with its context and causes. */
function visible(result: NodeRun): string {
	return [JSON.stringify(result.items), inspect(result.error, { depth: 6 }), JSON.stringify(result.run.data.resultData)].join('\n');
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
		const result = await runNode({ nodeType: new MediaGenImage(), credentials: fx.credentials, parameters: generate, settings });
		const seen = visible(result);
		expect(seen).toContain('unauthorized');
		expect(seen).not.toContain(apiKey);
	});

	it('an API key lacking a scope, failing on submit after models were listed', async () => {
		const apiKey = fx.sandbox.state.createApiKey(['models:read']);
		fx.credentials.set('mediaGenApi', { baseUrl: fx.sandbox.baseUrl, apiKey });
		const result = await runNode({ nodeType: new MediaGenImage(), credentials: fx.credentials, parameters: generate });
		expect(visible(result)).toContain('insufficient_scope');
		expect(visible(result)).not.toContain(apiKey);
	});

	it('an OAuth2 client with a wrong secret', async () => {
		const wrongSecret = 'client_secret_that_must_not_leak_987654';
		fx.credentials.set('mediaGenOAuth2Api', { baseUrl: fx.sandbox.baseUrl, clientId: 'mg_sandbox_client', clientSecret: wrongSecret, authentication: 'body' });
		const result = await runNode({ nodeType: new MediaGenImage(), credentials: fx.credentials, credentialType: 'mediaGenOAuth2Api', parameters: generate });
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
		const result = await runNode({ nodeType: new MediaGenImage(), credentials: fx.credentials, credentialType: 'mediaGenOAuth2Api', parameters: generate, settings: { onError: 'continueRegularOutput' } });
		expect(result.items[0].json.code).toBe('insufficient_scope');
		const [token] = [...fx.sandbox.state.tokens.keys()];
		expect(token).toBeDefined();
		expect(visible(result)).not.toContain(token);
		expect(visible(result)).not.toContain(SANDBOX_OAUTH_CLIENT_SECRET);
	});

	it('a network failure (nothing listening) does not print the credential', async () => {
		const apiKey = 'mg_key_network_case_secret_abcdef';
		fx.credentials.set('mediaGenApi', { baseUrl: 'http://127.0.0.1:9/v1', apiKey });
		const result = await runNode({ nodeType: new MediaGenImage(), credentials: fx.credentials, parameters: { ...generate, model: 'image.aurora-2' }, settings: { onError: 'continueRegularOutput' } });
		expect(result.items[0].json.code).toBe('network_error');
		expect(visible(result)).not.toContain(apiKey);
	}, 120_000);

	it('a base URL with user:password is never printed with its password', async () => {
		const apiKey = 'mg_key_userinfo_case_secret_42';
		fx.credentials.set('mediaGenApi', { baseUrl: 'http://admin:hunter2-password@127.0.0.1:9/v1', apiKey });
		const result = await runNode({ nodeType: new MediaGenImage(), credentials: fx.credentials, parameters: { ...generate, model: 'image.aurora-2' }, settings: { onError: 'continueRegularOutput' } });
		expect(result.items[0].json.code).toBe('network_error');
		expect(visible(result)).toContain('127.0.0.1:9');
		expect(visible(result)).not.toContain('hunter2-password');
		expect(visible(result)).not.toContain(apiKey);
	}, 120_000);

	it('an upload answer without asset_url does not show its pre-signed upload_url', async () => {
		const signature = 'X-Amz-Signature=presigned0123456789abcdef';
		const service = createServer((req, res) => {
			req.resume();
			res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ asset_id: 'asset_1', upload_url: `https://storage.example/put/asset_1?${signature}`, content_type: 'image/png' }));
		});
		await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
		try {
			fx.credentials.set('mediaGenApi', { baseUrl: `http://127.0.0.1:${(service.address() as AddressInfo).port}/v1`, apiKey: 'mg_key_upload_case' });
			const result = await runNode({
				nodeType: new MediaGenAccount(),
				credentials: fx.credentials,
				parameters: { resource: 'upload', operation: 'create' },
				input: [{ json: {}, binary: { data: { data: Buffer.from('png').toString('base64'), mimeType: 'image/png', fileName: 'a.png' } } }],
				settings: { onError: 'continueRegularOutput' },
			});
			expect(result.items[0].json.code).toBe('unexpected_response');
			expect(visible(result)).not.toContain(signature);
			expect(visible(result)).not.toContain('presigned0123456789abcdef');
		} finally {
			await new Promise((r) => service.close(r));
		}
	});
});
