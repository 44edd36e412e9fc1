import {
	decideRetry,
	DEFAULT_RETRY_LIMITS,
	isSafeToResend,
	isTransientFailure,
	parseRetryAfter,
	withJitter,
	type FailedAttempt,
	type RetryLimits,
} from '../../../src/transport/retry-policy';

const limits: RetryLimits = {
	maxRateLimitRetries: 3,
	maxTransientRetries: 2,
	maxDelayMs: 10_000,
	baseDelayMs: 100,
};
const noJitter = () => 0;
const fullJitter = () => 0.999999;

function attempt(overrides: Partial<FailedAttempt>): FailedAttempt {
	return { method: 'POST', hasIdempotencyKey: false, attempt: 1, ...overrides };
}

describe('isSafeToResend', () => {
	it.each([
		['GET', false, true],
		['get', false, true],
		['GET', true, true],
		['POST', false, false],
		['POST', true, true],
		['PATCH', false, false],
		['PATCH', true, true],
		['DELETE', false, false],
		['DELETE', true, true],
	])('%s with key=%s → %s', (method, hasKey, expected) => {
		expect(isSafeToResend(method, hasKey)).toBe(expected);
	});
});

describe('decideRetry: 429 rate_limited', () => {
	it.each([
		['POST without key', 'POST', false],
		['POST with key', 'POST', true],
		['GET', 'GET', false],
		['DELETE without key', 'DELETE', false],
	])(
		'always retries a 429 (%s): the service did not act on the request',
		(_name, method, hasIdempotencyKey) => {
			expect(
				decideRetry(
					attempt({ method, hasIdempotencyKey, status: 429, retryAfterSeconds: 2 }),
					limits,
					noJitter,
				),
			).toEqual({ retry: true, delayMs: 2000 });
		},
	);

	it.each([
		[1, 1000],
		[3, 3000],
		[7.5, 7500],
	])('honours Retry-After %s s as %s ms', (seconds, ms) => {
		expect(
			decideRetry(attempt({ status: 429, retryAfterSeconds: seconds }), limits, noJitter),
		).toEqual({ retry: true, delayMs: ms });
	});

	it.each([
		[1, 100],
		[2, 200],
		[3, 400],
	])(
		'backs off exponentially on attempt %s under Retry-After: 0 (%s ms), never a busy loop',
		(n, ms) => {
			expect(
				decideRetry(attempt({ status: 429, retryAfterSeconds: 0, attempt: n }), limits, noJitter),
			).toEqual({ retry: true, delayMs: ms });
			expect(
				decideRetry(
					attempt({ method: 'GET', status: 503, retryAfterSeconds: 0, attempt: Math.min(n, 2) }),
					limits,
					noJitter,
				),
			).toEqual({ retry: true, delayMs: 100 * 2 ** (Math.min(n, 2) - 1) });
		},
	);

	it('bounds a long Retry-After by maxDelayMs', () => {
		expect(
			decideRetry(attempt({ status: 429, retryAfterSeconds: 3600 }), limits, fullJitter),
		).toEqual({ retry: true, delayMs: limits.maxDelayMs });
		expect(decideRetry(attempt({ status: 429, retryAfterSeconds: 3600 }))).toEqual({
			retry: true,
			delayMs: DEFAULT_RETRY_LIMITS.maxDelayMs,
		});
	});

	it.each([
		[1, 100],
		[2, 200],
		[3, 400],
	])('backs off exponentially without Retry-After (attempt %s → %s ms)', (n, ms) => {
		expect(decideRetry(attempt({ status: 429, attempt: n }), limits, noJitter)).toEqual({
			retry: true,
			delayMs: ms,
		});
	});

	it('stops after maxRateLimitRetries', () => {
		expect(
			decideRetry(
				attempt({ status: 429, attempt: limits.maxRateLimitRetries, retryAfterSeconds: 1 }),
				limits,
				noJitter,
			).retry,
		).toBe(true);
		expect(
			decideRetry(
				attempt({ status: 429, attempt: limits.maxRateLimitRetries + 1, retryAfterSeconds: 1 }),
				limits,
				noJitter,
			),
		).toEqual({ retry: false });
	});
});

