import { createHmac } from 'node:crypto';

/** The four event kinds of the API document's Events table. */
export const EVENT_TYPES = [
	'run.completed',
	'run.failed',
	'batch.completed',
	'batch.failed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: unknown): value is EventType {
	return (EVENT_TYPES as readonly unknown[]).includes(value);
}

/** Headers of a delivery (decisions.md). */
export const SIGNATURE_HEADER = 'X-Service-Signature';
export const EVENT_HEADER = 'X-Service-Event';
export const DELIVERY_HEADER = 'X-Service-Delivery';

/**
 * The signature header value of a delivery: `sha256=` and the lowercase hex HMAC-SHA256 of the
 * exact bytes of the request body, keyed with the endpoint's signing secret (decisions.md).
 */
export function signatureOf(signingSecret: string, body: Buffer): string {
	return `sha256=${createHmac('sha256', Buffer.from(signingSecret, 'utf8')).update(body).digest('hex')}`;
}
