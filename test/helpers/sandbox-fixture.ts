import {
	SANDBOX_API_KEY,
	SANDBOX_OAUTH_CLIENT_ID,
	SANDBOX_OAUTH_CLIENT_SECRET,
	type SandboxOptions,
} from '../../sandbox/options';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { forgetModels } from '../../src/models/model-catalog';
import { closeWithContractCheck } from './contract';
import { TestCredentialsHelper } from './n8n-harness';

export interface Fixture {
	sandbox: Sandbox;
	credentials: TestCredentialsHelper;
}

/** A sandbox on an ephemeral 127.0.0.1 port and credentials (API key and OAuth2) pointing at it. */
export async function startFixture(options: Partial<SandboxOptions> = {}): Promise<Fixture> {
	forgetModels();
	const sandbox = closeWithContractCheck(await startSandbox({ latencyMs: 150, ...options }));
	const credentials = new TestCredentialsHelper();
	credentials.set('mediaGenApi', { baseUrl: sandbox.baseUrl, apiKey: SANDBOX_API_KEY });
	credentials.set('mediaGenOAuth2Api', {
		baseUrl: sandbox.baseUrl,
		clientId: SANDBOX_OAUTH_CLIENT_ID,
		clientSecret: SANDBOX_OAUTH_CLIENT_SECRET,
		authentication: 'body',
	});
	return { sandbox, credentials };
}

/** POST requests that reached the sandbox on a path. */
export function posts(sandbox: Sandbox, path: string) {
	return sandbox.state.requests.filter((r) => r.method === 'POST' && r.path === `/v1${path}`);
}

/**
 * The service's estimate forged to `credits` (a proxy or a broken service) for the next `count`
 * estimates (one when absent), quoting `model` with `token`.
 */
export function forgeEstimate(
	sandbox: Sandbox,
	model: string,
	credits: number,
	token: string,
	count?: number,
): void {
	sandbox.injectFault({
		when: 'before',
		method: 'POST',
		path: '/models/estimate-cost',
		status: 200,
		body: JSON.stringify({
			object: 'cost_estimate',
			model,
			credits,
			currency: 'credits',
			quote_token: token,
		}),
		contentType: 'application/json',
		...(count !== undefined ? { count } : {}),
	});
}