describe('decideRetry: 5xx and network failures', () => {
	const transient = [500, 502, 503, 504, undefined];

	it.each(transient)('retries %s for a GET', (status) => {
		expect(decideRetry(attempt({ method: 'GET', status }), limits, noJitter)).toEqual({
			retry: true,
			delayMs: 100,
		});
	});

	it.each(transient)('retries %s for a POST with an Idempotency-Key', (status) => {
		expect(
			decideRetry(attempt({ method: 'POST', hasIdempotencyKey: true, status }), limits, noJitter),
		).toEqual({ retry: true, delayMs: 100 });
	});

	it.each(transient)(
		'never retries %s for a POST without an Idempotency-Key (the service may have acted)',
		(status) => {
			for (let n = 1; n <= 5; n++)
				expect(
					decideRetry(attempt({ method: 'POST', status, attempt: n }), limits, noJitter),
				).toEqual({ retry: false });
		},
	);

	it.each(transient)('never retries %s for a PATCH or DELETE without a key', (status) => {
		expect(decideRetry(attempt({ method: 'PATCH', status }), limits, noJitter)).toEqual({
			retry: false,
		});
		expect(decideRetry(attempt({ method: 'DELETE', status }), limits, noJitter)).toEqual({
			retry: false,
		});
	});

	it('honours a Retry-After on a 503', () => {
		expect(
			decideRetry(attempt({ method: 'GET', status: 503, retryAfterSeconds: 4 }), limits, noJitter),
		).toEqual({ retry: true, delayMs: 4000 });
		expect(
			decideRetry(
				attempt({ method: 'GET', status: 503, retryAfterSeconds: 600 }),
				limits,
				noJitter,
			),
		).toEqual({ retry: true, delayMs: limits.maxDelayMs });
	});

	it.each([
		[1, 100],
		[2, 200],
	])('backs off exponentially (attempt %s → %s ms)', (n, ms) => {
		expect(
			decideRetry(attempt({ method: 'GET', status: 502, attempt: n }), limits, noJitter),
		).toEqual({ retry: true, delayMs: ms });
	});

	it('stops after maxTransientRetries', () => {
		expect(
			decideRetry(
				attempt({ method: 'GET', status: 503, attempt: limits.maxTransientRetries }),
				limits,
				noJitter,
			).retry,
		).toBe(true);
		expect(
			decideRetry(
				attempt({ method: 'GET', status: 503, attempt: limits.maxTransientRetries + 1 }),
				limits,
				noJitter,
			),
		).toEqual({ retry: false });
		expect(
			decideRetry(
				attempt({
					method: 'POST',
					hasIdempotencyKey: true,
					attempt: limits.maxTransientRetries + 1,
				}),
				limits,
				noJitter,
			),
		).toEqual({ retry: false });
	});

	it('uses the default limits when none are given', () => {
		const last = DEFAULT_RETRY_LIMITS.maxTransientRetries;
		expect(
			decideRetry(attempt({ method: 'GET', status: 500, attempt: last }), undefined, noJitter)
				.retry,
		).toBe(true);
		expect(
			decideRetry(attempt({ method: 'GET', status: 500, attempt: last + 1 }), undefined, noJitter)
				.retry,
		).toBe(false);
	});
});

describe('decideRetry: nothing listening (ECONNREFUSED)', () => {
	it('tries twice more, not the full budget: a refused connection is rarely over in seconds', () => {
		const refused = (n: number) =>
			decideRetry(
				attempt({ method: 'GET', networkCode: 'ECONNREFUSED', attempt: n }),
				undefined,
				noJitter,
			);
		expect(refused(2).retry).toBe(true);
		expect(refused(3)).toEqual({ retry: false });
		// any other network failure keeps the whole default budget
		expect(
			decideRetry(
				attempt({ method: 'GET', networkCode: 'ECONNRESET', attempt: 3 }),
				undefined,
				noJitter,
			).retry,
		).toBe(true);
	});

	it('never gets more tries than the budget allows', () => {
		const one = { ...limits, maxTransientRetries: 1 };
		expect(
			decideRetry(
				attempt({ method: 'GET', networkCode: 'ECONNREFUSED', attempt: 2 }),
				one,
				noJitter,
			),
		).toEqual({ retry: false });
	});
});

