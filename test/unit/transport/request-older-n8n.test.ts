import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { SecretValues } from '../../../src/transport/redact';
import { apiRequest, type ApiClient } from '../../../src/transport/request';
import { DEFAULT_RETRY_LIMITS } from '../../../src/transport/retry-policy';

const node: INode = {
	id: '1',
	name: 'MediaGen Image',
	type: 'mediaGenImage',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** What n8n 2.8's httpRequestWithAuthentication throws for an HTTP error: no `cause`, only httpCode and context.data. */
function n8n28Error(status: number, body?: Record<string, unknown>): Error {
	return Object.assign(new Error(`Request failed with status code ${status}`), {
		cause: undefined,
		httpCode: String(status),
		context: body ? { data: body } : {},
		description: null,
	});
}

function clientThrowing(error: Error, calls: string[]): ApiClient {
	const ctx = {
		getNode: () => node,
		helpers: {
			httpRequestWithAuthentication: async (
				_type: string,
				options: { method: string; url: string },
			) => {
				calls.push(`${options.method} ${options.url}`);
				throw error;
			},
		},
	} as unknown as IExecuteFunctions;
	return {
		ctx,
		credentialType: 'mediaGenApi',
		baseUrl: 'http://127.0.0.1:1/v1',
		retryLimits: { ...DEFAULT_RETRY_LIMITS, maxTransientRetries: 0 },
		requestTimeoutMs: 1000,
		secrets: new SecretValues(),
	} as ApiClient;
}

describe('apiRequest with the errors older n8n (2.8) throws', () => {
	it('reads the status and the problem document from httpCode and context.data, and does not resend a 403', async () => {
		const calls: string[] = [];
		const client = clientThrowing(
			n8n28Error(403, {
				code: 'insufficient_scope',
				title: 'Missing scope',
				detail: 'required_scope: images:write',
				status: 403,
			}),
			calls,
		);
		const error = await apiRequest(client, {
			method: 'POST',
			path: '/images/generations',
			body: { prompt: 'x' },
			idempotencyKey: 'k',
		}).catch((e: Error) => e);
		expect((error as Error).message).toMatch(/^insufficient_scope/);
		expect(calls).toHaveLength(1);
	});

	it('without a JSON body still reports the HTTP status, not a network error', async () => {
		const error = await apiRequest(clientThrowing(n8n28Error(404), []), {
			method: 'GET',
			path: '/runs/run_x',
		}).catch((e: Error) => e);
		expect((error as Error).message).toMatch(/^http_404/);
	});
});
