import type { AxiosInstance } from 'axios';

import type { Sandbox } from '../../sandbox/server';
import { clientFor, openSandbox, submitImage, waitForRun } from './helpers';

/**
 * The service's ledger as budgets read it. API document: UsageSummary (period, group_by, totals
 * with credits_spent, runs_count, successful_runs, failed_runs; breakdown). decisions.md: GET
 * /usage takes start, end and group_by; runs count by their created_at; credits_spent counts
 * charged credits only, not what runs in flight have reserved; a failed run is not charged.
 */
describe('sandbox GET /usage: charged credits only, by created_at, per account', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeEach(async () => {
		({ sandbox } = await openSandbox({ latencyMs: 30 }));
		// an account of its own: nothing else writes to its ledger
		http = clientFor(sandbox.baseUrl, sandbox.state.createAccount('Usage Studio').apiKey);
	});
	afterEach(() => sandbox.close());

	const usage = async (query: Record<string, string> = {}) => {
		const res = await http.get('/usage', { params: query });
		expect(res.status).toBe(200);
		return res.data as {
			object: string;
			group_by: string;
			period: { start: string; end: string };
			totals: Record<string, number>;
			breakdown: Array<Record<string, unknown>>;
		};
	};

	it('a new account has spent nothing', async () => {
		const summary = await usage();
		expect(summary).toMatchObject({
			object: 'usage_summary',
			group_by: 'none',
			totals: { credits_spent: 0, runs_count: 0, successful_runs: 0, failed_runs: 0 },
			breakdown: [],
		});
	});

	it('counts completed runs at their price, a failed run as 0, and a run in flight not at all (reserved, not charged)', async () => {
		for (const body of [{ count: 2 }, { count: 1 }, { sandbox_fail: 'provider_error' }]) {
			const submit = await submitImage(http, body);
			await waitForRun(http, submit.data.id);
		}
		sandbox.state.options.latencyMs = 60_000;
		const inFlight = await submitImage(http, { count: 3 });
		expect(inFlight.status).toBe(202);
		const summary = await usage();
		expect(summary.totals).toEqual({
			credits_spent: 12,
			runs_count: 4,
			successful_runs: 2,
			failed_runs: 1,
		});
	});

	it('counts runs by created_at within start and end, and groups by day', async () => {
		const submit = await submitImage(http, { count: 1 });
		await waitForRun(http, submit.data.id);
		const later = new Date(Date.now() + 3600_000).toISOString();
		expect((await usage({ start: later })).totals.credits_spent).toBe(0);
		const today = new Date().toISOString().slice(0, 10);
		const byDay = await usage({ start: `${today}T00:00:00.000Z`, group_by: 'day' });
		expect(byDay.breakdown).toEqual([
			{
				group: today,
				credits_spent: 4,
				runs_count: 1,
				successful_runs: 1,
				failed_runs: 0,
				avg_credits_per_run: 4,
			},
		]);
		expect(byDay.period.start).toBe(`${today}T00:00:00.000Z`);
	});

	it("does not count another account's runs", async () => {
		const other = clientFor(sandbox.baseUrl, sandbox.state.createAccount('Other Studio').apiKey);
		const submit = await submitImage(other, { count: 2 });
		await waitForRun(other, submit.data.id);
		expect((await usage()).totals.credits_spent).toBe(0);
	});
});
