import { createHash } from 'node:crypto';

import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { CREDIT_LIMIT_PROPERTIES } from '../src/credentials/credit-limits';
import { ALL_NODE_SCOPES } from '../src/credentials/scopes';
import { noteIssuedToken } from '../src/transport/issued-tokens';
import { SecretValues } from '../src/transport/redact';

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
const baseUrlOf = (credentials: ICredentialDataDecryptedObject) =>
	text(credentials.baseUrl).replace(/\/+$/, '');
const scopeOf = (credentials: ICredentialDataDecryptedObject) =>
	text(credentials.scope).split(/\s+/).filter(Boolean).join(' ');

/**
 * What a kept token was issued for (hashed with the token, so equal settings never hash alike twice).
 * A token made before the user changed the client, secret, scope or address is not sent: the 401
 * that follows makes n8n fetch one for the new settings.
 */
function issuedFor(credentials: ICredentialDataDecryptedObject, token: string): string {
	const settings = [
		token,
		baseUrlOf(credentials),
		text(credentials.clientId),
		String(credentials.clientSecret ?? ''),
		scopeOf(credentials),
		credentials.authentication,
	];
	return createHash('sha256').update(JSON.stringify(settings)).digest('hex');
}

const asObject = (value: unknown): IDataObject | undefined =>
	typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;

function parsed(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	try {
		return JSON.parse(body) as unknown;
	} catch {
		return undefined;
	}
}

/**
 * The error a failed token request becomes: a problem document with the service's `code` (a
 * standard OAuth `error` body is read too), never the request (it holds the secret). Its shape is
 * chosen for how n8n wraps it: `response.data` becomes the NodeApiError's `context.data` (the node
 * reads the problem there); `response` has no `status`, so n8n does not take a refused client for an
 * expired token and ask again; `code` is not a status, so n8n keeps this message (credential test).
 */
function tokenRefused(
	status: number,
	body: unknown,
	credentials: ICredentialDataDecryptedObject,
): Error {
	// a service or proxy that echoes the client id or secret (raw, escaped, encoded, as the Basic header) shows nothing of them
	const service = asObject(new SecretValues().addCredential(credentials).value(parsed(body)));
	const problem: IDataObject = typeof service?.code === 'string' ? { ...service } : {};
	problem.code = text(problem.code) || text(service?.error) || `http_${status}`;
	problem.status = status;
	problem.title = `The token request of the MediaGen OAuth2 credential failed (HTTP ${status} from POST /oauth/token)`;
	const detail = text(service?.detail) || text(service?.error_description);
	if (detail) problem.detail = detail;
	else delete problem.detail;
	return Object.assign(
		new Error(`${String(problem.code)} — ${String(problem.title)}${detail ? `: ${detail}` : ''}`),
		{
			code: problem.code,
			response: { data: problem },
		},
	);
}

export class MediaGenOAuth2Api implements ICredentialType {
	name = 'mediaGenOAuth2Api';

	displayName = 'MediaGen OAuth2 API';

	icon = { light: 'file:../icons/mediagen.svg', dark: 'file:../icons/mediagen.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://mediagen.example.com/v1',
			hint: 'Your MediaGen service’s API address, ending in /v1',
			description:
				'Where every request of this credential goes, including the version segment /v1; the credential gets its tokens from this address plus /oauth/token',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			hint: 'The ID and secret of an OAuth client of your MediaGen account (client credentials)',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'string',
			default: ALL_NODE_SCOPES.join(' '),
			description: 'Space-separated scopes to request. Empty asks for the client’s default scopes.',
		},
		{
			displayName: 'Send Client Credentials',
			name: 'authentication',
			type: 'options',
			options: [
				{ name: 'In the Request Body (JSON)', value: 'body' },
				{ name: 'As HTTP Basic Auth Header', value: 'header' },
			],
			default: 'body',
		},
		...CREDIT_LIMIT_PROPERTIES,
		// Filled by preAuthentication; n8n calls it again when the field is empty or a request gets 401.
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		{
			displayName: 'Access Token Issued For',
			name: 'accessTokenFor',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
	];

	/**
	 * The document's client-credentials request: a JSON body with grant_type, client_id,
	 * client_secret and the optional scope, or the client as HTTP Basic and only grant_type and scope
	 * in the body.
	 */
	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		const clientId = text(credentials.clientId);
		const clientSecret = String(credentials.clientSecret ?? '');
		const basic = credentials.authentication === 'header';
		const body: IDataObject = basic
			? { grant_type: 'client_credentials' }
			: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret };
		const scope = scopeOf(credentials);
		if (scope) body.scope = scope;
		const headers: IDataObject = { Accept: 'application/json', 'Content-Type': 'application/json' };
		if (basic) {
			// RFC 6749 §2.3.1: each part form-encoded before joining
			const pair = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
			headers.Authorization = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
		}
		const request: IHttpRequestOptions = {
			method: 'POST',
			url: `${baseUrlOf(credentials)}/oauth/token`,
			headers,
			body,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			// the request carries the secret: never to another address
			disableFollowRedirect: true,
			timeout: 30_000,
		};
		let response: { statusCode: number; body: unknown };
		try {
			response = (await this.helpers.httpRequest(request)) as typeof response;
		} catch (error) {
			const failure = error as { code?: unknown; config?: unknown; request?: unknown };
			// n8n's own refusals (a domain the credential may not reach) carry no request: shown as they are
			if (failure.config === undefined && failure.request === undefined && !text(failure.code))
				throw error;
			// of a failed HTTP call only the network code: the raw error holds the request, secret included
			const code = text(failure.code) || 'no_response';
			throw Object.assign(new Error(`Could not reach the MediaGen token endpoint (${code})`), {
				code,
			});
		}
		if (response.statusCode < 200 || response.statusCode >= 300)
			throw tokenRefused(response.statusCode, response.body, credentials);
		const token = asObject(parsed(response.body))?.access_token;
		if (typeof token !== 'string' || !token) {
			throw tokenRefused(
				response.statusCode,
				{
					code: 'unexpected_response',
					detail: 'The token endpoint answered without an access_token',
				},
				credentials,
			);
		}
		// learnt as it is fetched: an error echoing it is redacted even if the node never reads it
		noteIssuedToken(credentials, token);
		return { accessToken: token, accessTokenFor: issuedFor(credentials, token) };
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const token = text(credentials.accessToken);
		if (!token || credentials.accessTokenFor !== issuedFor(credentials, token))
			return requestOptions;
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, Authorization: `Bearer ${token}` },
		};
	}

	test: ICredentialTestRequest = {
		request: { baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}', url: '/account' },
	};
}
