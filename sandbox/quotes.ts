import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

import { canonicalJson } from './canonical-json';
import { nowIso } from './ids';
import { ProblemError } from './http';

/** Parameters that do not change the price and so are not bound by a quote. */
const UNBOUND = new Set(['quote_token', 'team_id', 'project_id']);

interface QuotePayload {
	account: string;
	model: string;
	credits: number;
	params: string;
	exp: number;
}

export function quoteFingerprint(model: string, params: Record<string, unknown>): string {
	const bound = Object.fromEntries(Object.entries(params).filter(([k]) => !UNBOUND.has(k)));
	return canonicalJson({ ...bound, model });
}

/** Signed, opaque quote tokens: they bind the parameters and the price until they expire. */
export class QuoteSigner {
	private readonly secret = randomBytes(32);

	constructor(private readonly ttlSeconds: () => number) {}

	issue(account: string, model: string, params: Record<string, unknown>, credits: number): Record<string, unknown> {
		const exp = Date.now() + this.ttlSeconds() * 1000;
		const payload: QuotePayload = { account, model, credits, params: quoteFingerprint(model, params), exp };
		const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
		const token = `q1.${encoded}.${this.sign(encoded)}`;
		return { object: 'cost_estimate', model, credits, currency: 'credits', quote_token: token, expires_at: nowIso(exp) };
	}

	/**
	 * Checks a token sent with a submit. Forged → 401 quote_invalid; lapsed → 409 quote_expired;
	 * other parameters or price → 409 quote_mismatch. Both 409s carry a fresh quote.
	 */
	verify(token: string, account: string, model: string, params: Record<string, unknown>, credits: number): void {
		const [version, encoded, signature] = token.split('.');
		const expected = encoded ? this.sign(encoded) : '';
		const valid =
			version === 'q1' && signature !== undefined && signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
		if (!valid) throw new ProblemError(401, 'quote_invalid', 'The quote_token signature does not verify');
		const payload = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as QuotePayload;
		if (payload.account !== account) throw new ProblemError(401, 'quote_invalid', 'The quote_token was issued to another account');
		const fresh = () => this.issue(account, model, params, credits);
		if (payload.exp < Date.now()) throw new ProblemError(409, 'quote_expired', 'The quote lapsed; a fresh quote is attached', { quote: fresh() });
		if (payload.model !== model || payload.params !== quoteFingerprint(model, params) || payload.credits !== credits) {
			throw new ProblemError(409, 'quote_mismatch', 'The inputs or the price no longer match the quote; a fresh quote is attached', { quote: fresh() });
		}
	}

	private sign(encoded: string): string {
		return createHmac('sha256', this.secret).update(encoded).digest('base64url');
	}
}
