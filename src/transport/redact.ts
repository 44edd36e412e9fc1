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
	if (typeof value === 'string') return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? redactUrl(value) : value;
	if (Array.isArray(value)) return value.slice(0, 20).map((v) => redactForDisplay(v, depth + 1));
	if (value && typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const [key, inner] of Object.entries(value)) out[key] = SECRET_FIELD.test(key) ? '[hidden]' : redactForDisplay(inner, depth + 1);
		return out;
	}
	return value;
}
