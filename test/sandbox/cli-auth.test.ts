import { createHash, randomBytes } from 'node:crypto';

import axios, { type AxiosInstance } from 'axios';

import type { Sandbox } from '../../sandbox/server';
import { clientFor, expectProblem, openSandbox } from './helpers';

const verifierOf = () => randomBytes(48).toString('base64url');
const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

describe('sandbox CLI sign-in (PKCE, S256)', () => {
	let sandbox: Sandbox;
	let anonymous: AxiosInstance;
	let admin: AxiosInstance;

	beforeAll(async () => {
		({ sandbox } = await openSandbox());
		anonymous = clientFor(sandbox.baseUrl);
		admin = axios.create({ baseURL: `${sandbox.origin}/_sandbox`, validateStatus: () => true });
	});
	afterAll(() => sandbox.close());

	async function startSession(verifier: string, extra: Record<string, unknown> = {}) {
		const res = await anonymous.post('/cli/auth/sessions', {
			code_challenge: challengeOf(verifier),
			code_challenge_method: 'S256',
			label: 'laptop',
			...extra,
		});
		expect(res.status).toBe(201);
		return res.data as {
			session_id: string;
			verification_url: string;
			requested_scopes: string[];
			expires_at: string;
			label: string;
		};
	}

	it('start → pending; approve; exchange with the right verifier → an API key that works, once', async () => {
		const verifier = verifierOf();
		const session = await startSession(verifier, {
			scopes: ['models:read', 'account:read', 'models:read'],
		});
		expect(session).toEqual({
			session_id: expect.any(String),
			verification_url: expect.stringContaining(session.session_id),
			expires_at: expect.any(String),
			requested_scopes: ['account:read', 'models:read'],
			label: 'laptop',
		});
		expect((await axios.get(session.verification_url)).data).toContain('laptop');

		const pending = await anonymous.get(`/cli/auth/sessions/${session.session_id}`);
		expect(pending.data).toEqual({
			session_id: session.session_id,
			status: 'pending',
			label: 'laptop',
			requested_scopes: ['account:read', 'models:read'],
			expires_at: session.expires_at,
		});
		expectProblem(
			await anonymous.post(`/cli/auth/sessions/${session.session_id}/exchange`, {
				code_verifier: verifier,
			}),
			400,
			'authorization_pending',
		);

		expect((await admin.post(`/cli/sessions/${session.session_id}/approve`)).data.status).toBe(
			'approved',
		);
		expect((await anonymous.get(`/cli/auth/sessions/${session.session_id}`)).data.status).toBe(
			'approved',
		);

		const exchanged = await anonymous.post(`/cli/auth/sessions/${session.session_id}/exchange`, {
			code_verifier: verifier,
		});
		expect(exchanged.status).toBe(200);
		expect(exchanged.data).toEqual({
			api_key: expect.any(String),
			scopes: ['account:read', 'models:read'],
			label: 'laptop',
			session_expires_at: session.expires_at,
		});
		const key = clientFor(sandbox.baseUrl, exchanged.data.api_key);
		expect((await key.get('/account')).status).toBe(200);
		expectProblem(await key.get('/runs'), 403, 'insufficient_scope');

		expect((await anonymous.get(`/cli/auth/sessions/${session.session_id}`)).data.status).toBe(
			'consumed',
		);
		expectProblem(
			await anonymous.post(`/cli/auth/sessions/${session.session_id}/exchange`, {
				code_verifier: verifier,
			}),
			409,
			'session_consumed',
		);
	});

	it('refuses a wrong verifier (S256 mismatch) and keeps the session exchangeable with the right one', async () => {
		const verifier = verifierOf();
		const session = await startSession(verifier);
		await admin.post(`/cli/sessions/${session.session_id}/approve`);
		const wrong = await anonymous.post(`/cli/auth/sessions/${session.session_id}/exchange`, {
			code_verifier: verifierOf(),
		});
		expect(expectProblem(wrong, 400, 'invalid_code_verifier').param).toBe('code_verifier');
		const plain = await anonymous.post(`/cli/auth/sessions/${session.session_id}/exchange`, {
			code_verifier: challengeOf(verifier),
		});
		expectProblem(plain, 400, 'invalid_code_verifier');
		expect(
			(
				await anonymous.post(`/cli/auth/sessions/${session.session_id}/exchange`, {
					code_verifier: verifier,
				})
			).status,
		).toBe(200);
	});

	it('checks the verifier: 43 to 128 base64url characters (API document), the challenge and its method', async () => {
		const session = await startSession(verifierOf());
		await admin.post(`/cli/sessions/${session.session_id}/approve`);
		// `.` and `~` are PKCE-unreserved but not base64url: the document says base64url
		for (const bad of [
			'a'.repeat(42),
			'a'.repeat(129),
			`${'a'.repeat(50)}!`,
			`${'a'.repeat(50)}~`,
			`${'a'.repeat(50)}.`,
			`${'a'.repeat(50)}=`,
		]) {
			expectProblem(
				await anonymous.post(`/cli/auth/sessions/${session.session_id}/exchange`, {
					code_verifier: bad,
				}),
				400,
				'invalid_parameter',
			);
		}
		const verifier = verifierOf();
		expect(
			expectProblem(
				await anonymous.post('/cli/auth/sessions', {
					code_challenge: challengeOf(verifier),
					code_challenge_method: 'plain',
				}),
				400,
				'invalid_parameter',
			).param,
		).toBe('code_challenge_method');
		expect(
			expectProblem(
				await anonymous.post('/cli/auth/sessions', {
					code_challenge: verifier,
					code_challenge_method: 'S256',
				}),
				400,
				'invalid_parameter',
			).param,
		).toBe('code_challenge');
		expectProblem(
			await anonymous.post('/cli/auth/sessions', {
				code_challenge: challengeOf(verifier),
				code_challenge_method: 'S256',
				scopes: ['root:all'],
			}),
			400,
			'invalid_scope',
		);
	});

	it('a denied session cannot be exchanged; an unknown one is 404', async () => {
		const verifier = verifierOf();
		const session = await startSession(verifier);
		expect((await admin.post(`/cli/sessions/${session.session_id}/deny`)).data.status).toBe(
			'denied',
		);
		expectProblem(
			await anonymous.post(`/cli/auth/sessions/${session.session_id}/exchange`, {
				code_verifier: verifier,
			}),
			403,
			'access_denied',
		);
		expectProblem(
			await admin.post(`/cli/sessions/${session.session_id}/approve`),
			409,
			'session_not_pending',
		);
		expectProblem(await anonymous.get('/cli/auth/sessions/cli_nope'), 404, 'not_found');
	});
});
