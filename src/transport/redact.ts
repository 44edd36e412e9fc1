/**
 * What may appear in an error message or item: never a credential, a signing secret, a
 * pre-signed address (its query is the signature) or the user:password part of a URL.
 */

import { issuedTokens, tokenClientOf } from './issued-tokens';

const SECRET_FIELD = /secret|token|password|api_?key|authorization|upload_url|signature/i;

/** A URL without userinfo, query and fragment (those carry passwords and signatures). */
export function redactUrl(value: string): string {
	try {
		const url = new URL(value);
		return `${url.protocol}//${url.host}${url.pathname}${url.search || url.hash ? ' (query hidden)' : ''}`;
	} catch {
		return value.replace(/\/\/[^/@\s]*@/g, '//');
	}
}

/** A copy of a response body that is safe to show: secret fields dropped, URLs cut to origin and path. */
export function redactForDisplay(value: unknown, depth = 0): unknown {
	if (depth > 8) return '…';
	if (typeof value === 'string')
		return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? redactUrl(value) : value;
	if (Array.isArray(value)) return value.slice(0, 20).map((v) => redactForDisplay(v, depth + 1));
	if (value && typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const [key, inner] of Object.entries(value))
			out[key] = SECRET_FIELD.test(key) ? '[hidden]' : redactForDisplay(inner, depth + 1);
		return out;
	}
	return value;
}

/**
 * Values shorter than this are not secrets to redact: a 4-letter API key such as "live" would turn
 * "a live concert poster" into "a [redacted] concert poster" in every message it occurs in.
 */
export const MIN_SECRET_LENGTH = 8;
/**
 * A run of this many consecutive characters of a secret, in any of its forms, is redacted wherever
 * it appears: a service or proxy that cuts what it echoes (the key minus its last character, its
 * first 19 characters, a key split across two fields) still shows that much of it. Counted in
 * characters of the secret, not of its encoding (12 characters percent-encoded may take 36). Shorter
 * runs are left: they would match ordinary text, and 11 characters of a key are not the key.
 */
export const MIN_SECRET_RUN = 12;
const REDACTED = '[redacted]';
/** How many characters of a piece the index is keyed by (every piece is at least this long). */
const KEY_LENGTH = MIN_SECRET_LENGTH;

/** Lower-case for A–Z only: the same length as the text, so a match found in it has its place in the text. */
const foldCase = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * The forms a service or proxy could echo a text in: raw, inside a JSON string, percent-encoded
 * (once or twice) or form-encoded, hex, base64 and base64url. Matching ignores the case of A–Z,
 * which also covers upper-case values and upper- or lower-case hex and percent-encoding.
 */
function encodingsOf(value: string): string[] {
	const url = encodeURIComponent(value);
	const bytes = Buffer.from(value, 'utf8');
	const encoded = bytes.toString('base64');
	return [
		value,
		JSON.stringify(value).slice(1, -1),
		url,
		url.replace(/%20/g, '+'),
		encodeURIComponent(url),
		bytes.toString('hex'),
		encoded,
		encoded.replace(/=+$/, ''),
		bytes.toString('base64url'),
	];
}

/**
 * What to look for of one secret: each run of MIN_SECRET_RUN characters of it in each form (a
 * shorter secret: itself, whole, in each form). Runs in every position, so that the base64 of any
 * piece of the secret holds the base64 of one of them (12 ASCII characters are 16 base64 ones).
 */
function piecesOf(value: string, whole: boolean): string[] {
	if (whole || value.length < MIN_SECRET_RUN) return encodingsOf(value);
	const pieces: string[] = [];
	for (let i = 0; i + MIN_SECRET_RUN <= value.length; i++)
		pieces.push(...encodingsOf(value.slice(i, i + MIN_SECRET_RUN)));
	return pieces;
}

/**
 * The secrets of the credential in use (API key; OAuth2 client secret and every access token the
 * credential held) and those met on the way (webhook signing secrets), which no error, error item
 * or execution hint may show. The one redaction step: every error the node emits, every error item
 * and hint passes through `value` or `text`. Each secret of MIN_SECRET_LENGTH characters or more
 * is replaced in every form a service could echo it in (encodingsOf), whole or as any run of
 * MIN_SECRET_RUN of its characters. An OAuth2 client id is not a secret (RFC 6749 §2.2): only the
 * HTTP Basic `id:secret` pair that holds it with the secret is, and only whole.
 */
export class SecretValues {
	private readonly values = new Set<string>();
	/** values redacted only whole: the Basic pair, whose runs include the (public) client id */
	private readonly wholeValues = new Set<string>();
	/** the folded pieces to find, by their first KEY_LENGTH characters */
	private pieces: Map<string, string[]> | undefined;
	/** the OAuth2 clients whose tokens are secrets, each with the tokens fetched for it (a live list) */
	private readonly tokenLists = new Map<string, readonly string[]>();
	private tokensSeen = 0;

