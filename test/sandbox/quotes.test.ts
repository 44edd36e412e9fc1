import type { AxiosInstance } from 'axios';

import type { Sandbox } from '../../sandbox/server';
import { expectProblem, idem, openSandbox, sleep, submitImage, waitForRun } from './helpers';

const params = { model: 'image.aurora-2', prompt: 'a quoted castle', count: 2 };

async function estimate(http: AxiosInstance, body: Record<string, unknown> = params) {
	const res = await http.post('/models/estimate-cost', body);
	expect(res.status).toBe(200);
	return res.data as {
		object: string;
		model: string;
		credits: number;
		currency: string;
		quote_token: string;
		expires_at: string;
	};
}

function expectFreshQuote(problem: Record<string, unknown>, credits: number, oldToken: string) {
	const quote = problem.quote as Record<string, unknown>;
	expect(quote).toEqual(
		expect.objectContaining({
			object: 'cost_estimate',
			model: 'image.aurora-2',
			credits,
			currency: 'credits',
			quote_token: expect.any(String),
			expires_at: expect.any(String),
		}),
	);
	expect(quote.quote_token).not.toBe(oldToken);
	return quote;
}

describe('sandbox cost quotes', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 50 }));
	});
	afterAll(() => sandbox.close());

	it('estimates credits with a quote_token and an expiry', async () => {
		const quote = await estimate(http);
		expect(quote).toEqual({
			object: 'cost_estimate',
			model: 'image.aurora-2',
			credits: 8,
			currency: 'credits',
			quote_token: expect.any(String),
			expires_at: expect.any(String),
		});
		expect(Date.parse(quote.expires_at)).toBeGreaterThan(Date.now());
	});

	it('answers 400 model_not_found when estimating an unknown alias', async () => {
		expectProblem(
			await http.post('/models/estimate-cost', { ...params, model: 'image.nope' }),
			400,
			'model_not_found',
		);
	});

	it('accepts a submit that carries its quote_token and charges the quoted price', async () => {
		const quote = await estimate(http);
		const res = await submitImage(http, { ...params, quote_token: quote.quote_token });
		expect(res.status).toBe(202);
		await waitForRun(http, res.data.id);
		expect(sandbox.state.chargesFor(res.data.id)).toEqual([
			expect.objectContaining({ credits: quote.credits }),
		]);
	});

	it('answers 401 quote_invalid for a tampered token and creates no run', async () => {
		const { quote_token: token } = await estimate(http);
		const { quote_token: other } = await estimate(http);
		const [version, payload, signature] = token.split('.');
		const runs = sandbox.state.runs.size;
		// another quote's id under this token's signature
		expectProblem(
			await submitImage(http, {
				...params,
				quote_token: `${version}.${other.split('.')[1]}.${signature}`,
			}),
			401,
			'quote_invalid',
		);
		const flipped = `${signature.slice(0, 5)}${signature[5] === 'A' ? 'B' : 'A'}${signature.slice(6)}`;
		expectProblem(
			await submitImage(http, { ...params, quote_token: `${version}.${payload}.${flipped}` }),
			401,
			'quote_invalid',
		);
		expectProblem(
			await submitImage(http, { ...params, quote_token: 'not-a-quote' }),
			401,
			'quote_invalid',
		);
		expect(sandbox.state.runs.size).toBe(runs);
	});

	it('answers 409 quote_mismatch with a fresh quote for other parameters, and creates no run', async () => {
		const quote = await estimate(http);
		const runs = sandbox.state.runs.size;
		const problem = expectProblem(
			await submitImage(http, { ...params, count: 3, quote_token: quote.quote_token }),
			409,
			'quote_mismatch',
		);
		const fresh = expectFreshQuote(problem, 12, quote.quote_token);
		expect(sandbox.state.runs.size).toBe(runs);
		const retried = await submitImage(http, {
			...params,
			count: 3,
			quote_token: fresh.quote_token,
		});
		expect(retried.status).toBe(202);
	});

	it('answers 409 quote_mismatch for another prompt at the same price', async () => {
		const quote = await estimate(http);
		const problem = expectProblem(
			await submitImage(http, {
				...params,
				prompt: 'another castle',
				quote_token: quote.quote_token,
			}),
			409,
			'quote_mismatch',
		);
		expectFreshQuote(problem, 8, quote.quote_token);
	});
});

describe('sandbox cost quotes: expiry (quoteTtlSeconds 1)', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 50, quoteTtlSeconds: 1 }));
	});
	afterAll(() => sandbox.close());

	it('replays a resent submit (same key, same body) with the original run although its quote has lapsed since', async () => {
		const quote = await estimate(http);
		const key = `lapsed-${Date.now()}`;
		const first = await http.post(
			'/images/generations',
			{ ...params, quote_token: quote.quote_token },
			idem(key),
		);
		expect(first.status).toBe(202);
		await sleep(1100);
		const resent = await http.post(
			'/images/generations',
			{ ...params, quote_token: quote.quote_token },
			idem(key),
		);
		expect({
			status: resent.status,
			id: resent.data.id,
			replayed: resent.headers['idempotent-replayed'],
		}).toEqual({ status: 202, id: first.data.id, replayed: 'true' });
		expect(sandbox.state.runsWithKey(key)).toHaveLength(1);
	});

	it('answers 409 quote_expired with a fresh quote once the quote lapsed', async () => {
		const quote = await estimate(http);
		await sleep(1100);
		const runs = sandbox.state.runs.size;
		const problem = expectProblem(
			await submitImage(http, { ...params, quote_token: quote.quote_token }),
			409,
			'quote_expired',
		);
		const fresh = expectFreshQuote(problem, 8, quote.quote_token);
		expect(sandbox.state.runs.size).toBe(runs);
		expect((await submitImage(http, { ...params, quote_token: fresh.quote_token })).status).toBe(
			202,
		);
	});
});
