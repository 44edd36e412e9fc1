/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { inspect } from 'node:util';

import {
	NodeApiError,
	type ICredentialDataDecryptedObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type INode,
	type JsonObject,
} from 'n8n-workflow';

import { MediaGenOAuth2Api } from '../../../credentials/MediaGenOAuth2Api.credentials';
import { SecretValues } from '../../../src/transport/redact';
import { apiRequest, type ApiClient } from '../../../src/transport/request';
import { DEFAULT_RETRY_LIMITS } from '../../../src/transport/retry-policy';

const SECRET = 'secret:with%odd/chars that must not leak';
const credential = new MediaGenOAuth2Api();
const node: INode = {
	id: '1',
	name: 'MediaGen Image',
	type: 'mediaGenImage',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function credentials(fields: Record<string, unknown> = {}): ICredentialDataDecryptedObject {
	return {
		baseUrl: 'https://media.example/v1/',
		clientId: 'client one',
		clientSecret: SECRET,
		scope: ' images:write   runs:read ',
		authentication: 'body',
		accessToken: '',
		accessTokenFor: '',
		...fields,
	} as ICredentialDataDecryptedObject;
}

/** preAuthentication with n8n's `{ helpers: { httpRequest } }` as `this`, answering `reply` (or throwing it). */
async function fetchToken(
	fields: Record<string, unknown>,
	reply: { statusCode: number; body: unknown } | Error,
) {
	const sent: IHttpRequestOptions[] = [];
	const helpers = {
		helpers: {
			httpRequest: async (options: IHttpRequestOptions) => {
				sent.push(options);
				if (reply instanceof Error) throw reply;
				return reply;
			},
		},
	};
	const outcome = await credential.preAuthentication
		.call(helpers as never, credentials(fields))
		.catch((e: Error) => e);
	return { sent, outcome };
}

const tokenReply = {
	statusCode: 200,
	body: {
		access_token: 'at_new',
		token_type: 'Bearer',
		expires_in: 3600,
		scope: 'images:write runs:read',
	},
};

describe('MediaGen OAuth2 credential: the token request of the API document', () => {
	it('sends a JSON body with grant_type, client_id, client_secret and the scope, and nothing else', async () => {
		const { sent, outcome } = await fetchToken({}, tokenReply);
		expect(sent).toHaveLength(1);
		expect(sent[0]).toEqual(
			expect.objectContaining({
				method: 'POST',
				url: 'https://media.example/v1/oauth/token',
				json: true,
				disableFollowRedirect: true,
			}),
		);
		expect(sent[0].headers).toEqual({
			Accept: 'application/json',
			'Content-Type': 'application/json',
		});
		expect(sent[0].body).toEqual({
			grant_type: 'client_credentials',
			client_id: 'client one',
			client_secret: SECRET,
			scope: 'images:write runs:read',
		});
		expect(outcome).toEqual({
			accessToken: 'at_new',
			accessTokenFor: expect.stringMatching(/^[0-9a-f]{64}$/),
		});
	});

	it('as HTTP Basic: the form-encoded id and secret in the header, only grant_type and scope in the body', async () => {
		const { sent } = await fetchToken({ authentication: 'header' }, tokenReply);
		const basic = String(sent[0].headers?.Authorization).replace(/^Basic /, '');
		expect(Buffer.from(basic, 'base64').toString('utf8')).toBe(
			`client%20one:${encodeURIComponent(SECRET)}`,
		);
		expect(sent[0].body).toEqual({
			grant_type: 'client_credentials',
			scope: 'images:write runs:read',
		});
	});

	it('leaves scope out when the Scope field is empty (the client’s default scopes)', async () => {
		const { sent } = await fetchToken({ scope: '  ' }, tokenReply);
		expect(sent[0].body).toEqual({
			grant_type: 'client_credentials',
			client_id: 'client one',
			client_secret: SECRET,
		});
	});

	it('sends the token as Bearer only while the settings it was issued for are unchanged', async () => {
		const { outcome } = await fetchToken({}, tokenReply);
		const issued = { ...credentials(), ...(outcome as object) } as ICredentialDataDecryptedObject;
		expect(
			(
				await credential.authenticate(issued, {
					url: '/account',
					headers: { Accept: 'application/json' },
				})
			).headers,
		).toEqual({ Accept: 'application/json', Authorization: 'Bearer at_new' });
		const changes: ICredentialDataDecryptedObject[] = [
			{ accessToken: 'at_other' },
			{ scope: 'images:write' },
			{ clientSecret: 'another' },
			{ clientId: 'client two' },
			{ baseUrl: 'https://other.example/v1' },
			{ authentication: 'header' },
		];
		for (const change of changes) {
			expect(
				(await credential.authenticate({ ...issued, ...change }, { url: '/account' })).headers
					?.Authorization,
			).toBeUndefined();
		}
	});

	it.each([
		[
			'a problem document',
			{
				statusCode: 401,
				body: {
					type: 'x',
					title: 'Unauthorized',
					status: 401,
					detail: 'Unknown client',
					code: 'invalid_client',
					request_id: 'req_1',
				},
			},
			'invalid_client',
			401,
		],
		[
			'a standard OAuth error body',
			{ statusCode: 400, body: { error: 'invalid_scope', error_description: 'galaxies:write' } },
			'invalid_scope',
			400,
		],
		[
			'a non-JSON gateway page',
			{ statusCode: 502, body: '<html>Bad gateway</html>' },
			'http_502',
			502,
		],
		[
			'a 200 without access_token',
			{ statusCode: 200, body: { token_type: 'Bearer' } },
			'unexpected_response',
			200,
		],
	])(
		'a failed token request (%s) keeps the code and never the secret',
		async (_label, reply, code, status) => {
			const { outcome } = await fetchToken({}, reply);
			expect(outcome).toBeInstanceOf(Error);
			expect((outcome as Error).message).toMatch(
				new RegExp(
					`^${code} — The token request of the MediaGen OAuth2 credential failed \\(HTTP ${status}`,
				),
			);
			expect((outcome as { response?: { status?: number; data?: object } }).response).toEqual({
				data: expect.objectContaining({ code, status }),
			});
			expect(inspect(outcome, { depth: 8 })).not.toContain(SECRET);
		},
	);

	it('an unreachable token endpoint gives its network code, not the raw error (it holds the secret)', async () => {
		const raw = Object.assign(new Error('connect ECONNREFUSED'), {
			code: 'ECONNREFUSED',
			config: { data: JSON.stringify({ client_secret: SECRET }) },
		});
		const { outcome } = await fetchToken({}, raw);
		expect((outcome as Error).message).toBe(
			'Could not reach the MediaGen token endpoint (ECONNREFUSED)',
		);
		expect(inspect(outcome, { depth: 8 })).not.toContain(SECRET);
	});

	it('an error n8n raises before sending (no request inside, e.g. a domain the credential may not reach) is passed on as it is', async () => {
		const refusal = new Error('Domain not allowed: media.example');
		expect((await fetchToken({}, refusal)).outcome).toBe(refusal);
	});
});

describe('a failed token request as the node sees it, through the NodeApiError n8n wraps it in', () => {
	async function nodeErrorFor(tokenError: Error, wrap: (e: Error) => Error) {
		const calls: string[] = [];
		const ctx = {
			getNode: () => node,
			helpers: {
				httpRequestWithAuthentication: async (
					_type: string,
					options: { method: string; url: string },
				) => {
					calls.push(`${options.method} ${options.url}`);
					throw wrap(tokenError);
				},
			},
		} as unknown as IExecuteFunctions;
		const client = {
			ctx,
			credentialType: 'mediaGenOAuth2Api',
			baseUrl: 'http://127.0.0.1:1/v1',
			retryLimits: DEFAULT_RETRY_LIMITS,
			requestTimeoutMs: 1000,
			secrets: new SecretValues(),
		} as ApiClient;
		const error = await apiRequest(client, { method: 'GET', path: '/account' }).catch(
			(e: Error) => e,
		);
		return { error: error as NodeApiError, calls };
	}
	const refusedClient = async () =>
		(
			await fetchToken(
				{},
				{
					statusCode: 401,
					body: {
						title: 'Unauthorized',
						status: 401,
						detail: 'Unknown client or wrong client secret',
						code: 'invalid_client',
						request_id: 'req_9',
					},
				},
			)
		).outcome as Error;

	it.each([
		// n8n 2.41 keeps the credential's error as `cause`
		['n8n 2.41', (e: Error) => new NodeApiError(node, e as unknown as JsonObject)],
		// n8n 2.8's NodeApiError loses `cause`; only httpCode and context.data remain
		[
			'n8n 2.8',
			(e: Error) =>
				Object.assign(new NodeApiError(node, e as unknown as JsonObject), { cause: undefined }),
		],
	])(
		'%s: invalid_client with status 401 and request_id, sent once (not retried)',
		async (_label, wrap) => {
			const { error, calls } = await nodeErrorFor(await refusedClient(), wrap);
			expect(error.message).toBe(
				'invalid_client — The token request of the MediaGen OAuth2 credential failed (HTTP 401 from POST /oauth/token): Unknown client or wrong client secret',
			);
			expect(error.context.problem).toEqual(
				expect.objectContaining({ code: 'invalid_client', status: 401, request_id: 'req_9' }),
			);
			expect(calls).toHaveLength(1);
		},
	);

	it('n8n’s own wrapper keeps the credential’s message (what the credential test shows)', async () => {
		expect(
			new NodeApiError(node, (await refusedClient()) as unknown as JsonObject).message,
		).toMatch(/^invalid_client — The token request/);
	});
});