	/** Adds secrets (non-strings and values shorter than MIN_SECRET_LENGTH are ignored). */
	add(...values: unknown[]): this {
		for (const value of values) {
			if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH || this.values.has(value))
				continue;
			this.values.add(value);
			this.pieces = undefined;
		}
		return this;
	}

	/** Adds every secret value of a credential, and the Basic pair its client would send. */
	addCredential(credentials: Record<string, unknown> | undefined): this {
		if (!credentials) return this;
		const { apiKey, clientId, clientSecret, accessToken } = credentials;
		this.add(apiKey, clientSecret, accessToken);
		const client = tokenClientOf(credentials);
		if (client && !this.tokenLists.has(client)) this.tokenLists.set(client, issuedTokens(client));
		if (typeof clientId === 'string' && typeof clientSecret === 'string' && clientSecret) {
			for (const pair of [
				`${clientId}:${clientSecret}`,
				`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`,
			]) {
				if (this.wholeValues.has(pair)) continue;
				this.wholeValues.add(pair);
				this.pieces = undefined;
			}
		}
		return this;
	}

	/** Adds the tokens fetched since the last look (every token the credential held, refreshed ones too). */
	private followTokens(): void {
		let count = 0;
		for (const tokens of this.tokenLists.values()) count += tokens.length;
		if (count === this.tokensSeen) return;
		this.tokensSeen = count;
		for (const tokens of this.tokenLists.values()) this.add(...tokens);
	}

	private index(): Map<string, string[]> {
		this.followTokens();
		if (!this.pieces) {
			const pieces = new Map<string, string[]>();
			const all = [
				...[...this.values].flatMap((value) => piecesOf(value, false)),
				...[...this.wholeValues].flatMap((value) => piecesOf(value, true)),
			];
			for (const piece of new Set(all.map(foldCase))) {
				if (piece.length < KEY_LENGTH) continue;
				const key = piece.slice(0, KEY_LENGTH);
				pieces.set(key, [...(pieces.get(key) ?? []), piece]);
			}
			this.pieces = pieces;
		}
		return this.pieces;
	}

	/**
	 * The text with every piece of a secret replaced: each place where a piece occurs is marked,
	 * and each stretch of marked characters becomes one "[redacted]" (overlapping pieces of one
	 * secret join up, so a whole echo leaves one marker and no character of it).
	 */
	text(text: string): string {
		this.followTokens();
		if (this.values.size + this.wholeValues.size === 0 || text.length < MIN_SECRET_LENGTH)
			return text;
		const folded = foldCase(text);
		const index = this.index();
		let marked: Uint8Array | undefined;
		for (let i = 0; i + KEY_LENGTH <= folded.length; i++) {
			const candidates = index.get(folded.slice(i, i + KEY_LENGTH));
			if (!candidates) continue;
			for (const piece of candidates) {
				if (!folded.startsWith(piece, i)) continue;
				marked ??= new Uint8Array(text.length);
				marked.fill(1, i, i + piece.length);
			}
		}
		if (!marked) return text;
		let out = '';
		for (let i = 0; i < text.length; ) {
			if (!marked[i]) {
				const next = marked.indexOf(1, i);
				const end = next < 0 ? text.length : next;
				out += text.slice(i, end);
				i = end;
			} else {
				const next = marked.indexOf(0, i);
				out += REDACTED;
				i = next < 0 ? text.length : next;
			}
		}
		return out;
	}

	/** Redacts every string inside a value: in place in arrays, plain objects and errors (their message, stack, description, context, cause, …). */
	value<T>(value: T): T {
		this.followTokens();
		return this.scrub(value, new WeakSet(), 0) as T;
	}

	private scrub(value: unknown, seen: WeakSet<object>, depth: number): unknown {
		if (typeof value === 'string') return this.text(value);
		if (
			typeof value !== 'object' ||
			value === null ||
			depth > 12 ||
			seen.has(value) ||
			this.values.size + this.wholeValues.size === 0
		)
			return value;
		seen.add(value);
		if (Array.isArray(value)) {
			for (let i = 0; i < value.length; i++) value[i] = this.scrub(value[i], seen, depth + 1);
			return value;
		}
		const prototype = Object.getPrototypeOf(value) as unknown;
		const isError = value instanceof Error;
		if (!isError && prototype !== Object.prototype && prototype !== null) return value;
		const record = value as Record<string, unknown>;
		// an error's message and stack are not enumerable; its node is the workflow's, never a secret holder
		for (const key of isError ? Object.getOwnPropertyNames(value) : Object.keys(value)) {
			if (key === 'node') continue;
			const inner = record[key];
			const scrubbed = this.scrub(inner, seen, depth + 1);
			if (scrubbed !== inner) Reflect.set(record, key, scrubbed);
		}
		return value;
	}
}
