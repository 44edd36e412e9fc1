import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

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
