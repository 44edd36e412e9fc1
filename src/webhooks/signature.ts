import { createHmac, timingSafeEqual } from 'node:crypto';

import { isWebhookEvent, type WebhookEvent } from './events';

const PREFIX = 'sha256=';
/** `sha256=` + 64 lowercase hex digits */
const SIGNATURE_PATTERN = /^sha256=[0-9a-f]{64}$/;

/** The `X-Service-Signature` value of a body: `sha256=` + lowercase hex HMAC-SHA256 of the exact bytes. */
export function signPayload(secret: string, rawBody: Buffer | string): string {
	return PREFIX + createHmac('sha256', secret).update(rawBody).digest('hex');
}

export type RejectReason =
	/** no signature header, or no body to check it against */
	| 'missing_signature'
	/** not `sha256=` + 64 lowercase hex digits */
	| 'malformed_signature'
	/** well-formed, but not the HMAC of this body with this secret */
	| 'signature_mismatch'
	/** signed, but not an event body */
	| 'invalid_event'
	/** signed, but `created_at` is older than the allowed age (or unreadable) */
	| 'stale_event'
	/** signed, but `created_at` is further in the future than clocks differ (it would never go stale) */
	| 'future_event';

export type Verification = { ok: true; event: WebhookEvent } | { ok: false; reason: RejectReason };

/**
 * Whether `header` is the signature of `rawBody` with `secret`. The comparison runs in constant
 * time over equal-length values; a header of another length or form never reaches it.
 */
export function signatureMatches(
	secret: string,
	rawBody: Buffer | string,
	header: string | undefined,
): RejectReason | true {
	if (!header || rawBody === undefined || rawBody === null) return 'missing_signature';
	const value = header.trim();
	if (!SIGNATURE_PATTERN.test(value)) return 'malformed_signature';
	const expected = Buffer.from(signPayload(secret, rawBody), 'utf8');
	const actual = Buffer.from(value, 'utf8');
	return expected.length === actual.length && timingSafeEqual(expected, actual)
		? true
		: 'signature_mismatch';
}

/** Whether an event created at `createdAt` is more than `maxAgeMinutes` old (unparsable counts as stale). */
export function isStale(
	createdAt: string,
	maxAgeMinutes: number,
	now: number = Date.now(),
): boolean {
	const at = Date.parse(createdAt);
	if (Number.isNaN(at)) return true;
	return now - at > maxAgeMinutes * 60_000;
}

/**
 * How far ahead of n8n's clock a signed `created_at` may be: the service's and n8n's clocks differ a
 * little. An event from further ahead is refused while an age limit is on, since it would stay
 * "fresh" for as long as it is ahead and could be replayed all that time.
 */
export const MAX_CLOCK_SKEW_MINUTES = 5;

/** Whether an event created at `createdAt` is more than MAX_CLOCK_SKEW_MINUTES ahead of `now`. */
export function isFromTheFuture(createdAt: string, now: number = Date.now()): boolean {
	return Date.parse(createdAt) - now > MAX_CLOCK_SKEW_MINUTES * 60_000;
}

export interface VerifyOptions {
	secret: string;
	rawBody: Buffer | string | undefined;
	signatureHeader: string | string[] | undefined;
	/** reject events whose signed `created_at` is older than this; 0 or absent: no check */
	maxAgeMinutes?: number;
	now?: number;
}

/**
 * Verifies a delivery: signature first (over the exact raw bytes), then the body's shape, then
 * the age of the signed `created_at` (not older than the limit, not further ahead than clocks differ). Nothing in the body is trusted before the signature holds.
 */
export function verifyDelivery(options: VerifyOptions): Verification {
	const header = Array.isArray(options.signatureHeader)
		? options.signatureHeader[0]
		: options.signatureHeader;
	if (options.rawBody === undefined || options.rawBody.length === 0)
		return { ok: false, reason: 'missing_signature' };
	const match = signatureMatches(options.secret, options.rawBody, header);
	if (match !== true) return { ok: false, reason: match };
	let event: unknown;
	try {
		event = JSON.parse(
			Buffer.isBuffer(options.rawBody) ? options.rawBody.toString('utf8') : options.rawBody,
		);
	} catch {
		return { ok: false, reason: 'invalid_event' };
	}
	if (!isWebhookEvent(event)) return { ok: false, reason: 'invalid_event' };
	if (options.maxAgeMinutes && options.maxAgeMinutes > 0) {
		if (isStale(event.created_at, options.maxAgeMinutes, options.now))
			return { ok: false, reason: 'stale_event' };
		if (isFromTheFuture(event.created_at, options.now))
			return { ok: false, reason: 'future_event' };
	}
	return { ok: true, event };
}
