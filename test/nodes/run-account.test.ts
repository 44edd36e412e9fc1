import { createHash } from 'node:crypto';

import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import { MediaGenAccount } from '../../nodes/MediaGenAccount/MediaGenAccount.node';
import { MediaGenRun } from '../../nodes/MediaGenRun/MediaGenRun.node';
import { makePng } from '../../sandbox/png';
import { binaryBytes, runNode } from '../helpers/n8n-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';
import { clientFor, idem, waitForRun } from '../sandbox/helpers';
import { SANDBOX_API_KEY } from '../../sandbox/options';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('MediaGen Run and MediaGen Account in n8n-core (against the sandbox)', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture({ latencyMs: 100 });
	});
	afterEach(async () => fx.sandbox.close());

	const runOp = (parameters: IDataObject) =>
		runNode({ nodeType: new MediaGenRun(), credentials: fx.credentials, parameters });
	const accountOp = (parameters: IDataObject, input?: Parameters<typeof runNode>[0]['input']) =>
		runNode({ nodeType: new MediaGenAccount(), credentials: fx.credentials, parameters, input });
	const submit = async (body: Record<string, unknown>, path = '/images/generations') =>
		(await clientFor(fx.sandbox.baseUrl, SANDBOX_API_KEY).post(path, body, idem())).data
			.id as string;

	it('Run: waits for a run and returns its files as binary; download reads the outputs of a finished run', async () => {
		const id = await submit({ prompt: 'a kite', count: 2 });
		const waited = await runOp({ resource: 'run', operation: 'wait', runId: id });
		expect(waited.error).toBeUndefined();
		expect(waited.items[0].json).toEqual(expect.objectContaining({ id, status: 'completed' }));
		expect(Object.keys(waited.items[0].binary ?? {})).toEqual(['data', 'data_1']);

		const downloaded = await runOp({
			resource: 'run',
			operation: 'download',
			runId: id,
			options: { binaryPropertyName: 'image' },
		});
		expect(downloaded.items[0].json.object).toBe('run_output');
		expect((await binaryBytes(downloaded.items[0].binary!.image)).subarray(0, 8)).toEqual(
			PNG_SIGNATURE,
		);
	});

	it('Run: waiting for a failed run fails with its error code', async () => {
		const id = await submit({ prompt: 'doomed', sandbox_fail: 'provider_error' });
		const { error } = await runOp({ resource: 'run', operation: 'wait', runId: id });
		expect(error?.message).toMatch(/^provider_error/);
	});

	it('Run: get, get output, and list filtered by status and capability with Return All / Limit', async () => {
		const http = clientFor(fx.sandbox.baseUrl, SANDBOX_API_KEY);
		const ok = [await submit({ prompt: 'a' }), await submit({ prompt: 'b' })];
		const bad = await submit({ prompt: 'c', sandbox_fail: 'provider_error' });
		const edit = await submit(
			{ image_url: 'https://example.com/x.png' },
			'/images/background-remove',
		);
		for (const id of [...ok, bad, edit]) await waitForRun(http, id);

		expect(
			(await runOp({ resource: 'run', operation: 'get', runId: ok[0] })).items[0].json.status,
		).toBe('completed');
		expect(
			(await runOp({ resource: 'run', operation: 'getOutput', runId: ok[0] })).items[0].json,
		).toEqual(expect.objectContaining({ object: 'run_output', output: expect.any(Object) }));
		const failed = await runOp({
			resource: 'run',
			operation: 'list',
			returnAll: true,
			additionalFields: { status: 'failed' },
		});
		expect(failed.items.map((i) => i.json.id)).toEqual([bad]);
		const editing = await runOp({
			resource: 'run',
			operation: 'list',
			returnAll: true,
			additionalFields: { capability: 'image_editing' },
		});
		expect(editing.items.map((i) => i.json.id)).toEqual([edit]);
		expect(
			(await runOp({ resource: 'run', operation: 'list', returnAll: false, limit: 2 })).items,
		).toHaveLength(2);
	});

	it('Account: account, credits, usage grouped by capability, models, pricing and a cost estimate', async () => {
		expect((await accountOp({ resource: 'account', operation: 'get' })).items[0].json.object).toBe(
			'account',
		);
		expect(
			(await accountOp({ resource: 'account', operation: 'getCredits' })).items[0].json,
		).toEqual(expect.objectContaining({ currency: 'credits', balance: expect.any(Number) }));
		const http = clientFor(fx.sandbox.baseUrl, SANDBOX_API_KEY);
		await waitForRun(http, await submit({ prompt: 'a' }));
		const usage = await accountOp({
			resource: 'account',
			operation: 'getUsage',
			additionalFields: { groupBy: 'capability' },
		});
		expect(usage.items[0].json).toEqual(
			expect.objectContaining({ object: 'usage_summary', group_by: 'capability' }),
		);
		expect((usage.items[0].json.breakdown as Array<{ group: string }>).map((b) => b.group)).toEqual(
			['image_generation'],
		);
		const models = await accountOp({
			resource: 'model',
			operation: 'list',
			returnAll: false,
			limit: 3,
		});
		expect(models.items).toHaveLength(3);
		expect(
			(await accountOp({ resource: 'model', operation: 'listPricing', returnAll: true })).items[0]
				.json,
		).toEqual(expect.objectContaining({ unit: expect.any(String), credits: expect.any(Number) }));
		const estimate = await accountOp({
			resource: 'model',
			operation: 'estimateCost',
			model: 'image.aurora-2',
			additionalFields: { parameters: '{"count": 2}' },
		});
		expect(estimate.items[0].json).toEqual(
			expect.objectContaining({ object: 'cost_estimate', quote_token: expect.any(String) }),
		);
	});

	it('Account: uploads an input binary and returns the asset_url the sandbox serves it from', async () => {
		const png = makePng(8, 8, 7);
		const { items, error } = await accountOp(
			{ resource: 'upload', operation: 'create', binaryPropertyName: 'photo' },
			[
				{
					json: {},
					binary: {
						photo: { data: png.toString('base64'), mimeType: 'image/png', fileName: 'p.png' },
					},
				},
			],
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual(
			expect.objectContaining({
				asset_id: expect.any(String),
				asset_url: expect.stringContaining('/storage/assets/'),
				content_type: 'image/png',
			}),
		);
		expect(items[0].json.upload_url).toBeUndefined();
		const fetched = await axios.get(String(items[0].json.asset_url), {
			responseType: 'arraybuffer',
		});
		expect(Buffer.from(fetched.data)).toEqual(png);

		// a binary without a usable MIME type is sent with the content type the user names
		const generic = await accountOp(
			{
				resource: 'upload',
				operation: 'create',
				binaryPropertyName: 'data',
				additionalFields: { contentType: 'image/png', filename: 'logo.png' },
			},
			[
				{
					json: {},
					binary: {
						data: {
							data: png.toString('base64'),
							mimeType: 'application/octet-stream',
							fileName: 'blob',
						},
					},
				},
			],
		);
		expect(generic.error).toBeUndefined();
		expect(generic.items[0].json).toEqual(
			expect.objectContaining({ content_type: 'image/png', file_name: 'logo.png' }),
		);
		const refused = await accountOp(
			{ resource: 'upload', operation: 'create', binaryPropertyName: 'data' },
			[
				{
					json: {},
					binary: {
						data: {
							data: png.toString('base64'),
							mimeType: 'application/octet-stream',
							fileName: 'blob',
						},
					},
				},
			],
		);
		expect(refused.error?.message).toMatch(/^unsupported_media_type/);
	});

	it('Account: CLI sign-in — the node makes the verifier and S256 challenge, reads the status, exchanges once', async () => {
		const started = await accountOp({
			resource: 'cliSession',
			operation: 'start',
			label: 'n8n test',
			additionalFields: { scopes: ['images:write', 'runs:read'] },
		});
		expect(started.error).toBeUndefined();
		const session = started.items[0].json as Record<string, string>;
		expect(session.code_verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
		expect(session.code_challenge).toBe(
			createHash('sha256').update(session.code_verifier).digest('base64url'),
		);
		expect(session.verification_url).toContain(session.session_id);
		expect(fx.sandbox.state.requests.find((r) => r.path === '/v1/cli/auth/sessions')?.status).toBe(
			201,
		);

		const pending = await accountOp({
			resource: 'cliSession',
			operation: 'get',
			sessionId: session.session_id,
		});
		expect(pending.items[0].json).toEqual(
			expect.objectContaining({
				status: 'pending',
				requested_scopes: ['images:write', 'runs:read'],
				label: 'n8n test',
			}),
		);
		const early = await accountOp({
			resource: 'cliSession',
			operation: 'exchange',
			sessionId: session.session_id,
			codeVerifier: session.code_verifier,
		});
		expect(early.error?.message).toMatch(/^authorization_pending/);

		await axios.post(`${fx.sandbox.origin}/_sandbox/cli/sessions/${session.session_id}/approve`);
		const wrong = await accountOp({
			resource: 'cliSession',
			operation: 'exchange',
			sessionId: session.session_id,
			codeVerifier: 'x'.repeat(64),
		});
		expect(wrong.error?.message).toMatch(/^invalid_code_verifier/);
		// the API document: 43 to 128 base64url characters — so RFC 7636's other unreserved characters (. ~) are refused before sending too
		for (const verifier of [
			'x'.repeat(42),
			'x'.repeat(129),
			`${'x'.repeat(50)}+/=`,
			`${'x'.repeat(50)}.`,
			`${'x'.repeat(50)}~`,
		]) {
			const refused = await accountOp({
				resource: 'cliSession',
				operation: 'exchange',
				sessionId: session.session_id,
				codeVerifier: verifier,
			});
			expect(refused.error?.message).toMatch(
				/^Code Verifier: "\d+ characters" is not allowed; allowed: 43 to 128 base64url characters/,
			);
		}
		const exchanged = await accountOp({
			resource: 'cliSession',
			operation: 'exchange',
			sessionId: session.session_id,
			codeVerifier: session.code_verifier,
		});
		expect(exchanged.items[0].json).toEqual(
			expect.objectContaining({
				api_key: expect.any(String),
				scopes: ['images:write', 'runs:read'],
			}),
		);
		const again = await accountOp({
			resource: 'cliSession',
			operation: 'exchange',
			sessionId: session.session_id,
			codeVerifier: session.code_verifier,
		});
		expect(again.error?.message).toMatch(/^session_consumed/);
		expect(
			posts(fx.sandbox, `/cli/auth/sessions/${session.session_id}/exchange`).map((r) => r.status),
		).toEqual([400, 400, 200, 409]);
	});

	it('Account: a credential with only the Base URL gets its key from n8n, as the credential form says (sign in, approve, exchange)', async () => {
		fx.credentials.set('mediaGenApi', { baseUrl: fx.sandbox.baseUrl, apiKey: '' });
		const started = await accountOp({ resource: 'cliSession', operation: 'start', label: 'n8n' });
		expect(started.error).toBeUndefined();
		const session = started.items[0].json as Record<string, string>;
		await axios.post(`${fx.sandbox.origin}/_sandbox/cli/sessions/${session.session_id}/approve`);
		const exchanged = await accountOp({
			resource: 'cliSession',
			operation: 'exchange',
			sessionId: session.session_id,
			codeVerifier: session.code_verifier,
		});
		const key = String(exchanged.items[0].json.api_key);
		fx.credentials.set('mediaGenApi', { baseUrl: fx.sandbox.baseUrl, apiKey: key });
		const account = await accountOp({ resource: 'account', operation: 'get' });
		expect(account.error).toBeUndefined();
		expect(account.items[0].json.object).toBe('account');
	});
});
