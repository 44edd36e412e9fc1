import axios, { type AxiosRequestConfig } from 'axios';
import nock from 'nock';
import {
	NodeApiError,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type INode,
	type JsonObject,
} from 'n8n-workflow';

import { problemOf } from '../../../src/transport/problem';
import { SecretValues } from '../../../src/transport/redact';
import { apiRequest, type ApiClient } from '../../../src/transport/request';
import { DEFAULT_RETRY_LIMITS } from '../../../src/transport/retry-policy';

const ORIGIN = 'http://mediagen.test';
const BASE_URL = `${ORIGIN}/v1`;
const SECRET = 'mg_live_secret_value_that_must_never_leak';

const node: INode = {
	id: 'node-1',
	name: 'MediaGen Image',
	type: 'n8n-nodes-mediagen.mediaGenImage',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

const problemHeaders = { 'Content-Type': 'application/problem+json' };
function problem(status: number, code: string, extra: Record<string, unknown> = {}) {
	return {
		type: `${ORIGIN}/errors/${code}`,
		title: 'Problem',
		status,
		detail: `detail of ${code}`,
		code,
		request_id: `req_${code}`,
		...extra,
	};
}

/** An Error instance (nock 14 hangs the request when replyWithError gets a plain object). */
function networkError(code: string, message: string): Error {
	return Object.assign(new Error(message), { code });
}

interface Sent {
	helper: 'httpRequest' | 'httpRequestWithAuthentication';
	credentialType?: string;
	options: IHttpRequestOptions;
}

/**
 * A stand-in for n8n's request helpers: real HTTP with axios; on a status >= 400 or a network
 * failure it throws `new NodeApiError(node, axiosError)` as n8n does, so the axios error (with its
 * config, which holds the Authorization header) is the error's `cause`.
 */
function fakeContext(sent: Sent[]): IExecuteFunctions {
	async function perform(options: IHttpRequestOptions, authorization?: string) {
		const config: AxiosRequestConfig = {
			method: options.method,
			url: options.url,
			params: options.qs,
			data: options.body,
			headers: {
				...(options.headers as Record<string, string>),
				...(authorization ? { Authorization: authorization } : {}),
			},
			timeout: options.timeout,
			validateStatus: (status) => status < 400,
		};
		try {
			const response = await axios.request(config);
			return options.returnFullResponse
				? { statusCode: response.status, headers: response.headers, body: response.data }
				: response.data;
		} catch (error) {
			throw new NodeApiError(node, error as JsonObject);
		}
	}
	const ctx = {
		getNode: () => node,
		helpers: {
			httpRequest: async (options: IHttpRequestOptions) => {
				sent.push({ helper: 'httpRequest', options });
				return await perform(options);
			},
			httpRequestWithAuthentication: async function (
				this: unknown,
				credentialType: string,
				options: IHttpRequestOptions,
			) {
				sent.push({ helper: 'httpRequestWithAuthentication', credentialType, options });
				return await perform(options, `Bearer ${SECRET}`);
			},
		},
	};
	return ctx as unknown as IExecuteFunctions;
}

function newClient() {
	const sent: Sent[] = [];
	const attempts: string[] = [];
	const client: ApiClient = {
		ctx: fakeContext(sent),
		credentialType: 'mediaGenApi',
		baseUrl: BASE_URL,
		retryLimits: { ...DEFAULT_RETRY_LIMITS, baseDelayMs: 10, maxTransientRetries: 3 },
		requestTimeoutMs: 5000,
		onAttempt: (method, path) => attempts.push(`${method} ${path}`),
		secrets: new SecretValues(),
	};
	return { client, sent, attempts };
}

async function rejectionOf(promise: Promise<unknown>): Promise<NodeApiError> {
	try {
		await promise;
	} catch (error) {
		return error as NodeApiError;
	}
	throw new Error('expected the request to fail');
}

function expectNoSecret(error: NodeApiError) {
	expect(error.message).not.toContain(SECRET);
	expect(String(error.description ?? '')).not.toContain(SECRET);
	expect(JSON.stringify(error.context)).not.toContain(SECRET);
}

const generation = {
	method: 'POST' as const,
	path: '/images/generations',
	body: { prompt: 'a fox' },
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => {
	nock.enableNetConnect();
	// unpatch node:http: later test files in this worker would otherwise reach this file's interceptor
	nock.restore();
});

describe('apiRequest through the n8n request helpers', () => {
	it('authenticates with the credential, asks for the full response and returns {status, headers, body}', async () => {
		const scope = nock(ORIGIN)
			.matchHeader('authorization', `Bearer ${SECRET}`)
			.matchHeader('accept', 'application/json')
			.get('/v1/runs')
			.query({ limit: '2', status: 'completed' })
			.reply(200, { object: 'list', data: [], has_more: false }, { 'X-Request-Id': 'req_1' });
		const { client, sent } = newClient();
		const response = await apiRequest(client, {
			method: 'GET',
			path: '/runs',
			qs: { limit: 2, status: 'completed' },
		});
		expect(response).toEqual({
			status: 200,
			body: { object: 'list', data: [], has_more: false },
			headers: expect.objectContaining({ 'x-request-id': 'req_1' }),
		});
		expect(sent).toHaveLength(1);
		expect(sent[0]).toEqual(
			expect.objectContaining({
				helper: 'httpRequestWithAuthentication',
				credentialType: 'mediaGenApi',
			}),
		);
		expect(sent[0].options).toEqual(
			expect.objectContaining({ url: `${BASE_URL}/runs`, json: true, returnFullResponse: true }),
		);
		expect(scope.isDone()).toBe(true);
	});

	it('with the API key read once (client.authorization) sends it itself through httpRequest, with the cancel signal and no redirects', async () => {
		const scope = nock(ORIGIN)
			.matchHeader('authorization', 'Bearer mg_key_read_once')
			.get('/v1/account')
			.twice()
			.reply(200, { id: 'acc_1' });
		const { client, sent } = newClient();
		const cancel = new AbortController();
		Object.assign(client, { authorization: 'Bearer mg_key_read_once', signal: cancel.signal });
		await apiRequest(client, { method: 'GET', path: '/account' });
		await apiRequest(client, { method: 'GET', path: '/account' });
		expect(sent.map((s) => s.helper)).toEqual(['httpRequest', 'httpRequest']);
		expect(sent[0].options).toEqual(
			expect.objectContaining({
				abortSignal: cancel.signal,
				disableFollowRedirect: true,
				sendCredentialsOnCrossOriginRedirect: false,
			}),
		);
		expect(scope.isDone()).toBe(true);
	});

	it("sends auth: 'none' requests through httpRequest, without a credential", async () => {
		const scope = nock(ORIGIN, { badheaders: ['authorization'] })
			.post('/v1/oauth/token')
			.reply(200, { access_token: 'at_1' });
		const { client, sent } = newClient();
		const response = await apiRequest(client, {
			method: 'POST',
			path: '/oauth/token',
			body: { grant_type: 'client_credentials' },
			auth: 'none',
		});
		expect(response.body).toEqual({ access_token: 'at_1' });
		expect(sent.map((s) => s.helper)).toEqual(['httpRequest']);
		expect(scope.isDone()).toBe(true);
	});

	it('sends the Idempotency-Key header when the request has one', async () => {
		const scope = nock(ORIGIN)
			.matchHeader('idempotency-key', 'key-1')
			.post('/v1/images/generations', { prompt: 'a fox' })
			.reply(202, { id: 'run_1', status: 'queued' });
		const { client } = newClient();
		const response = await apiRequest(client, { ...generation, idempotencyKey: 'key-1' });
		expect(response.status).toBe(202);
		expect(response.body).toEqual({ id: 'run_1', status: 'queued' });
		expect(scope.isDone()).toBe(true);
	});

	it('the fake helper throws like n8n: a NodeApiError whose cause carries the HTTP response', async () => {
		nock(ORIGIN).get('/v1/account').reply(404, problem(404, 'not_found'), problemHeaders);
		const { client } = newClient();
		const thrown = await rejectionOf(
			client.ctx.helpers.httpRequestWithAuthentication.call(client.ctx, 'mediaGenApi', {
				method: 'GET',
				url: `${BASE_URL}/account`,
				json: true,
			}),
		);
		expect(thrown).toBeInstanceOf(NodeApiError);
		expect((thrown.cause as { response?: { status?: number } }).response?.status).toBe(404);
	});
});

describe('apiRequest retries', () => {
	it('sends a POST without Idempotency-Key exactly once when it gets a 503, and the error carries the code', async () => {
		const scope = nock(ORIGIN)
			.post('/v1/images/generations')
			.times(2)
			.reply(503, problem(503, 'service_unavailable'), problemHeaders);
		const { client, attempts } = newClient();
		const error = await rejectionOf(apiRequest(client, generation));
		expect(attempts).toEqual(['POST /images/generations']);
		expect(scope.pendingMocks()).toHaveLength(1);
		expect(problemOf(error)).toEqual(
			expect.objectContaining({
				code: 'service_unavailable',
				status: 503,
				request_id: 'req_service_unavailable',
			}),
		);
		expect(error.message.startsWith('service_unavailable')).toBe(true);
		expect(error.httpCode).toBe('503');
	});

	it('sends a POST without Idempotency-Key exactly once when the connection resets, and the error carries a code', async () => {
		const scope = nock(ORIGIN)
			.post('/v1/images/generations')
			.times(2)
			.replyWithError(networkError('ECONNRESET', 'socket hang up'));
		const { client, attempts } = newClient();
		const error = await rejectionOf(apiRequest(client, generation));
		expect(attempts).toEqual(['POST /images/generations']);
		expect(scope.pendingMocks()).toHaveLength(1);
		expect(error).toBeInstanceOf(NodeApiError);
		const carried = problemOf(error);
		expect(carried?.code).toBe('network_error');
		expect(carried?.detail).toContain('ECONNRESET');
		expect(error.message.startsWith('network_error')).toBe(true);
		expectNoSecret(error);
	});

	it('resends a POST with an Idempotency-Key after a 503 (same key) and returns the success', async () => {
		const scope = nock(ORIGIN)
			.matchHeader('idempotency-key', 'key-503')
			.post('/v1/images/generations')
			.reply(503, problem(503, 'service_unavailable'), problemHeaders)
			.post('/v1/images/generations')
			.reply(202, { id: 'run_2', status: 'queued' });
		const { client, attempts } = newClient();
		const response = await apiRequest(client, { ...generation, idempotencyKey: 'key-503' });
		expect(response).toEqual(
			expect.objectContaining({ status: 202, body: { id: 'run_2', status: 'queued' } }),
		);
		expect(attempts).toHaveLength(2);
		expect(scope.isDone()).toBe(true);
	});

	it('resends a POST with an Idempotency-Key after a connection reset', async () => {
		const scope = nock(ORIGIN)
			.matchHeader('idempotency-key', 'key-reset')
			.post('/v1/images/generations')
			.replyWithError(networkError('ECONNRESET', 'socket hang up'))
			.post('/v1/images/generations')
			.reply(202, { id: 'run_3', status: 'queued' });
		const { client, attempts } = newClient();
		const response = await apiRequest(client, { ...generation, idempotencyKey: 'key-reset' });
		expect(response.body).toEqual({ id: 'run_3', status: 'queued' });
		expect(attempts).toHaveLength(2);
		expect(scope.isDone()).toBe(true);
	});

	it('resends a GET after a 500', async () => {
		const scope = nock(ORIGIN)
			.get('/v1/runs/run_1')
			.reply(500, problem(500, 'internal_error'), problemHeaders)
			.get('/v1/runs/run_1')
			.reply(200, { id: 'run_1', status: 'completed' });
		const { client, attempts } = newClient();
		const response = await apiRequest(client, { method: 'GET', path: '/runs/run_1' });
		expect(response.body).toEqual({ id: 'run_1', status: 'completed' });
		expect(attempts).toEqual(['GET /runs/run_1', 'GET /runs/run_1']);
		expect(scope.isDone()).toBe(true);
	});

	it('gives up on a GET after maxTransientRetries resends and reports the last status', async () => {
		const scope = nock(ORIGIN)
			.get('/v1/account')
			.times(5)
			.reply(502, 'Bad Gateway', { 'Content-Type': 'text/plain' });
		const { client, attempts } = newClient();
		const error = await rejectionOf(apiRequest(client, { method: 'GET', path: '/account' }));
		expect(attempts).toHaveLength(1 + client.retryLimits.maxTransientRetries);
		expect(scope.pendingMocks()).toHaveLength(1);
		expect(problemOf(error)).toEqual(expect.objectContaining({ code: 'http_502', status: 502 }));
		expect(error.message.startsWith('http_502')).toBe(true);
	});

	it('does not resend a 4xx problem, even for a GET', async () => {
		const scope = nock(ORIGIN)
			.get('/v1/runs/run_x')
			.times(2)
			.reply(404, problem(404, 'not_found'), problemHeaders);
		const { client, attempts } = newClient();
		await rejectionOf(apiRequest(client, { method: 'GET', path: '/runs/run_x' }));
		expect(attempts).toHaveLength(1);
		expect(scope.pendingMocks()).toHaveLength(1);
	});

	it('retries a 429 with Retry-After: 0, even a POST without key, and succeeds', async () => {
		const scope = nock(ORIGIN)
			.post('/v1/images/generations')
			.reply(429, problem(429, 'rate_limited'), { ...problemHeaders, 'Retry-After': '0' })
			.post('/v1/images/generations')
			.reply(202, { id: 'run_4', status: 'queued' });
		const { client, attempts } = newClient();
		const response = await apiRequest(client, generation);
		expect(response.body).toEqual({ id: 'run_4', status: 'queued' });
		expect(attempts).toHaveLength(2);
		expect(scope.isDone()).toBe(true);
	});

	it('waits the Retry-After: 1 of a 429 before retrying, and sends the same Idempotency-Key', async () => {
		const times: number[] = [];
		const scope = nock(ORIGIN)
			.matchHeader('idempotency-key', 'key-429')
			.post('/v1/images/generations')
			.reply(() => {
				times.push(Date.now());
				return [429, problem(429, 'rate_limited'), { ...problemHeaders, 'Retry-After': '1' }];
			})
			.post('/v1/images/generations')
			.reply(() => {
				times.push(Date.now());
				return [202, { id: 'run_5', status: 'queued' }];
			});
		const { client } = newClient();
		const response = await apiRequest(client, { ...generation, idempotencyKey: 'key-429' });
		expect(response.status).toBe(202);
		expect(scope.isDone()).toBe(true);
		expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
		expect(times[1] - times[0]).toBeLessThan(2000);
	});
});

describe('apiRequest errors', () => {
	it('turns a problem document into an error whose message starts with the code and whose context.problem keeps code/status/request_id', async () => {
		nock(ORIGIN)
			.post('/v1/images/generations')
			.reply(
				403,
				problem(403, 'insufficient_scope', { required_scope: 'images:write' }),
				problemHeaders,
			);
		const { client } = newClient();
		const error = await rejectionOf(
			apiRequest(client, { ...generation, idempotencyKey: 'key-403', itemIndex: 2 }),
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message.startsWith('insufficient_scope')).toBe(true);
		expect(error.httpCode).toBe('403');
		expect(error.context.itemIndex).toBe(2);
		expect(error.context.problem).toEqual(
			expect.objectContaining({
				code: 'insufficient_scope',
				status: 403,
				request_id: 'req_insufficient_scope',
				required_scope: 'images:write',
			}),
		);
		expect(error.description).toContain('required_scope: images:write');
		expect(error.description).toContain('request_id: req_insufficient_scope');
	});

	it('keeps a problem that arrives as text (no JSON content type)', async () => {
		nock(ORIGIN)
			.get('/v1/account')
			.reply(401, JSON.stringify(problem(401, 'unauthorized')), { 'Content-Type': 'text/plain' });
		const { client } = newClient();
		const error = await rejectionOf(apiRequest(client, { method: 'GET', path: '/account' }));
		expect(problemOf(error)?.code).toBe('unauthorized');
		expect(error.message.startsWith('unauthorized')).toBe(true);
	});

	it('names a non-problem failure http_<status> with the start of its body', async () => {
		nock(ORIGIN)
			.get('/v1/account')
			.reply(418, '<html>teapot</html>', { 'Content-Type': 'text/html' });
		const { client } = newClient();
		const error = await rejectionOf(apiRequest(client, { method: 'GET', path: '/account' }));
		expect(problemOf(error)).toEqual(
			expect.objectContaining({ code: 'http_418', status: 418, detail: '<html>teapot</html>' }),
		);
	});

	it.each<[string, () => nock.Scope]>([
		[
			'a 401 problem',
			() =>
				nock(ORIGIN).get('/v1/account').reply(401, problem(401, 'unauthorized'), problemHeaders),
		],
		['a 500 without a problem', () => nock(ORIGIN).get('/v1/account').times(10).reply(500, 'oops')],
		[
			'a connection reset',
			() =>
				nock(ORIGIN)
					.get('/v1/account')
					.times(10)
					.replyWithError(networkError('ECONNRESET', 'socket hang up')),
		],
		[
			'a refused connection',
			() =>
				nock(ORIGIN)
					.get('/v1/account')
					.times(10)
					.replyWithError(networkError('ECONNREFUSED', 'connect ECONNREFUSED')),
		],
	])('never puts the Authorization header value into the error (%s)', async (_name, mock) => {
		mock();
		const { client } = newClient();
		const error = await rejectionOf(apiRequest(client, { method: 'GET', path: '/account' }));
		expect(error).toBeInstanceOf(NodeApiError);
		expect(problemOf(error)?.code).toEqual(expect.any(String));
		expectNoSecret(error);
	});
});
