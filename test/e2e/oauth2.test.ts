/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import {
	SANDBOX_OAUTH_CLIENT_ID,
	SANDBOX_OAUTH_CLIENT_SECRET,
	type SandboxOptions,
} from '../../sandbox/options';
import type { LedgerEntry, RequestLogEntry } from '../../sandbox/state';
import {
	describeWithN8n,
	executeWorkflow,
	outputOf,
	readE2eState,
	sandboxAdmin,
	type E2eState,
} from './state';

const CREDENTIAL_TYPE = 'mediaGenOAuth2Api';
const PROMPTS = [
	'a red fox in fresh snow',
	'a lighthouse at dusk',
	'a paper boat on a rainy street',
];
const BROWSER_ID = 'mediagen-e2e-oauth2';

async function sandboxOptions(
	state: E2eState,
	change: Partial<SandboxOptions>,
): Promise<SandboxOptions> {
	const res = await fetch(`${state.sandbox.origin}/_sandbox/options`, {
		method: 'PATCH',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(change),
	});
	if (!res.ok) throw new Error(`PATCH /_sandbox/options: HTTP ${res.status}`);
	return (await res.json()) as SandboxOptions;
}

/** n8n's public API with the owner's key. */
async function n8nApi<T>(state: E2eState, path: string, body: unknown): Promise<T> {
	const res = await fetch(`${state.n8nUrl}/api/v1${path}`, {
		method: 'POST',
		headers: {
			'X-N8N-API-KEY': state.apiKey,
			accept: 'application/json',
			'content-type': 'application/json',
		},
		body: JSON.stringify(body),
	});
	if (!res.ok) throw new Error(`POST /api/v1${path}: HTTP ${res.status} ${await res.text()}`);
	return (await res.json()) as T;
}

async function createCredential(state: E2eState, name: string, fields: Record<string, unknown>) {
	const data = {
		baseUrl: state.sandbox.baseUrl,
		clientId: SANDBOX_OAUTH_CLIENT_ID,
		clientSecret: SANDBOX_OAUTH_CLIENT_SECRET,
		allowedHttpRequestDomains: 'all',
		...fields,
	};
	const created = await n8nApi<{ id: string; name: string }>(state, '/credentials', {
		name,
		type: CREDENTIAL_TYPE,
		data,
	});
	return { id: created.id, name: created.name, data };
}

/** The editor's "Test" button: POST /rest/credentials/test as the owner. */
async function testCredential(
	state: E2eState,
	credential: { id: string; name: string; data: Record<string, unknown> },
) {
	const headers = { 'content-type': 'application/json', 'browser-id': BROWSER_ID };
	const login = await fetch(`${state.n8nUrl}/rest/login`, {
		method: 'POST',
		headers,
		body: JSON.stringify({ emailOrLdapLoginId: state.owner.email, password: state.owner.password }),
	});
	const cookie = login.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.find((c) => c.startsWith('n8n-auth='));
	if (!login.ok || !cookie) throw new Error(`login: HTTP ${login.status}`);
	const res = await fetch(`${state.n8nUrl}/rest/credentials/test`, {
		method: 'POST',
		headers: { ...headers, cookie },
		body: JSON.stringify({
			credentials: {
				id: credential.id,
				name: credential.name,
				type: CREDENTIAL_TYPE,
				data: credential.data,
			},
		}),
	});
	if (!res.ok) throw new Error(`credential test: HTTP ${res.status} ${await res.text()}`);
	return ((await res.json()) as { data: { status: string; message: string } }).data;
}

const requestsSince = async (state: E2eState, from: number) =>
	(await sandboxAdmin<{ data: RequestLogEntry[] }>(state, '/requests')).data.slice(from);

