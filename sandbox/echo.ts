import type { Request } from 'express';

import type { SecretEcho } from './state';

/** The token request's client as sent: the JSON body's fields, or HTTP Basic (each part form-encoded, RFC 6749 §2.3.1). */
function clientOf(req: Request): { id?: string; secret?: string; basic?: string } {
	const basic = /^Basic\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
	if (basic) {
		const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':');
		const decode = (part: string | undefined) =>
			part === undefined ? undefined : decodeURIComponent(part.replace(/\+/g, ' '));
		return { id: decode(id), secret: decode(secret), basic };
	}
	const body = (req.body ?? {}) as Record<string, unknown>;
	return {
		id: typeof body.client_id === 'string' ? body.client_id : undefined,
		secret: typeof body.client_secret === 'string' ? body.client_secret : undefined,
	};
}

function secretOf(req: Request, echo: SecretEcho): string {
	switch (echo.secret) {
		case 'bearer':
			return /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1] ?? '';
		case 'client_id':
			return clientOf(req).id ?? '';
		case 'client_secret':
			return clientOf(req).secret ?? '';
		case 'basic':
			return clientOf(req).basic ?? '';
		case 'value':
			return echo.value ?? '';
	}
}

function encoded(value: string, encoding: SecretEcho['encoding']): string {
	switch (encoding ?? 'raw') {
		case 'json':
			return JSON.stringify(value).slice(1, -1);
		case 'url':
			return encodeURIComponent(value);
		case 'base64':
			return Buffer.from(value, 'utf8').toString('base64');
		default:
			return value;
	}
}

/** The text of an echo fault: the secret, encoded, inside a sentence as careless services write them. */
export function echoedText(req: Request, echo: SecretEcho): string {
	return `request ${req.method} ${req.path} with credential "${encoded(secretOf(req, echo), echo.encoding)}" was refused`;
}
