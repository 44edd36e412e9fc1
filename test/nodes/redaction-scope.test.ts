/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// What redaction covers and what it leaves alone (issue 32, 14–17): every token an OAuth2
// credential held during the execution, truncated echoes, errors and hints only (never a
// successful item), and problem documents cut before they are kept.
import { inspect } from 'node:util';

import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { SANDBOX_OAUTH_CLIENT_SECRET } from '../../sandbox/options';
import { runNode, type NodeRun } from '../helpers/n8n-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';

/** Everything a user or a log could see of a node run: items, the error with its context and causes. */
function visible(result: NodeRun): string {
	return [
		JSON.stringify(result.items),
		inspect(result.error, { depth: 6 }),
		JSON.stringify(result.run.data.resultData),
	].join('\n');
}

const generate = {
	resource: 'image',
	operation: 'generate',
	prompt: 'a fox',
	model: 'image.aurora-2',
};

describe('redaction and records (issue 32)', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture();
	});
	afterEach(async () => fx.sandbox.close());

	it.each([
		['continue on fail', { onError: 'continueRegularOutput' as const }],
		['stop on error', {}],
	])(
		'a problem document with a 5 MB detail is cut like a text body (300 characters) and kept once, small (17, %s)',
		async (_label, settings) => {
			const detail = `${'the detail goes on '.repeat((5 * 1024 * 1024) / 19)}end`;
			fx.sandbox.injectFault({
				when: 'before',
				method: 'POST',
				path: '/images/generations',
				status: 400,
				contentType: 'application/problem+json',
				body: JSON.stringify({
					code: 'invalid_parameter',
					title: 'Bad prompt',
					status: 400,
					detail,
				}),
			});
			const result = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: generate,
				settings,
			});
			const seen = visible(result);
			expect(seen).toContain('invalid_parameter');
			expect(seen).toContain('the detail goes on ');
			// what is shown and kept in the execution data holds the cut detail, not the 5 MB
			expect(seen.length).toBeLessThan(30_000);
			if (result.items.length) {
				const item = result.items[0].json;
				expect(String(item.detail)).toMatch(/^the detail goes on /);
				expect(String(item.detail).length).toBeLessThanOrEqual(301);
				expect(String(item.error).length).toBeLessThan(400);
			}
		},
	);

	describe('a failing item leaves the successful items as they are (16)', () => {
		const prompts = ['a live concert poster, banner for acme-corp', ''];
		const run = (credentialType?: 'mediaGenApi' | 'mediaGenOAuth2Api') =>
			runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				credentialType,
				parameters: { ...generate, prompt: '={{ $json.prompt }}' },
				input: prompts.map((prompt) => ({ json: { prompt } })),
				settings: { onError: 'continueRegularOutput' },
			});

		it('an API key "live" (too short to be a secret) does not turn "a live concert poster" into "a [redacted] concert poster"', async () => {
			fx.sandbox.state.apiKeys.set('live', {
				...fx.sandbox.state.apiKeys.get('mg_sandbox_full_access_key')!,
			});
			fx.credentials.set('mediaGenApi', { baseUrl: fx.sandbox.baseUrl, apiKey: 'live' });
			const result = await run();
			expect(result.items[1].json.error).toBeDefined();
			expect(result.items[0].json.status).toBe('completed');
			expect(JSON.stringify(result.items[0].json)).toContain(prompts[0]);
			expect(JSON.stringify(result.items[0].json)).not.toContain('[redacted]');
		});

		it('an OAuth2 client id "acme-corp" (public, RFC 6749 §2.2) is left in a successful item\'s prompt', async () => {
			fx.sandbox.state.oauthClients.set('acme-corp', {
				...fx.sandbox.state.oauthClients.get('mg_sandbox_client')!,
				secret: 'acme-corp-client-secret-0123456789',
			});
			fx.credentials.set('mediaGenOAuth2Api', {
				baseUrl: fx.sandbox.baseUrl,
				clientId: 'acme-corp',
				clientSecret: 'acme-corp-client-secret-0123456789',
				authentication: 'body',
			});
			prompts[0] = 'banner for acme-corp, a live concert poster';
			const result = await run('mediaGenOAuth2Api');
			prompts[0] = 'a live concert poster, banner for acme-corp';
			expect(result.items[1].json.error).toBeDefined();
			expect(result.items[0].json.status).toBe('completed');
			expect(JSON.stringify(result.items[0].json)).toContain('banner for acme-corp, a live');
		});
	});

	it('every access token the OAuth2 credential held during the execution is redacted, the one fetched mid-wait too (14)', async () => {
		fx.credentials.set('mediaGenOAuth2Api', {
			baseUrl: fx.sandbox.baseUrl,
			clientId: 'mg_sandbox_client',
			clientSecret: SANDBOX_OAUTH_CLIENT_SECRET,
			authentication: 'body',
		});
		// item A's submit echoes token 1; item B's run is made, token 1 then expires, its first poll
		// is refused (401), n8n fetches token 2 and the poll sent again echoes token 2
		fx.sandbox.injectFault({
			when: 'before',
			method: 'POST',
			path: '/images/generations',
			echo: { secret: 'bearer', in: 'detail' },
		});
		fx.sandbox.injectFault({
			when: 'after',
			method: 'GET',
			path: '/runs/',
			echo: { secret: 'bearer', in: 'detail' },
		});
		const timer = setInterval(() => {
			if (fx.sandbox.state.runs.size === 0) return;
			for (const token of fx.sandbox.state.tokens.values()) token.expiresAt = Date.now() - 1;
			clearInterval(timer);
		}, 2);
		const result = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			credentialType: 'mediaGenOAuth2Api',
			parameters: { ...generate, prompt: '={{ $json.prompt }}' },
			input: [{ json: { prompt: 'a fox' } }, { json: { prompt: 'a hare' } }],
			settings: { onError: 'continueRegularOutput' },
		}).finally(() => clearInterval(timer));
		const tokens = [...fx.sandbox.state.tokens.keys()];
		expect(tokens).toHaveLength(2);
		expect(result.items.map((item) => item.json.code)).toEqual([
			'invalid_parameter',
			'invalid_parameter',
		]);
		const seen = visible(result);
		expect(seen.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(2);
		for (const token of tokens)
			expect({ token, shown: seen.includes(token) }).toEqual({ token, shown: false });
	});
});
