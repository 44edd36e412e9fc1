import type { AxiosInstance } from 'axios';

import type { Sandbox } from '../../sandbox/server';
import { expectProblem, openSandbox, submitImage } from './helpers';

describe('sandbox injected faults', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeEach(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 50 }));
	});
	afterEach(() => sandbox.close());

	it("when:'before' answers the fault without creating a run, once", async () => {
		sandbox.injectFault({
			when: 'before',
			status: 503,
			method: 'POST',
			path: '/images/generations',
		});
		expectProblem(await submitImage(http), 503, 'service_unavailable');
		expect(sandbox.state.runs.size).toBe(0);
		const next = await submitImage(http);
		expect(next.status).toBe(202);
		expect(sandbox.state.runs.size).toBe(1);
	});

	it("when:'after' creates the run and still answers the fault; a retry with the same key replays that run", async () => {
		sandbox.injectFault({
			when: 'after',
			status: 503,
			method: 'POST',
			path: '/images/generations',
		});
		const failed = await submitImage(http, {}, 'key-after-fault');
		expect(failed.status).toBe(503);
		expect(sandbox.state.runs.size).toBe(1);
		const [created] = sandbox.state.runs.keys();
		const retried = await submitImage(http, {}, 'key-after-fault');
		expect(retried.status).toBe(202);
		expect(retried.data.id).toBe(created);
		expect(retried.headers['idempotent-replayed']).toBe('true');
		expect(sandbox.state.runs.size).toBe(1);
	});

	it('drops the connection for reset: true', async () => {
		sandbox.injectFault({
			when: 'before',
			reset: true,
			method: 'POST',
			path: '/images/generations',
		});
		const error = await submitImage(http).then(
			() => undefined,
			(e: { code?: string; response?: unknown }) => e,
		);
		expect(error).toBeDefined();
		expect(error!.response).toBeUndefined();
		expect(error!.code).toBe('ECONNRESET');
		expect(sandbox.state.runs.size).toBe(0);
	});

	it('answers 429 with the injected Retry-After', async () => {
		sandbox.injectFault({ when: 'before', status: 429, retryAfter: 3, path: '/account' });
		const res = await http.get('/account');
		expectProblem(res, 429, 'rate_limited');
		expect(res.headers['retry-after']).toBe('3');
	});

	it('matches method and path: other requests are untouched, and count sets how many are hit', async () => {
		sandbox.injectFault({
			when: 'before',
			status: 500,
			method: 'POST',
			path: '/images/generations',
			count: 2,
		});
		expect((await http.get('/runs')).status).toBe(200);
		expect((await submitImage(http)).status).toBe(500);
		expect((await submitImage(http)).status).toBe(500);
		expect((await submitImage(http)).status).toBe(202);
	});
});
