/**
 * What may appear in an error message or item: never a credential, a signing secret, a
 * pre-signed address (its query is the signature) or the user:password part of a URL.
 */

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

/** Values shorter than this are not treated as secrets (they would shred every message they occur in). */
const MIN_SECRET_LENGTH = 4;
const REDACTED = '[redacted]';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** The forms a service or proxy could echo a value in: raw, inside a JSON string, percent- or form-encoded (either hex case), base64. */
function encodingsOf(value: string): string[] {
	const url = encodeURIComponent(value);
	const forms = [
		value,
		JSON.stringify(value).slice(1, -1),
		url,
		url.replace(/%20/g, '+'),
		url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
		base64(value),
		base64(value).replace(/=+$/, ''),
	];
	return [...new Set(forms)].filter((form) => form.length >= MIN_SECRET_LENGTH);
}

/**
 * The secrets of the credential in use (API key; OAuth2 client id, client secret and access token)
 * and those met on the way (webhook signing secrets), which no error, error item or execution hint
 * may show. The one redaction step: every error the node emits, every error item and hint passes
 * through `value` or `text`, which replace each secret in every form a service could echo it in
 * (raw, JSON string-escaped, URL-encoded, base64, and the HTTP Basic `id:secret` pair as sent).
 */
export class SecretValues {
	private readonly values = new Set<string>();
	private pattern: RegExp | undefined;

	/** Adds secrets (non-strings and values shorter than 4 characters are ignored). */
	add(...values: unknown[]): this {
		for (const value of values) {
			if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH || this.values.has(value))
				continue;
			this.values.add(value);
			this.pattern = undefined;
		}
		return this;
	}

	/** Adds every secret value of a credential, and the Basic pair its client would send. */
	addCredential(credentials: Record<string, unknown> | undefined): this {
		if (!credentials) return this;
		const { apiKey, clientId, clientSecret, accessToken } = credentials;
		this.add(apiKey, clientId, clientSecret, accessToken);
		if (typeof clientId === 'string' && typeof clientSecret === 'string' && clientSecret) {
			for (const pair of [
				`${clientId}:${clientSecret}`,
				`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`,
			])
				this.add(pair);
		}
		return this;
	}

	private regex(): RegExp | undefined {
		if (this.values.size === 0) return undefined;
		if (!this.pattern) {
			const forms = [...new Set([...this.values].flatMap(encodingsOf))].sort(
				(a, b) => b.length - a.length,
			);
			this.pattern = new RegExp(forms.map(escapeRegExp).join('|'), 'g');
		}
		return this.pattern;
	}

	text(text: string): string {
		const pattern = this.regex();
		return pattern ? text.replace(pattern, REDACTED) : text;
	}

	/** Redacts every string inside a value: in place in arrays, plain objects and errors (their message, stack, description, context, cause, …). */
	value<T>(value: T): T {
		return this.scrub(value, new WeakSet(), 0) as T;
	}

	private scrub(value: unknown, seen: WeakSet<object>, depth: number): unknown {
		if (typeof value === 'string') return this.text(value);
		if (
			typeof value !== 'object' ||
			value === null ||
			depth > 12 ||
			seen.has(value) ||
			this.values.size === 0
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