describe('isTransientFailure (a wait goes on after it)', () => {
	it.each([undefined, 429, 500, 502, 503, 504])('%s is transient', (status) => {
		expect(isTransientFailure(status)).toBe(true);
	});

	it.each([200, 400, 401, 404, 408, 409, 422, 501])('%s is not', (status) => {
		expect(isTransientFailure(status)).toBe(false);
	});
});

describe('decideRetry: other statuses', () => {
	it.each([400, 401, 403, 404, 409, 410, 422, 501])(
		'never retries %s, even for a GET with a key',
		(status) => {
			expect(
				decideRetry(attempt({ method: 'GET', hasIdempotencyKey: true, status }), limits, noJitter),
			).toEqual({ retry: false });
			expect(
				decideRetry(attempt({ method: 'POST', hasIdempotencyKey: true, status }), limits, noJitter),
			).toEqual({ retry: false });
		},
	);
});

describe('jitter', () => {
	it.each([
		[0, 1000],
		[0.5, 1125],
		[0.999999, 1250],
	])('withJitter(1000) with random %s is %s', (r, expected) => {
		expect(withJitter(1000, () => r)).toBe(expected);
	});

	it('keeps every delay between the base delay and +25 %', () => {
		let seed = 7;
		const random = () => {
			seed = (seed * 16807) % 2147483647;
			return (seed - 1) / 2147483646;
		};
		for (let i = 0; i < 500; i++) {
			const decision = decideRetry(attempt({ status: 429, retryAfterSeconds: 2 }), limits, random);
			if (!decision.retry) throw new Error('expected a retry');
			expect(decision.delayMs).toBeGreaterThanOrEqual(2000);
			expect(decision.delayMs).toBeLessThanOrEqual(2500);
		}
		for (let i = 0; i < 500; i++) {
			const decision = decideRetry(
				attempt({ method: 'GET', status: 503, attempt: 2 }),
				limits,
				random,
			);
			if (!decision.retry) throw new Error('expected a retry');
			expect(decision.delayMs).toBeGreaterThanOrEqual(200);
			expect(decision.delayMs).toBeLessThanOrEqual(250);
		}
	});

	it('applies jitter before the ceiling, so no delay exceeds maxDelayMs', () => {
		const decision = decideRetry(
			attempt({ status: 429, retryAfterSeconds: 9.9 }),
			limits,
			fullJitter,
		);
		expect(decision).toEqual({ retry: true, delayMs: limits.maxDelayMs });
	});
});

describe('parseRetryAfter', () => {
	it.each<[unknown, number | undefined]>([
		['0', 0],
		['1', 1],
		['120', 120],
		['1.5', 1.5],
		// zero written another way is still zero seconds, not an unreadable header
		['0.0', 0],
		// never a negative wait, never an endless one
		['-5', 0],
		['Infinity', undefined],
		[7, 7],
		[['3', '9'], 3],
		['', undefined],
		[undefined, undefined],
		[null, undefined],
		['soon', undefined],
	])('parses %j as %s', (value, expected) => {
		expect(parseRetryAfter(value)).toBe(expected);
	});

	it('turns an HTTP date into the seconds until it', () => {
		const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
		const seconds = parseRetryAfter(inTenSeconds)!;
		expect(seconds).toBeGreaterThan(8);
		expect(seconds).toBeLessThanOrEqual(10);
	});

	it('turns an HTTP date in the past into 0', () => {
		expect(parseRetryAfter(new Date(Date.now() - 60_000).toUTCString())).toBe(0);
	});
});
