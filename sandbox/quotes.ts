import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

import { ProblemError } from './http';
import { newId, nowIso } from './ids';
import { sameJson } from './same-json';

/**
 * Parameters a quote does not compare: billing and filing do not change the price, and the model
 * is bound as the quote's subject (an omitted model and its default name the same one).
 */
const UNBOUND = new Set(['quote_token', 'team_id', 'project_id', 'model']);

interface Quote {
	account: string;
	/** what was priced: a model alias, or the route / workflow / preset the work runs on */
	subject: string;
	/** the priced parameters as they were sent, without the unbound ones */
	params: Record<string, unknown>;
	credits: number;
	/** CostEstimate.model: the alias priced, null for work without a model */
	model: string | null;
	expiresAt: number;
}

function bound(params: Record<string, unknown>): Record<string, unknown> {
	return Object.fromEntries(Object.entries(params).filter(([k]) => !UNBOUND.has(k)));
}

/**
 * Signed, opaque quote tokens (decisions.md): the service remembers what each token priced, and a
 * submit that sends it back must carry the same parameters (compared as JSON) at the same price
 * before it expires.
 */
export class QuoteSigner {
	private readonly secret = randomBytes(32);
	private readonly quotes = new Map<string, Quote>();

	constructor(private readonly ttlSeconds: () => number) {}

	issue(
		account: string,
		subject: string,
		params: Record<string, unknown>,
		credits: number,
		model: string | null = null,
	): Record<string, unknown> {
		const id = newId('quote');
		const expiresAt = Date.now() + this.ttlSeconds() * 1000;
		this.quotes.set(id, {
			account,
			subject,
			params: structuredClone(bound(params)),
			credits,
			model,
			expiresAt,
		});
		return {
			object: 'cost_estimate',
			model,
			credits,
			currency: 'credits',
			quote_token: `q1.${id}.${this.sign(id)}`,
			expires_at: nowIso(expiresAt),
		};
	}

	/**
	 * Checks a token sent with a submit. Forged or another account's → 401 quote_invalid; lapsed →
	 * 409 quote_expired; other parameters or price → 409 quote_mismatch. Both 409s carry a fresh quote.
	 */
	verify(
		token: string,
		account: string,
		subject: string,
		params: Record<string, unknown>,
		credits: number,
	): void {
		const [version, id = '', signature = ''] = token.split('.');
		const expected = Buffer.from(this.sign(id));
		const given = Buffer.from(signature);
		const quote = this.quotes.get(id);
		if (
			version !== 'q1' ||
			given.length !== expected.length ||
			!timingSafeEqual(given, expected) ||
			!quote ||
			quote.account !== account
		) {
			throw new ProblemError(
				401,
				'quote_invalid',
				'The quote_token signature does not verify for this account',
			);
		}
		const fresh = () => this.issue(account, subject, params, credits, quote.model);
		if (quote.expiresAt < Date.now())
			throw new ProblemError(409, 'quote_expired', 'The quote lapsed; a fresh quote is attached', {
				quote: fresh(),
			});
		if (
			quote.subject !== subject ||
			quote.credits !== credits ||
			!sameJson(quote.params, bound(params))
		) {
			throw new ProblemError(
				409,
				'quote_mismatch',
				'The inputs or the price no longer match the quote; a fresh quote is attached',
				{ quote: fresh() },
			);
		}
	}

	private sign(id: string): string {
		return createHmac('sha256', this.secret).update(id).digest('base64url');
	}
}
