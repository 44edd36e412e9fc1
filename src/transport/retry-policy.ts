/**
 * Which failed requests may be sent again, and after how long. Pure, so it is tested on its own.
 *
 * - 429: always retried after Retry-After (the service did not act on the request), bounded.
 * - network errors, timeouts and 5xx: the service may have acted, so only requests that are safe to
 *   repeat are resent: GETs, and writes that carry an Idempotency-Key (the service replays the
 *   original). A write without a key is never resent.
 */
export interface FailedAttempt {
	method: string;
	/** carries an Idempotency-Key on a route whose key the service replays (not a courtesy key) */
	hasIdempotencyKey: boolean;
	/** HTTP status, or undefined when no response arrived */
	status?: number;
	/** e.g. ECONNRESET, when no response arrived */
	networkCode?: string;
	/** Retry-After header value in seconds, if any */
	retryAfterSeconds?: number;
	/** 1 for the first retry decision */
	attempt: number;
}

export interface RetryLimits {
	maxRateLimitRetries: number;
	maxTransientRetries: number;
	/** ceiling for one wait (ms) */
	maxDelayMs: number;
	baseDelayMs: number;
}

export const DEFAULT_RETRY_LIMITS: RetryLimits = {
	maxRateLimitRetries: 8,
	// 9 attempts: on a path that loses one request in five, one in two million still fails
	maxTransientRetries: 8,
	maxDelayMs: 10_000,
	baseDelayMs: 400,
};

export type RetryDecision = { retry: false } | { retry: true; delayMs: number };

const TRANSIENT_STATUSES = new Set([500, 502, 503, 504]);
const MIN_DELAY_MS = 50;

/** A failure after which the same request may succeed later: no answer, a 429 or a 5xx. */
export function isTransientFailure(status: number | undefined): boolean {
	return status === undefined || status === 429 || TRANSIENT_STATUSES.has(status);
}

export function isSafeToResend(method: string, hasIdempotencyKey: boolean): boolean {
	return method.toUpperCase() === 'GET' || hasIdempotencyKey;
}

/**
 * How long to wait before attempt `attempt + 1`: the service's Retry-After when it names a positive
 * time, otherwise exponential back-off (a `Retry-After: 0` storm must not become a busy loop);
 * never more than `maxDelayMs`, whatever the header says.
 */
export function retryDelayMs(
	retryAfterSeconds: number | undefined,
	attempt: number,
	limits: RetryLimits,
	random: () => number = Math.random,
): number {
	const hinted =
		retryAfterSeconds !== undefined && retryAfterSeconds > 0
			? retryAfterSeconds * 1000
			: limits.baseDelayMs * 2 ** (attempt - 1);
	return Math.min(limits.maxDelayMs, withJitter(Math.max(hinted, MIN_DELAY_MS), random));
}

/** Up to +25 % so that many clients told the same Retry-After do not come back in one burst. */
export function withJitter(ms: number, random: () => number = Math.random): number {
	return Math.round(ms * (1 + 0.25 * random()));
}

export function decideRetry(
	failure: FailedAttempt,
	limits: RetryLimits = DEFAULT_RETRY_LIMITS,
	random: () => number = Math.random,
): RetryDecision {
	if (failure.status === 429) {
		if (failure.attempt > limits.maxRateLimitRetries) return { retry: false };
		return {
			retry: true,
			delayMs: retryDelayMs(failure.retryAfterSeconds, failure.attempt, limits, random),
		};
	}
	const transient = failure.status === undefined || TRANSIENT_STATUSES.has(failure.status);
	if (!transient || !isSafeToResend(failure.method, failure.hasIdempotencyKey))
		return { retry: false };
	// Nothing listening is rarely over in seconds: two more tries, not the full budget.
	const budget =
		failure.networkCode === 'ECONNREFUSED'
			? Math.min(2, limits.maxTransientRetries)
			: limits.maxTransientRetries;
	if (failure.attempt > budget) return { retry: false };
	return {
		retry: true,
		delayMs: retryDelayMs(failure.retryAfterSeconds, failure.attempt, limits, random),
	};
}

export function parseRetryAfter(value: unknown): number | undefined {
	const raw = Array.isArray(value) ? value[0] : value;
	if (raw === undefined || raw === null || raw === '') return undefined;
	const seconds = Number(raw);
	if (Number.isFinite(seconds) && seconds >= 0) return seconds;
	const date = Date.parse(String(raw));
	return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}
