/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { createHmac } from 'node:crypto';

import {
	isFromTheFuture,
	isStale,
	MAX_CLOCK_SKEW_MINUTES,
	signatureMatches,
	signPayload,
	verifyDelivery,
} from '../../../src/webhooks/signature';

const SECRET = 'whsec_test_secret_0123456789';
const event = (createdAt: string) => ({
	id: 'evt_1',
	object: 'event',
	type: 'run.completed',
	created_at: createdAt,
	data: {
		object: { id: 'run_1', object: 'run', status: 'completed', capability: 'image_generation' },
	},
});
// not JSON.stringify's own spacing: the raw bytes are what is signed, whatever their layout
const body = (createdAt = new Date().toISOString()) =>
	Buffer.from(JSON.stringify(event(createdAt), null, 1), 'utf8');

describe('webhook signatures', () => {
	it('signs as sha256= + lowercase hex HMAC-SHA256 of the exact bytes', () => {
		const raw = body();
		const expected = createHmac('sha256', SECRET).update(raw).digest('hex');
		expect(signPayload(SECRET, raw)).toBe(`sha256=${expected}`);
		expect(signPayload(SECRET, raw)).toMatch(/^sha256=[0-9a-f]{64}$/);
	});

	it('accepts a valid signature and returns the parsed event', () => {
		const raw = body();
		const result = verifyDelivery({
			secret: SECRET,
			rawBody: raw,
			signatureHeader: signPayload(SECRET, raw),
		});
		expect(result).toEqual({
			ok: true,
			event: expect.objectContaining({ id: 'evt_1', type: 'run.completed' }),
		});
	});

	it('rejects a signature made with another secret', () => {
		const raw = body();
		const result = verifyDelivery({
			secret: SECRET,
			rawBody: raw,
			signatureHeader: signPayload('whsec_other', raw),
		});
		expect(result).toEqual({ ok: false, reason: 'signature_mismatch' });
	});

	it('rejects the signature when one byte of the body changed', () => {
		const raw = body();
		const header = signPayload(SECRET, raw);
		const changed = Buffer.from(raw);
		const at = changed.indexOf('run_1') + 4;
		changed[at] = '2'.charCodeAt(0);
		expect(changed.equals(raw)).toBe(false);
		expect(verifyDelivery({ secret: SECRET, rawBody: changed, signatureHeader: header })).toEqual({
			ok: false,
			reason: 'signature_mismatch',
		});
		// the same JSON re-serialized differently is another byte string, so it fails too
		const reserialized = Buffer.from(JSON.stringify(JSON.parse(raw.toString('utf8'))));
		expect(
			verifyDelivery({ secret: SECRET, rawBody: reserialized, signatureHeader: header }),
		).toEqual({ ok: false, reason: 'signature_mismatch' });
	});

	it('rejects a missing header (and an empty body)', () => {
		const raw = body();
		expect(verifyDelivery({ secret: SECRET, rawBody: raw, signatureHeader: undefined })).toEqual({
			ok: false,
			reason: 'missing_signature',
		});
		expect(verifyDelivery({ secret: SECRET, rawBody: raw, signatureHeader: '' })).toEqual({
			ok: false,
			reason: 'missing_signature',
		});
		expect(
			verifyDelivery({
				secret: SECRET,
				rawBody: Buffer.alloc(0),
				signatureHeader: signPayload(SECRET, ''),
			}),
		).toEqual({ ok: false, reason: 'missing_signature' });
	});

	it('rejects a signature without the sha256= prefix', () => {
		const raw = body();
		const hex = signPayload(SECRET, raw).slice('sha256='.length);
		expect(verifyDelivery({ secret: SECRET, rawBody: raw, signatureHeader: hex })).toEqual({
			ok: false,
			reason: 'malformed_signature',
		});
		expect(
			verifyDelivery({ secret: SECRET, rawBody: raw, signatureHeader: `sha1=${hex}` }),
		).toEqual({ ok: false, reason: 'malformed_signature' });
	});

	it('rejects a signature of the wrong length or alphabet before comparing', () => {
		const raw = body();
		const header = signPayload(SECRET, raw);
		expect(signatureMatches(SECRET, raw, `x${header}`)).toBe('malformed_signature');
		expect(signatureMatches(SECRET, raw, header.slice(0, -1))).toBe('malformed_signature');
		expect(signatureMatches(SECRET, raw, `${header}0`)).toBe('malformed_signature');
		expect(signatureMatches(SECRET, raw, header.toUpperCase().replace('SHA256=', 'sha256='))).toBe(
			'malformed_signature',
		);
		expect(signatureMatches(SECRET, raw, header)).toBe(true);
	});

	it('takes the first of repeated signature headers, and tolerates blanks around the value', () => {
		const raw = body();
		const header = signPayload(SECRET, raw);
		expect(
			verifyDelivery({
				secret: SECRET,
				rawBody: raw,
				signatureHeader: [header, signPayload('whsec_other', raw)],
			}).ok,
		).toBe(true);
		expect(
			verifyDelivery({
				secret: SECRET,
				rawBody: raw,
				signatureHeader: [signPayload('whsec_other', raw), header],
			}),
		).toEqual({ ok: false, reason: 'signature_mismatch' });
		expect(
			verifyDelivery({ secret: SECRET, rawBody: raw, signatureHeader: ` ${header}\t` }).ok,
		).toBe(true);
	});

	it('answers missing_signature, not a crash, when there is no body to check', () => {
		const header = signPayload(SECRET, '');
		expect(signatureMatches(SECRET, undefined as unknown as string, header)).toBe(
			'missing_signature',
		);
		expect(signatureMatches(SECRET, null as unknown as string, header)).toBe('missing_signature');
		expect(verifyDelivery({ secret: SECRET, rawBody: undefined, signatureHeader: header })).toEqual(
			{ ok: false, reason: 'missing_signature' },
		);
	});

	it('verifies a body given as text like the same bytes as a Buffer', () => {
		const raw = body();
		const text = raw.toString('utf8');
		expect(
			verifyDelivery({ secret: SECRET, rawBody: text, signatureHeader: signPayload(SECRET, raw) }),
		).toEqual({ ok: true, event: expect.objectContaining({ id: 'evt_1' }) });
	});

	it('rejects a stale created_at only when the age option is on', () => {
		const old = new Date(Date.now() - 10 * 60_000).toISOString();
		const raw = body(old);
		const header = signPayload(SECRET, raw);
		expect(
			verifyDelivery({ secret: SECRET, rawBody: raw, signatureHeader: header, maxAgeMinutes: 5 }),
		).toEqual({ ok: false, reason: 'stale_event' });
		expect(
			verifyDelivery({ secret: SECRET, rawBody: raw, signatureHeader: header, maxAgeMinutes: 15 })
				.ok,
		).toBe(true);
		expect(
			verifyDelivery({ secret: SECRET, rawBody: raw, signatureHeader: header, maxAgeMinutes: 0 })
				.ok,
		).toBe(true);
		// a negative age is no check, like 0 (the trigger itself never passes one: it falls back to 5)
		expect(
			verifyDelivery({ secret: SECRET, rawBody: raw, signatureHeader: header, maxAgeMinutes: -1 })
				.ok,
		).toBe(true);
		expect(verifyDelivery({ secret: SECRET, rawBody: raw, signatureHeader: header }).ok).toBe(true);
	});

	it('rejects a created_at further in the future than clocks differ (5 minutes) while the age option is on (issue 24: it never went stale)', () => {
		const now = Date.parse('2026-01-01T12:00:00Z');
		const at = (iso: string) => {
			const raw = body(iso);
			return (maxAgeMinutes: number) =>
				verifyDelivery({
					secret: SECRET,
					rawBody: raw,
					signatureHeader: signPayload(SECRET, raw),
					maxAgeMinutes,
					now,
				});
		};
		expect(MAX_CLOCK_SKEW_MINUTES).toBe(5);
		expect(at('2027-01-01T12:00:00Z')(5)).toEqual({ ok: false, reason: 'future_event' });
		expect(at('2026-01-01T12:05:01Z')(5)).toEqual({ ok: false, reason: 'future_event' });
		// exactly 5 minutes ahead is a clock difference, still accepted
		expect(at('2026-01-01T12:05:00Z')(5).ok).toBe(true);
		expect(at('2026-01-01T12:01:00Z')(60).ok).toBe(true);
		// with no age limit nothing goes stale, so the future is no replay risk either
		expect(at('2027-01-01T12:00:00Z')(0).ok).toBe(true);
		expect(isFromTheFuture('2026-01-01T12:05:01Z', now)).toBe(true);
		expect(isFromTheFuture('2026-01-01T12:05:00Z', now)).toBe(false);
	});

	it('judges staleness by the signed created_at, and treats an unreadable one as stale', () => {
		const now = Date.parse('2026-01-01T12:00:00Z');
		expect(isStale('2026-01-01T11:56:00Z', 5, now)).toBe(false);
		// "older than 5 minutes": exactly 5 minutes old is still accepted
		expect(isStale('2026-01-01T11:55:00Z', 5, now)).toBe(false);
		expect(isStale('2026-01-01T11:54:59Z', 5, now)).toBe(true);
		expect(isStale('yesterday', 5, now)).toBe(true);
	});

	it('rejects a correctly signed body that is not an event', () => {
		const raw = Buffer.from('{"hello":"world"}');
		expect(
			verifyDelivery({ secret: SECRET, rawBody: raw, signatureHeader: signPayload(SECRET, raw) }),
		).toEqual({ ok: false, reason: 'invalid_event' });
		const notJson = Buffer.from('not json');
		expect(
			verifyDelivery({
				secret: SECRET,
				rawBody: notJson,
				signatureHeader: signPayload(SECRET, notJson),
			}),
		).toEqual({ ok: false, reason: 'invalid_event' });
	});
});

describe('a signed body that is not an event', () => {
	const valid = event(new Date().toISOString()) as unknown as Record<string, unknown>;
	const verdict = (value: unknown) => {
		const raw = JSON.stringify(value);
		return verifyDelivery({
			secret: SECRET,
			rawBody: raw,
			signatureHeader: signPayload(SECRET, raw),
		});
	};

	it.each<[string, unknown]>([
		['null', null],
		['an array', [valid]],
		['a string', 'run.completed'],
		['no id', { ...valid, id: undefined }],
		['an unknown type', { ...valid, type: 'run.deleted' }],
		['a type that is not text', { ...valid, type: 7 }],
		['no created_at', { ...valid, created_at: undefined }],
		['no data.object', { ...valid, data: {} }],
		['data.object null', { ...valid, data: { object: null } }],
		['data.object a list', { ...valid, data: { object: [] } }],
	])('is refused as invalid_event: %s', (_name, value) => {
		expect(verdict(value)).toEqual({ ok: false, reason: 'invalid_event' });
	});

	it('is accepted when it is one', () => {
		expect(verdict(valid).ok).toBe(true);
	});
});
