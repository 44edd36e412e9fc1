/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: the secrets are made up, to check their redaction (CONTRIBUTING.md, Linting) */
import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import { noteIssuedToken } from '../../../src/transport/issued-tokens';
import { SecretValues } from '../../../src/transport/redact';

const node: INode = {
	id: 'n',
	name: 'MediaGen',
	type: 'n8n-nodes-mediagen.mediaGenImage',
	typeVersion: 1,
	position: [0, 0],
	parameters: { apiKeyLike: 'k' },
};

describe('SecretValues: the one redaction step', () => {
	const KEY = 'mg_key "with" space/slash+plus';

	it.each([
		['raw', KEY],
		['inside a JSON string', JSON.stringify(KEY).slice(1, -1)],
		['percent-encoded', encodeURIComponent(KEY)],
		[
			'percent-encoded, lower-case hex',
			encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
		],
		['form-encoded (space as +)', encodeURIComponent(KEY).replace(/%20/g, '+')],
		['base64', Buffer.from(KEY).toString('base64')],
		['base64 without padding', Buffer.from(KEY).toString('base64').replace(/=+$/, '')],
	])('removes the value %s', (_form, shown) => {
		const secrets = new SecretValues().add(KEY);
		expect(secrets.text(`before ${shown} after`)).toBe('before [redacted] after');
	});

	it('removes the Basic pair of a client as sent (each part form-encoded, then base64)', () => {
		const secrets = new SecretValues().addCredential({
			clientId: 'client:1',
			clientSecret: 's/e c',
		});
		const header = Buffer.from(
			`${encodeURIComponent('client:1')}:${encodeURIComponent('s/e c')}`,
		).toString('base64');
		expect(secrets.text(`Authorization: Basic ${header}`)).toBe('Authorization: Basic [redacted]');
	});

	it('ignores values too short to be secrets, and values that are not text', () => {
		const secrets = new SecretValues().add('abc', 42, undefined, null);
		expect(secrets.text('abc 42')).toBe('abc 42');
	});

	it('scrubs an error in place: message, description, stack, context and cause; never the workflow node', () => {
		const secrets = new SecretValues().add('mg_key_leak_123');
		const error = new NodeApiError(node, { detail: 'key mg_key_leak_123 refused' } as JsonObject, {
			message: 'refused mg_key_leak_123',
			description: 'about mg_key_leak_123',
		});
		error.context.problem = {
			detail: 'mg_key_leak_123',
			nested: [{ again: 'mg_key_leak_123' }],
		} as JsonObject;
		node.parameters.apiKeyLike = 'mg_key_leak_123';
		secrets.value(error);
		expect(
			JSON.stringify({
				...error,
				node: undefined,
				message: error.message,
				stack: error.stack,
				description: error.description,
			}),
		).not.toContain('mg_key_leak_123');
		expect(error.message).toBe('refused [redacted]');
		expect(node.parameters.apiKeyLike).toBe('mg_key_leak_123');
	});
});

describe('SecretValues: truncated and re-encoded echoes (issue 32, 15)', () => {
	const KEY = 'mg_live_7Hq2x/VbN9+kPz R4=tW8?yLs';
	const secrets = () => new SecretValues().add(KEY);

	it.each([
		['the key minus its last character', KEY.slice(0, -1)],
		['its first 19 characters', KEY.slice(0, 19)],
		['any run of 12 of its characters', KEY.slice(5, 17)],
		['its last 12 characters', KEY.slice(-12)],
		['upper-case', KEY.toUpperCase()],
		['lower-case', KEY.toLowerCase()],
		['hex', Buffer.from(KEY).toString('hex')],
		['upper-case hex', Buffer.from(KEY).toString('hex').toUpperCase()],
		['truncated hex', Buffer.from(KEY).toString('hex').slice(3, 30)],
		['double URL-encoded', encodeURIComponent(encodeURIComponent(`${KEY}/x`))],
		['base64 of its tail', Buffer.from(KEY.slice(4)).toString('base64')],
		['base64url', Buffer.from(KEY).toString('base64url')],
	])('removes %s', (_form, shown) => {
		const out = secrets().text(`before ${shown} after`);
		expect(out).toMatch(/^before .*\[redacted\].* after$/);
		for (let i = 0; i + 12 <= shown.length; i++)
			expect({ run: shown.slice(i, i + 12), in: out.includes(shown.slice(i, i + 12)) }).toEqual({
				run: shown.slice(i, i + 12),
				in: false,
			});
	});

	it('removes a key split across two fields, each half of 12 characters or more', () => {
		const [first, second] = [KEY.slice(0, 14), KEY.slice(14)];
		const error = { title: `key ${first}`, detail: `rest ${second}` };
		expect(secrets().value(error)).toEqual({ title: 'key [redacted]', detail: 'rest [redacted]' });
	});

	it('leaves runs shorter than 12 characters (the documented limit): they name too little of a key to use', () => {
		expect(secrets().text(`id ${KEY.slice(0, 11)}`)).toBe(`id ${KEY.slice(0, 11)}`);
	});
});

describe('SecretValues: what is not a secret (issue 32, 16)', () => {
	it('ignores values shorter than 8 characters: an API key "live" leaves "a live concert poster" whole', () => {
		const secrets = new SecretValues().add('live', 'acme1');
		expect(secrets.text('a live concert poster for acme1')).toBe('a live concert poster for acme1');
	});

	it('redacts a value of 8 to 11 characters only whole', () => {
		const secrets = new SecretValues().add('s3cr3tPw9');
		expect(secrets.text('pw s3cr3tPw9 or s3cr3tPw')).toBe('pw [redacted] or s3cr3tPw');
	});

	it('treats an OAuth2 client id as public (RFC 6749 §2.2) but still redacts the Basic pair it sends with the secret', () => {
		const secrets = new SecretValues().addCredential({
			clientId: 'acme-corp-client',
			clientSecret: 'very-secret-client-value',
		});
		expect(secrets.text('banner for acme-corp-client')).toBe('banner for acme-corp-client');
		const basic = Buffer.from('acme-corp-client:very-secret-client-value').toString('base64');
		expect(secrets.text(`Basic ${basic}`)).toBe('Basic [redacted]');
		expect(secrets.text('very-secret-client-value')).toBe('[redacted]');
	});
});

describe('SecretValues: every access token the OAuth2 credential held (issue 32, 14)', () => {
	it('learns a token as the credential fetches it, after the redaction step was made for that client', () => {
		const credentials = {
			baseUrl: 'https://api.example.test/v1/',
			clientId: 'client-for-token-test',
			clientSecret: 'client-secret-for-token-test',
			accessToken: 'first_token_0123456789abcdef',
		};
		const secrets = new SecretValues().addCredential(credentials);
		expect(secrets.text('first_token_0123456789abcdef')).toBe('[redacted]');
		noteIssuedToken(
			{ ...credentials, baseUrl: 'https://api.example.test/v1' },
			'second_token_0123456789abcdef',
		);
		expect(secrets.value({ detail: 'second_token_0123456789abcdef' })).toEqual({
			detail: '[redacted]',
		});
		// another client's tokens are not this credential's
		noteIssuedToken(
			{ ...credentials, clientId: 'another-client' },
			'zz-other-client-token-QRSTUVWX',
		);
		expect(secrets.text('zz-other-client-token-QRSTUVWX')).toBe('zz-other-client-token-QRSTUVWX');
	});
});
