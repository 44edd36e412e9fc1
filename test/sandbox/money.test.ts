import type { AxiosInstance } from 'axios';

import {
	SANDBOX_ACCOUNT_ID,
	SANDBOX_BROKE_API_KEY,
	SANDBOX_BUDGET_API_KEY,
	SANDBOX_EMPTY_POOL_TEAM_ID,
	SANDBOX_MEMBER_CAP_TEAM_ID,
	SANDBOX_MONTHLY_CAP_TEAM_ID,
	SANDBOX_TEAM_ID,
} from '../../sandbox/options';
import type { Sandbox } from '../../sandbox/server';
import { clientFor, idem, openSandbox, submitImage, waitForRun } from './helpers';

/**
 * API document, Errors: "Run failure reasons recorded in error.code of a failed run:
 * insufficient_credits, team_pool_insufficient, team_member_cap, team_monthly_cap,
 * member_budget_exceeded, provider_error. Money failures record their real reason."
 */
describe('sandbox money: every failure reason of the document, deterministically', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 30 }));
	});
	afterAll(() => sandbox.close());

	async function failsWith(
		client: AxiosInstance,
		body: Record<string, unknown>,
		code: string,
	): Promise<void> {
		const submit = await submitImage(client, body);
		expect(submit.status).toBe(202);
		const run = await waitForRun(client, submit.data.id);
		expect({ status: run.status, code: (run.error as { code?: string } | null)?.code }).toEqual({
			status: 'failed',
			code,
		});
		expect(sandbox.state.chargesFor(submit.data.id)).toEqual([]);
	}

	it.each([
		[
			'insufficient_credits',
			'a key whose account has no credits',
			() => clientFor(sandbox.baseUrl, SANDBOX_BROKE_API_KEY),
			{},
		],
		[
			'member_budget_exceeded',
			'a key whose account has a zero monthly budget',
			() => clientFor(sandbox.baseUrl, SANDBOX_BUDGET_API_KEY),
			{},
		],
		[
			'team_pool_insufficient',
			'a workspace with an empty pool',
			() => http,
			{ team_id: SANDBOX_EMPTY_POOL_TEAM_ID },
		],
		[
			'team_monthly_cap',
			'a workspace with a zero monthly cap',
			() => http,
			{ team_id: SANDBOX_MONTHLY_CAP_TEAM_ID },
		],
		[
			'team_member_cap',
			'a workspace with a zero cap for the member',
			() => http,
			{ team_id: SANDBOX_MEMBER_CAP_TEAM_ID },
		],
		['provider_error', 'sandbox_fail', () => http, { sandbox_fail: 'provider_error' }],
	])('records %s for %s, and charges nothing', async (code, _how, client, body) => {
		await failsWith(client(), body, code);
	});

	it('counts the account budget over personal and workspace spending, runs waiting included', async () => {
		const account = sandbox.state.account(SANDBOX_ACCOUNT_ID);
		const spent = sandbox.state.ledger
			.filter((e) => e.account_id === SANDBOX_ACCOUNT_ID)
			.reduce((n, e) => n + e.credits, 0);
		account.monthlyBudget = spent + 8;
		try {
			const first = await submitImage(http, { team_id: SANDBOX_TEAM_ID, count: 1 });
			const second = await submitImage(http, { count: 1 });
			expect((await waitForRun(http, first.data.id)).status).toBe('completed');
			expect((await waitForRun(http, second.data.id)).status).toBe('completed');
			await failsWith(http, { count: 1 }, 'member_budget_exceeded');
		} finally {
			account.monthlyBudget = undefined;
		}
	});

	it('shows per idempotency key how many runs exist and who was charged (state.runsWithKey, chargesForKey)', async () => {
		const key = `money-${Date.now()}`;
		const first = await http.post(
			'/images/generations',
			{ prompt: 'once', team_id: SANDBOX_TEAM_ID },
			idem(key),
		);
		const again = await http.post(
			'/images/generations',
			{ prompt: 'once', team_id: SANDBOX_TEAM_ID },
			idem(key),
		);
		expect(again.headers['idempotent-replayed']).toBe('true');
		await waitForRun(http, first.data.id);
		expect(sandbox.state.runsWithKey(key).map((r) => r.run.id)).toEqual([first.data.id]);
		expect(sandbox.state.chargesForKey(key)).toEqual([
			expect.objectContaining({
				run_id: first.data.id,
				account_id: SANDBOX_ACCOUNT_ID,
				team_id: SANDBOX_TEAM_ID,
				credits: 4,
			}),
		]);
	});
});
