import type { AxiosInstance } from 'axios';

import type { Sandbox } from '../../sandbox/server';
import { clientFor, expectProblem, openSandbox, sleep } from './helpers';

/** Waits for the next one-second window to begin, so a few quick requests share a fresh window. */
async function startOfSecond(): Promise<void> {
	await sleep(1000 - (Date.now() % 1000) + 5);
}

describe('sandbox rate limit (rateLimitPerSecond 2)', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ rateLimitPerSecond: 2 }));
	});
	afterAll(() => sandbox.close());

	it('answers the third request in one second with 429 rate_limited and a Retry-After in seconds', async () => {
		await startOfSecond();
		const statuses = [];
		for (let i = 0; i < 2; i++) statuses.push((await http.get('/account')).status);
		const third = await http.get('/account');
		expect(statuses).toEqual([200, 200]);
		expectProblem(third, 429, 'rate_limited');
		const retryAfter = Number(third.headers['retry-after']);
		expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
	});

	it('counts per credential: another key is not limited by the first one', async () => {
		const other = clientFor(sandbox.baseUrl, sandbox.state.createApiKey(['account:read']));
		await startOfSecond();
		await http.get('/account');
		await http.get('/account');
		expect((await http.get('/account')).status).toBe(429);
		expect((await other.get('/account')).status).toBe(200);
	});

	it('lets the credential through again in the next second', async () => {
		await startOfSecond();
		for (let i = 0; i < 2; i++) await http.get('/account');
		expect((await http.get('/account')).status).toBe(429);
		await startOfSecond();
		expect((await http.get('/account')).status).toBe(200);
	});
});
