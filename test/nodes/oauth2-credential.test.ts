/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { inspect } from 'node:util';

import type { IDataObject } from 'n8n-workflow';

import { MediaGenAccount } from '../../nodes/MediaGenAccount/MediaGenAccount.node';
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { SANDBOX_OAUTH_CLIENT_ID, SANDBOX_OAUTH_CLIENT_SECRET } from '../../sandbox/options';
import type { Sandbox } from '../../sandbox/server';
import { ALL_NODE_SCOPES } from '../../src/credentials/scopes';
import { runNode, type NodeRun } from '../helpers/n8n-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';

const generate = { resource: 'image', operation: 'generate', prompt: 'a red fox' };
const getAccount = { resource: 'account', operation: 'get' };

const tokenRequests = (sandbox: Sandbox) => posts(sandbox, '/oauth/token');
const issuedScopes = (sandbox: Sandbox) =>
	[...sandbox.state.tokens.values()].map((t) => [...t.scopes].sort());
const refused = (sandbox: Sandbox) =>
	sandbox.state.requests.filter((r) => r.status === 401).map((r) => `${r.method} ${r.path}`);
const visible = (result: NodeRun) =>
	[
		JSON.stringify(result.items),
		inspect(result.error, { depth: 6 }),
		JSON.stringify(result.run.data.resultData),
	].join('\n');

/** Expires every access token the sandbox issued, as soon as `condition` holds (checked every 2 ms). */
function expireTokensWhen(sandbox: Sandbox, condition: () => boolean): () => void {
	const timer = setInterval(() => {
		if (!condition()) return;
		for (const token of sandbox.state.tokens.values()) token.expiresAt = Date.now() - 1;
		clearInterval(timer);
	}, 2);
	return () => clearInterval(timer);
}