describeWithN8n(
	'the MediaGen OAuth2 credential in real n8n (the document’s token request against the strict sandbox)',
	() => {
		const state = readE2eState();
		let original: SandboxOptions;

		beforeAll(async () => {
			original = await sandboxOptions(state, {});
		});
		afterAll(async () => {
			await sandboxOptions(state, {
				tokenTtlSeconds: original.tokenTtlSeconds,
				latencyMs: original.latencyMs,
			});
		});

		it('a workflow whose token expires during the execution completes: the token is fetched again (JSON body and HTTP Basic), each run made and charged once', async () => {
			const json = await createCredential(state, 'MediaGen OAuth2 (JSON body)', {
				authentication: 'body',
			});
			const basic = await createCredential(state, 'MediaGen OAuth2 (HTTP Basic)', {
				authentication: 'header',
			});
			const workflowId = (
				await n8nApi<{ id: string }>(state, '/workflows', {
					name: 'MediaGen: OAuth2 token expiring mid-execution',
					nodes: [
						{
							id: 'oa-1',
							name: 'Run',
							type: 'n8n-nodes-base.manualTrigger',
							typeVersion: 1,
							position: [0, 0],
							parameters: {},
						},
						{
							id: 'oa-2',
							name: 'Prompts',
							type: 'n8n-nodes-base.code',
							typeVersion: 2,
							position: [220, 0],
							parameters: {
								jsCode: `return ${JSON.stringify(PROMPTS)}.map((prompt) => ({ json: { prompt } }));`,
							},
						},
						{
							id: 'oa-3',
							name: 'Generate Images',
							type: 'CUSTOM.mediaGenImage',
							typeVersion: 1,
							position: [440, 0],
							parameters: {
								authentication: CREDENTIAL_TYPE,
								resource: 'image',
								operation: 'generate',
								model: 'image.aurora-2',
								prompt: '={{ $json.prompt }}',
								count: 1,
							},
							credentials: { [CREDENTIAL_TYPE]: { id: json.id, name: json.name } },
						},
						{
							id: 'oa-4',
							name: 'Credits',
							type: 'CUSTOM.mediaGenAccount',
							typeVersion: 1,
							position: [660, 0],
							parameters: {
								authentication: CREDENTIAL_TYPE,
								resource: 'account',
								operation: 'getCredits',
							},
							credentials: { [CREDENTIAL_TYPE]: { id: basic.id, name: basic.name } },
							executeOnce: true,
						},
					],
					connections: {
						Run: { main: [[{ node: 'Prompts', type: 'main', index: 0 }]] },
						Prompts: { main: [[{ node: 'Generate Images', type: 'main', index: 0 }]] },
						'Generate Images': { main: [[{ node: 'Credits', type: 'main', index: 0 }]] },
					},
					settings: { executionOrder: 'v1' },
				})
			).id;
			// tokens live 3 s, runs take 4.5 s: the token fetched for the submits expires while n8n waits
			await sandboxOptions(state, { tokenTtlSeconds: 3, latencyMs: 4500 });
			const from = (await sandboxAdmin<{ data: RequestLogEntry[] }>(state, '/requests')).data
				.length;
			const ledgerFrom = (await sandboxAdmin<{ data: LedgerEntry[] }>(state, '/ledger')).data
				.length;

			const run = await executeWorkflow(state, workflowId);
			expect(run.data.resultData.error).toBeUndefined();
			expect(run.status).toBe('success');
			const items = outputOf(run, 'Generate Images');
			expect(items.map((i) => i.json.status)).toEqual(['completed', 'completed', 'completed']);
			expect(outputOf(run, 'Credits')[0].json).toEqual(
				expect.objectContaining({ currency: 'credits' }),
			);

			const during = await requestsSince(state, from);
			const tokenRequests = during.filter((r) => r.path === '/v1/oauth/token');
			// the sandbox answers 200 only to a JSON body with the document's properties, or to HTTP Basic
			expect(tokenRequests.length).toBeGreaterThanOrEqual(3);
			expect(tokenRequests.every((r) => r.method === 'POST' && r.status === 200)).toBe(true);
			const expired = during.filter((r) => r.status === 401);
			expect(expired.length).toBeGreaterThanOrEqual(1);
			expect(expired.every((r) => r.path.startsWith('/v1/runs'))).toBe(true);
			const submits = during.filter(
				(r) => r.method === 'POST' && r.path === '/v1/images/generations',
			);
			expect(submits.map((r) => r.status)).toEqual([202, 202, 202]);
			const runIds = items.map((i) => String(i.json.id));
			const charges = (await sandboxAdmin<{ data: LedgerEntry[] }>(state, '/ledger')).data.slice(
				ledgerFrom,
			);
			expect(runIds.map((id) => charges.filter((c) => c.run_id === id).length)).toEqual([1, 1, 1]);
			process.stderr.write(
				`[e2e oauth2] token requests ${tokenRequests.length}, 401s ${expired.length} (${expired.map((r) => `${r.method} ${r.path}`).join(', ')})\n`,
			);
		});

		it('the credential test fetches a token and reads the account; with a wrong secret it shows invalid_client and not the secret', async () => {
			await sandboxOptions(state, {
				tokenTtlSeconds: original.tokenTtlSeconds,
				latencyMs: original.latencyMs,
			});
			const good = await createCredential(state, 'MediaGen OAuth2 (test button)', {
				authentication: 'header',
				scope: 'account:read',
			});
			expect(await testCredential(state, good)).toEqual(expect.objectContaining({ status: 'OK' }));

			const wrongSecret = 'wrong-secret-that-must-not-be-shown-0815';
			const wrong = await createCredential(state, 'MediaGen OAuth2 (wrong secret)', {
				authentication: 'body',
				clientSecret: wrongSecret,
			});
			const from = (await sandboxAdmin<{ data: RequestLogEntry[] }>(state, '/requests')).data
				.length;
			const result = await testCredential(state, wrong);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/^invalid_client/);
			expect(result.message).not.toContain(wrongSecret);
			const apiCalls = (await requestsSince(state, from)).filter((r) => r.path.startsWith('/v1/'));
			expect(apiCalls.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
				'POST /v1/oauth/token 401',
			]);
		});
	},
);
