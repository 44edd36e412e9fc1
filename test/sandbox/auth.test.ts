import {
	SANDBOX_API_KEY,
	SANDBOX_OAUTH_CLIENT_ID,
	SANDBOX_OAUTH_CLIENT_SECRET,
} from '../../sandbox/options';
import type { Sandbox } from '../../sandbox/server';
import { clientFor, expectProblem, openSandbox, sleep } from './helpers';

describe('sandbox authentication', () => {
	let sandbox: Sandbox;

	beforeAll(async () => {
		({ sandbox } = await openSandbox());
	});
	afterAll(() => sandbox.close());

	describe('bearer credentials', () => {
		it('answers 401 unauthorized as a problem document when the Authorization header is missing', async () => {
			const res = await clientFor(sandbox.baseUrl).get('/account');
			expectProblem(res, 401, 'unauthorized');
		});

		it.each([
			['a Basic scheme', 'Basic dXNlcjpwYXNz'],
			['a bearer without a token', 'Bearer'],
			['a token without a scheme', 'mg_sandbox_full_access_key'],
			['two tokens', 'Bearer one two'],
		])('answers 401 unauthorized for a malformed header (%s)', async (_name, header) => {
			const res = await clientFor(sandbox.baseUrl).get('/account', {
				headers: { Authorization: header },
			});
			expectProblem(res, 401, 'unauthorized');
		});

		it('answers 401 unauthorized for an unknown bearer token', async () => {
			const res = await clientFor(sandbox.baseUrl, 'mg_key_nobody_has_this').get('/account');
			expectProblem(res, 401, 'unauthorized');
		});

		it('serves the account to the ready-made API key', async () => {
			const res = await clientFor(sandbox.baseUrl, SANDBOX_API_KEY).get('/account');
			expect(res.status).toBe(200);
			expect(res.data).toEqual(
				expect.objectContaining({ object: 'account', id: 'acc_sandbox', status: 'active' }),
			);
			expect(res.data).not.toHaveProperty('balance');
		});
	});

	describe('POST /oauth/token (client credentials)', () => {
		const http = () => clientFor(sandbox.baseUrl);

		it('issues a Bearer token for client credentials in a JSON body, and the token authenticates', async () => {
			const res = await http().post('/oauth/token', {
				grant_type: 'client_credentials',
				client_id: SANDBOX_OAUTH_CLIENT_ID,
				client_secret: SANDBOX_OAUTH_CLIENT_SECRET,
				scope: 'account:read credits:read',
			});
			expect(res.status).toBe(200);
			expect(res.data).toEqual({
				access_token: expect.any(String),
				token_type: 'Bearer',
				expires_in: 3600,
				scope: 'account:read credits:read',
			});
			const account = await clientFor(sandbox.baseUrl, res.data.access_token).get('/account');
			expect(account.status).toBe(200);
			expect(account.data.id).toBe('acc_sandbox');
		});

		it('grants only the requested scopes: a token for account:read gets 403 on a runs:read route', async () => {
			const res = await http().post('/oauth/token', {
				grant_type: 'client_credentials',
				client_id: SANDBOX_OAUTH_CLIENT_ID,
				client_secret: SANDBOX_OAUTH_CLIENT_SECRET,
				scope: 'account:read',
			});
			const problem = expectProblem(
				await clientFor(sandbox.baseUrl, res.data.access_token).get('/runs'),
				403,
				'insufficient_scope',
			);
			expect(problem.required_scope).toBe('runs:read');
		});

		it('refuses a form-urlencoded body with 400 invalid_request and issues no token (the document specifies JSON)', async () => {
			const before = sandbox.state.tokensIssued;
			const form = new URLSearchParams({
				grant_type: 'client_credentials',
				client_id: SANDBOX_OAUTH_CLIENT_ID,
				client_secret: SANDBOX_OAUTH_CLIENT_SECRET,
				scope: 'models:read',
			});
			const problem = expectProblem(
				await http().post('/oauth/token', form.toString(), {
					headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
				}),
				400,
				'invalid_request',
			);
			expect(problem.detail).toMatch(/JSON/);
			expect(sandbox.state.tokensIssued).toBe(before);
		});

		it('refuses any property besides grant_type, client_id, client_secret and scope (400 invalid_request naming it)', async () => {
			const body = {
				grant_type: 'client_credentials',
				client_id: SANDBOX_OAUTH_CLIENT_ID,
				client_secret: SANDBOX_OAUTH_CLIENT_SECRET,
			};
			const extra = expectProblem(
				await http().post('/oauth/token', { ...body, audience: 'api' }),
				400,
				'invalid_request',
			);
			expect(extra.param).toBe('audience');
			expect((await http().post('/oauth/token', body)).status).toBe(200);
		});

		it('with HTTP Basic, the body holds grant_type and scope only', async () => {
			const basic = {
				auth: { username: SANDBOX_OAUTH_CLIENT_ID, password: SANDBOX_OAUTH_CLIENT_SECRET },
			};
			const twice = expectProblem(
				await http().post(
					'/oauth/token',
					{ grant_type: 'client_credentials', client_id: SANDBOX_OAUTH_CLIENT_ID },
					basic,
				),
				400,
				'invalid_request',
			);
			expect(twice.param).toBe('client_id');
			expectProblem(
				await http().post('/oauth/token', { scope: 'models:read' }, basic),
				400,
				'invalid_request',
			);
			expectProblem(
				await http().post('/oauth/token', { grant_type: 'password' }, basic),
				400,
				'unsupported_grant_type',
			);
		});

		it('accepts the client id and secret as HTTP Basic', async () => {
			const res = await http().post(
				'/oauth/token',
				{ grant_type: 'client_credentials', scope: 'credits:read' },
				{ auth: { username: SANDBOX_OAUTH_CLIENT_ID, password: SANDBOX_OAUTH_CLIENT_SECRET } },
			);
			expect(res.status).toBe(200);
			expect(res.data.token_type).toBe('Bearer');
			expect(
				(await clientFor(sandbox.baseUrl, res.data.access_token).get('/account/credits')).status,
			).toBe(200);
		});

		it('answers 401 invalid_client for a wrong client secret (JSON and Basic)', async () => {
			expectProblem(
				await http().post('/oauth/token', {
					grant_type: 'client_credentials',
					client_id: SANDBOX_OAUTH_CLIENT_ID,
					client_secret: 'wrong',
				}),
				401,
				'invalid_client',
			);
			expectProblem(
				await http().post(
					'/oauth/token',
					{ grant_type: 'client_credentials' },
					{ auth: { username: SANDBOX_OAUTH_CLIENT_ID, password: 'wrong' } },
				),
				401,
				'invalid_client',
			);
		});

		it('answers 401 invalid_client for an unknown client id', async () => {
			expectProblem(
				await http().post('/oauth/token', {
					grant_type: 'client_credentials',
					client_id: 'nobody',
					client_secret: SANDBOX_OAUTH_CLIENT_SECRET,
				}),
				401,
				'invalid_client',
			);
		});

		it('answers 400 invalid_scope for an unknown scope and issues no token', async () => {
			const before = sandbox.state.tokensIssued;
			const problem = expectProblem(
				await http().post('/oauth/token', {
					grant_type: 'client_credentials',
					client_id: SANDBOX_OAUTH_CLIENT_ID,
					client_secret: SANDBOX_OAUTH_CLIENT_SECRET,
					scope: 'account:read galaxies:write',
				}),
				400,
				'invalid_scope',
			);
			expect(problem.detail).toContain('galaxies:write');
			expect(sandbox.state.tokensIssued).toBe(before);
		});

		it("gives the client's default scopes when scope is omitted", async () => {
			const res = await http().post('/oauth/token', {
				grant_type: 'client_credentials',
				client_id: SANDBOX_OAUTH_CLIENT_ID,
				client_secret: SANDBOX_OAUTH_CLIENT_SECRET,
			});
			expect(res.status).toBe(200);
			const defaults = sandbox.state.oauthClients.get(SANDBOX_OAUTH_CLIENT_ID)!.defaultScopes;
			expect(defaults.length).toBeGreaterThan(0);
			expect(res.data.scope.split(' ').sort()).toEqual([...defaults].sort());
		});
	});
});

describe('sandbox OAuth token expiry', () => {
	let sandbox: Sandbox;

	beforeAll(async () => {
		({ sandbox } = await openSandbox({ tokenTtlSeconds: 1 }));
	});
	afterAll(() => sandbox.close());

	it('accepts a token until expires_in passes, then answers 401 unauthorized', async () => {
		const res = await clientFor(sandbox.baseUrl).post('/oauth/token', {
			grant_type: 'client_credentials',
			client_id: SANDBOX_OAUTH_CLIENT_ID,
			client_secret: SANDBOX_OAUTH_CLIENT_SECRET,
			scope: 'account:read',
		});
		expect(res.data.expires_in).toBe(1);
		const http = clientFor(sandbox.baseUrl, res.data.access_token);
		expect((await http.get('/account')).status).toBe(200);
		await sleep(1100);
		const problem = expectProblem(await http.get('/account'), 401, 'unauthorized');
		expect(problem.detail).toMatch(/expired/i);
	});
});
