import { randomUUID } from 'node:crypto';

import type { AxiosInstance } from 'axios';

import { SANDBOX_ACCOUNT_ID } from '../../sandbox/options';
import type { Sandbox } from '../../sandbox/server';
import { clientFor, expectProblem, openSandbox, submitImage, waitForRun } from './helpers';

describe('sandbox idempotency (decisions.md)', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 100 }));
	});
	afterAll(() => sandbox.close());

	it('answers 400 idempotency_key_required when an Idem route gets no key, and creates no run', async () => {
		const runs = sandbox.state.runs.size;
		const res = await http.post('/images/generations', { prompt: 'no key' });
		expectProblem(res, 400, 'idempotency_key_required');
		expect(sandbox.state.runs.size).toBe(runs);
	});

	it('replays the original run for the same key and body: 202, same id, Idempotent-Replayed, one charge', async () => {
		const key = randomUUID();
		const body = { prompt: 'a red kite', aspect_ratio: '16:9', count: 2 };
		const first = await submitImage(http, body, key);
		expect(first.status).toBe(202);
		expect(first.headers['idempotent-replayed']).toBeUndefined();

		const second = await submitImage(http, body, key);
		expect(second.status).toBe(202);
		expect(second.data.id).toBe(first.data.id);
		expect(second.headers['idempotent-replayed']).toBe('true');

		const done = await waitForRun(http, first.data.id);
		expect(done.status).toBe('completed');

		const third = await submitImage(http, body, key);
		expect(third.status).toBe(202);
		expect(third.data.id).toBe(first.data.id);
		expect(third.data.status).toBe('completed');
		expect(third.headers['idempotent-replayed']).toBe('true');

		expect(sandbox.state.chargesFor(first.data.id)).toHaveLength(1);
		expect(
			[...sandbox.state.runs.values()].filter(
				(r) =>
					r.run.input_summary &&
					(r.run.input_summary as { prompt?: string }).prompt === 'a red kite',
			),
		).toHaveLength(1);
	});

	it('treats a body with its keys in another order as the same body', async () => {
		const key = randomUUID();
		const first = await http.post(
			'/images/generations',
			{ prompt: 'order', count: 1, aspect_ratio: '1:1' },
			{ headers: { 'Idempotency-Key': key } },
		);
		const second = await http.post(
			'/images/generations',
			{ aspect_ratio: '1:1', count: 1, prompt: 'order' },
			{ headers: { 'Idempotency-Key': key } },
		);
		expect(first.status).toBe(202);
		expect(second.status).toBe(202);
		expect(second.data.id).toBe(first.data.id);
	});

	it('answers 409 idempotency_key_reused for the same key with a different body and creates no second run', async () => {
		const key = randomUUID();
		const first = await submitImage(http, { prompt: 'first body' }, key);
		expect(first.status).toBe(202);
		const runs = sandbox.state.runs.size;
		expectProblem(
			await submitImage(http, { prompt: 'second body' }, key),
			409,
			'idempotency_key_reused',
		);
		expect(sandbox.state.runs.size).toBe(runs);
		await waitForRun(http, first.data.id);
		expect(sandbox.state.ledger.filter((e) => e.run_id === first.data.id)).toHaveLength(1);
	});

	it('scopes keys to the account: another account using the same key gets its own run', async () => {
		const other = {
			...sandbox.state.account(SANDBOX_ACCOUNT_ID),
			id: 'acc_other',
			balance: 1000,
			reserved: 0,
		};
		sandbox.state.accounts.set(other.id, other);
		const otherHttp = clientFor(
			sandbox.baseUrl,
			sandbox.state.createApiKey(['images:write', 'runs:read'], 'other', other.id),
		);
		const key = randomUUID();
		const mine = await submitImage(http, { prompt: 'shared key' }, key);
		const theirs = await submitImage(otherHttp, { prompt: 'shared key' }, key);
		expect(mine.status).toBe(202);
		expect(theirs.status).toBe(202);
		expect(theirs.data.id).not.toBe(mine.data.id);
		expect(theirs.headers['idempotent-replayed']).toBeUndefined();
	});

	it('does not remember a refused submit: the same key may be used again once the body is valid', async () => {
		const key = randomUUID();
		expectProblem(
			await http.post(
				'/images/generations',
				{ prompt: '' },
				{ headers: { 'Idempotency-Key': key } },
			),
			400,
			'invalid_prompt',
		);
		const res = await submitImage(http, { prompt: 'now valid' }, key);
		expect(res.status).toBe(202);
		expect(res.headers['idempotent-replayed']).toBeUndefined();
	});
});