describe('MediaGen OAuth2 credential in n8n-core: the document’s token request, cached, fetched again on 401', () => {
	let fx: Fixture;
	const useClient = (fields: Record<string, unknown>) =>
		fx.credentials.set('mediaGenOAuth2Api', {
			baseUrl: fx.sandbox.baseUrl,
			clientId: SANDBOX_OAUTH_CLIENT_ID,
			clientSecret: SANDBOX_OAUTH_CLIENT_SECRET,
			...fields,
		});
	const run = (nodeType: MediaGenAccount | MediaGenImage, parameters: IDataObject, settings = {}) =>
		runNode({
			nodeType,
			credentials: fx.credentials,
			credentialType: 'mediaGenOAuth2Api',
			parameters,
			settings,
		});

	beforeEach(async () => {
		fx = await startFixture();
	});
	afterEach(async () => fx.sandbox.close());

	it.each([
		['in the JSON body', 'body'],
		['as HTTP Basic', 'header'],
	])(
		'gets a token with the client %s, asking for every scope the nodes need, and keeps it for the next execution',
		async (_label, authentication) => {
			useClient({ authentication });
			const first = await run(new MediaGenAccount(), getAccount);
			expect(first.error).toBeUndefined();
			expect(first.items[0].json.object).toBe('account');
			const second = await run(new MediaGenAccount(), getAccount);
			expect(second.error).toBeUndefined();
			// the strict sandbox answers 200 only to a JSON body with the document's properties (or Basic)
			expect(tokenRequests(fx.sandbox).map((r) => r.status)).toEqual([200]);
			expect(issuedScopes(fx.sandbox)).toEqual([[...ALL_NODE_SCOPES].sort()]);
			expect(refused(fx.sandbox)).toEqual([]);
			expect(fx.credentials.tokenUpdates).toBe(1);
		},
	);

	it('with an empty Scope asks for the client’s default scopes', async () => {
		useClient({ authentication: 'body', scope: '' });
		expect((await run(new MediaGenAccount(), getAccount)).error).toBeUndefined();
		const client = fx.sandbox.state.oauthClients.get(SANDBOX_OAUTH_CLIENT_ID)!;
		expect(issuedScopes(fx.sandbox)).toEqual([[...client.defaultScopes].sort()]);
	});

	it('a token that expires between the submit and the first poll is fetched again once; one run, charged once', async () => {
		useClient({ authentication: 'body' });
		const stop = expireTokensWhen(fx.sandbox, () => fx.sandbox.state.runs.size > 0);
		const { items, error } = await run(new MediaGenImage(), generate).finally(stop);
		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('completed');
		expect(tokenRequests(fx.sandbox).map((r) => r.status)).toEqual([200, 200]);
		expect(refused(fx.sandbox)).toEqual([`GET /v1/runs/${String(items[0].json.id)}`]);
		expect(fx.sandbox.state.runs.size).toBe(1);
		expect(fx.sandbox.state.ledger).toHaveLength(1);
		expect(fx.credentials.tokenUpdates).toBe(2);
	});

	it('a kept token that expired before the submit: the refused submit is sent again with a new token and the same Idempotency-Key; one run, one charge', async () => {
		useClient({ authentication: 'header' });
		expect((await run(new MediaGenImage(), generate)).error).toBeUndefined();
		for (const token of fx.sandbox.state.tokens.values()) token.expiresAt = Date.now() - 1;
		const before = fx.sandbox.state.requests.length;

		const { items, error } = await run(new MediaGenImage(), generate);
		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('completed');
		const submits = posts(fx.sandbox, '/images/generations').filter(
			(r) => fx.sandbox.state.requests.indexOf(r) >= before,
		);
		expect(submits.map((r) => r.status)).toEqual([401, 202]);
		expect(submits[0].idempotencyKey).toBe(submits[1].idempotencyKey);
		expect(tokenRequests(fx.sandbox).map((r) => r.status)).toEqual([200, 200]);
		expect(fx.sandbox.state.runsWithKey(submits[1].idempotencyKey!)).toHaveLength(1);
		expect(fx.sandbox.state.chargesForKey(submits[1].idempotencyKey!)).toHaveLength(1);
	});

	it('a wrong client secret fails with the service’s invalid_client after one token request, and the secret is not shown', async () => {
		const wrongSecret = 'client_secret_that_must_not_leak_0451';
		useClient({ authentication: 'body', clientSecret: wrongSecret });
		const result = await run(new MediaGenImage(), generate);
		expect(result.error?.message).toMatch(
			/^invalid_client — The token request of the MediaGen OAuth2 credential failed \(HTTP 401/,
		);
		expect(result.error?.context?.problem).toEqual(
			expect.objectContaining({ code: 'invalid_client', status: 401 }),
		);
		expect(result.error?.description).toMatch(/check its Client ID and Client Secret/);
		expect(tokenRequests(fx.sandbox).map((r) => r.status)).toEqual([401]);
		expect(posts(fx.sandbox, '/images/generations')).toHaveLength(0);
		expect(visible(result)).not.toContain(wrongSecret);
	});

	it('a scope the client is not granted fails with invalid_scope (Continue On Fail item), nothing spent', async () => {
		useClient({ authentication: 'header', scope: 'images:write galaxies:write' });
		const result = await run(new MediaGenImage(), generate, { onError: 'continueRegularOutput' });
		expect(result.items[0].json).toEqual(
			expect.objectContaining({
				code: 'invalid_scope',
				status: 400,
				hint: expect.stringMatching(/leave Scope empty/),
			}),
		);
		expect(fx.sandbox.state.ledger).toHaveLength(0);
		expect(visible(result)).not.toContain(SANDBOX_OAUTH_CLIENT_SECRET);
	});

	it('a kept token is not sent once the user changed the Scope: a token for the new scopes is fetched', async () => {
		useClient({ authentication: 'body', scope: 'account:read' });
		expect((await run(new MediaGenAccount(), getAccount)).error).toBeUndefined();
		fx.credentials.set('mediaGenOAuth2Api', {
			...fx.credentials.store.get('mediaGenOAuth2Api'),
			scope: 'account:read credits:read',
		});
		const credits = await run(new MediaGenAccount(), {
			resource: 'account',
			operation: 'getCredits',
		});
		expect(credits.error).toBeUndefined();
		expect(issuedScopes(fx.sandbox)).toEqual([['account:read'], ['account:read', 'credits:read']]);
	});
});
