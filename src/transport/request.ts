import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type ICredentialDataDecryptedObject,
	type IHookFunctions,
	type IHttpRequestMethods,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type IPollFunctions,
	type IWebhookFunctions,
	type JsonObject,
} from 'n8n-workflow';

import {
	BEARER_CREDENTIAL_TYPE,
	normalizeBaseUrl,
	type CredentialType,
} from '../credentials/credential-types';
import { egressRefusalOf, type EgressRefusal } from './egress-refusal';
import { sleep } from './sleep';
import { isProblem, problemError, type Problem } from './problem';
import { redactForDisplay, redactUrl, SecretValues } from './redact';
import {
	decideRetry,
	DEFAULT_RETRY_LIMITS,
	parseRetryAfter,
	type RetryLimits,
} from './retry-policy';

export type RequestContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| IPollFunctions;

/** What every request of one node execution shares. */
export interface ApiClient {
	ctx: RequestContext;
	credentialType: CredentialType;
	baseUrl: string;
	retryLimits: RetryLimits;
	/** per-attempt timeout; a reply slower than this counts as a network failure (and may be resent) */
	requestTimeoutMs: number;
	signal?: AbortSignal;
	/**
	 * The API key credential's `Authorization` value, read once per execution. Without it every
	 * request goes through n8n's `httpRequestWithAuthentication` (the OAuth2 credential: n8n fetches
	 * its token and fetches it again after a 401).
	 */
	authorization?: string;
	/** called once per HTTP attempt (tests and the benchmark count requests) */
	onAttempt?: (method: string, path: string) => void;
	/** what no error, error item or hint may show (the credential's values, signing secrets met on the way) */
	secrets: SecretValues;
	/** when the current OAuth2 access token was last read from the credential (it changes when n8n fetches another) */
	tokenReadAt?: number;
	/** the credential's Credit Limit per Day / per Month, as the user wrote them (read by src/spend/budget.ts) */
	creditLimits?: { per_day?: unknown; per_month?: unknown };
}

/**
 * The client of one node execution. The credential is read (and decrypted by n8n) here, once: n8n's
 * `httpRequestWithAuthentication` would read it again for every request, which shows in a CPU
 * profile of many submits. The API key credential's header is therefore built here, exactly
 * as its `authenticate` block does (`Bearer <key>`). `known`: the credential when the caller has read
 * it already (a burst of resume deliveries shares one read).
 */
export async function createClient(
	ctx: RequestContext,
	credentialType: CredentialType,
	known?: ICredentialDataDecryptedObject,
): Promise<ApiClient> {
	const credentials =
		known ?? (await ctx.getCredentials<ICredentialDataDecryptedObject>(credentialType));
	const baseUrl = normalizeBaseUrl(credentials.baseUrl);
	if (!baseUrl) {
		throw new NodeOperationError(ctx.getNode(), 'The MediaGen credential has no Base URL', {
			description:
				'Open the credential and set Base URL to the service address, ending in /v1. Nothing was sent.',
		});
	}
	const signal = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
	return {
		ctx,
		credentialType,
		baseUrl,
		retryLimits: DEFAULT_RETRY_LIMITS,
		requestTimeoutMs: 30_000,
		signal,
		authorization:
			credentialType === BEARER_CREDENTIAL_TYPE
				? `Bearer ${String(credentials.apiKey ?? '')}`
				: undefined,
		secrets: new SecretValues().addCredential(credentials),
		creditLimits: {
			per_day: credentials.creditLimitPerDay,
			per_month: credentials.creditLimitPerMonth,
		},
	};
}

/**
 * Reads the OAuth2 credential again for the access token it holds now. A token fetched in this
 * process is known as it is fetched (transport/issued-tokens.ts); this read finds one another
 * process fetched and stored (queue mode). Read after a 401, when `force`d (the node's last look
 * before it emits what failed) and at most once a minute otherwise: a read costs a decryption.
 */
export async function learnCredentialSecrets(
	client: ApiClient,
	status?: number,
	force = false,
): Promise<void> {
	if (client.credentialType === BEARER_CREDENTIAL_TYPE) return;
	if (
		!force &&
		status !== 401 &&
		client.tokenReadAt !== undefined &&
		Date.now() - client.tokenReadAt < 60_000
	)
		return;
	client.tokenReadAt = Date.now();
	try {
		client.secrets.addCredential(
			await client.ctx.getCredentials<ICredentialDataDecryptedObject>(client.credentialType),
		);
	} catch {
		// the error being reported matters more; what is known is redacted all the same
	}
}

export interface ApiRequest {
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	idempotencyKey?: string;
	/**
	 * Whether a write may be resent after a lost answer. Default: when it carries an Idempotency-Key.
	 * False for a courtesy key on a route the document does not promise to replay.
	 */
	resendable?: boolean;
	itemIndex?: number;
	/** tighter retry limits for this request (a wait loop paces its own polls) */
	retryLimits?: Partial<RetryLimits>;
	/** 'none' for the few routes that take no credential (CLI sign-in) */
	auth?: 'bearer' | 'none';
	timeoutMs?: number;
}

export interface ApiResponse<T = IDataObject> {
	status: number;
	body: T;
	headers: Record<string, string>;
}

interface HttpFailure {
	status?: number;
	headers: Record<string, unknown>;
	data?: unknown;
	code?: string;
}

/** A problem document that names its HTTP status (how the OAuth2 credential reports a failed token request). */
const statusOfProblem = (data: unknown) =>
	isProblem(data) && typeof data.status === 'number' ? data.status : undefined;

/**
 * n8n wraps request errors (NodeApiError → cause → axios error); find the HTTP response inside.
 * A failed token request has no response, only its problem document in the NodeApiError's `context.data`.
 */
function failureOf(error: unknown): HttpFailure {
	let networkCode: string | undefined;
	let statusOnly: HttpFailure | undefined;
	type Layer = {
		response?: {
			status?: number;
			headers?: Record<string, unknown>;
			data?: unknown;
			body?: unknown;
		};
		status?: unknown;
		body?: unknown;
		code?: unknown;
		cause?: unknown;
		httpCode?: unknown;
		context?: { data?: unknown };
	};
	let current = error as Layer | undefined;
	for (let depth = 0; current && depth < 6; depth++) {
		// n8n 2.8's NodeApiError loses its cause (a class field re-declared after super() resets it) and
		// keeps only httpCode and, for a JSON object body, context.data; used when no response is found.
		if (
			statusOnly === undefined &&
			typeof current.httpCode === 'string' &&
			/^\d{3}$/.test(current.httpCode)
		) {
			statusOnly = { status: Number(current.httpCode), headers: {}, data: current.context?.data };
		}
		const problemStatus = statusOfProblem(current.context?.data);
		if (statusOnly === undefined && problemStatus !== undefined)
			statusOnly = { status: problemStatus, headers: {}, data: current.context?.data };
		const response = current.response;
		if (response && typeof response.status === 'number') {
			return {
				status: response.status,
				headers: response.headers ?? {},
				data: response.data ?? response.body,
			};
		}
		if (networkCode === undefined && typeof current.code === 'string') networkCode = current.code;
		current = current.cause as Layer | undefined;
	}
	return statusOnly ?? { headers: {}, code: networkCode };
}

function parseBody(data: unknown): unknown {
	if (typeof data === 'string') {
		try {
			return JSON.parse(data);
		} catch {
			return data;
		}
	}
	if (Buffer.isBuffer(data)) return parseBody(data.toString('utf8'));
	return data;
}

/** How much of a text the service sent an error shows: a problem's fields and a plain-text body alike. */
const SHOWN_CHARACTERS = 300;
/**
 * What is kept of a text before redaction (more than is shown, so a secret that the final cut
 * crosses is still whole when it is redacted): a service or proxy can send megabytes, and redaction
 * reads every character.
 */
const READ_CHARACTERS = 4_096;

/**
 * A body with every text in it cut to `max` characters (and lists to 20 entries): the error keeps a
 * problem in its message, its response and its context, and Continue On Fail copies it into the
 * item, so an uncut detail would be stored several times in the execution data.
 */
function cutTexts(value: unknown, max: number, depth = 0): unknown {
	if (typeof value === 'string') return value.length > max ? `${value.slice(0, max)}…` : value;
	if (depth > 6 || typeof value !== 'object' || value === null) return value;
	if (Array.isArray(value)) return value.slice(0, 20).map((v) => cutTexts(v, max, depth + 1));
	const out: Record<string, unknown> = {};
	// a fresh quote is used, not only shown: its token must arrive whole (it was cut at READ_CHARACTERS)
	for (const [key, inner] of Object.entries(value))
		out[key] = depth === 0 && key === 'quote' ? inner : cutTexts(inner, max, depth + 1);
	return out;
}

async function toError(
	client: ApiClient,
	request: ApiRequest,
	failure: HttpFailure,
): Promise<NodeApiError> {
	await learnCredentialSecrets(client, failure.status);
	const node = client.ctx.getNode();
	// redacted before it is cut to what is shown: half a secret must not survive a truncation
	const body = cutTexts(
		client.secrets.value(cutTexts(parseBody(failure.data), READ_CHARACTERS)),
		SHOWN_CHARACTERS,
	);
	if (failure.status !== undefined && failure.status >= 300 && failure.status < 400) {
		const location = failure.headers.location ?? failure.headers.Location;
		return problemError(
			node,
			{
				code: 'redirect_refused',
				title: `HTTP ${failure.status} from ${request.method} ${request.path}: the service redirected the request`,
				detail: `to ${typeof location === 'string' ? redactUrl(new URL(location, client.baseUrl).href) : 'an address it did not name'}. The node does not follow redirects from the API, so the credential never goes to another address; check the credential's Base URL.`,
			},
			failure.status,
			request.itemIndex,
		);
	}
	if (failure.status !== undefined) {
		const problem: Problem = isProblem(body)
			? body
			: {
					code: `http_${failure.status}`,
					title: `HTTP ${failure.status} from ${request.method} ${request.path}`,
					detail: typeof body === 'string' ? String(redactForDisplay(body)) : undefined,
				};
		return problemError(node, problem, failure.status, request.itemIndex);
	}
	// No response at all: name the route and the network code, never the raw error (its config
	// holds the Authorization header).
	const problem: Problem = {
		code: 'network_error',
		title: `Could not reach the service for ${request.method} ${request.path}`,
		detail: `${failure.code ?? 'no response'} (base URL ${redactUrl(client.baseUrl)})`,
	};
	const error = problemError(node, problem, undefined, request.itemIndex);
	return error;
}

/** n8n's SSRF protection refused the request: its words, not an outage (no retry). */
function blockedByN8n(
	client: ApiClient,
	request: ApiRequest,
	refused: EgressRefusal,
): NodeApiError {
	return problemError(
		client.ctx.getNode(),
		{
			code: 'blocked_by_n8n',
			title: `n8n's SSRF protection refused ${request.method} ${request.path}: ${refused.message}`,
			detail:
				`${refused.description ?? ''} The service's address is the credential's Base URL (${redactUrl(client.baseUrl)}): an n8n administrator allows it with N8N_SSRF_ALLOWED_HOSTNAMES or N8N_SSRF_ALLOWED_IP_RANGES.`.trim(),
		},
		undefined,
		request.itemIndex,
	);
}

function lowerCaseHeaders(headers: unknown): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries((headers as Record<string, unknown>) ?? {}))
		out[k.toLowerCase()] = String(v);
	return out;
}

async function sendOnce(client: ApiClient, request: ApiRequest): Promise<ApiResponse<unknown>> {
	const headers: IDataObject = { Accept: 'application/json' };
	if (request.idempotencyKey) headers['Idempotency-Key'] = request.idempotencyKey;
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${client.baseUrl}${request.path}`,
		qs: request.qs,
		body: request.body,
		headers,
		json: true,
		returnFullResponse: true,
		timeout: request.timeoutMs ?? client.requestTimeoutMs,
		// The API never needs a redirect; following one could carry the credential to another origin.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};
	client.onAttempt?.(request.method, request.path);
	let response: { statusCode: number; body: unknown; headers: unknown };
	if (request.auth === 'none' || client.authorization !== undefined) {
		if (request.auth !== 'none') headers.Authorization = client.authorization;
		// what httpRequestWithAuthentication adds besides the credential: the execution's cancel signal
		response = await client.ctx.helpers.httpRequest({ ...options, abortSignal: client.signal });
	} else {
		response = await client.ctx.helpers.httpRequestWithAuthentication.call(
			client.ctx,
			client.credentialType,
			options,
		);
	}
	return {
		status: response.statusCode,
		body: parseBody(response.body),
		headers: lowerCaseHeaders(response.headers),
	};
}

/**
 * The one request function of the package: authentication through n8n's credential helpers (n8n
 * has the OAuth2 credential fetch its token, and fetch it again after a 401), problem documents
 * turned into errors that keep their `code`, and the retry rules of `retry-policy.ts`.
 */
export async function apiRequest<T = IDataObject>(
	client: ApiClient,
	request: ApiRequest,
): Promise<ApiResponse<T>> {
	for (let attempt = 1; ; attempt++) {
		try {
			return (await sendOnce(client, request)) as ApiResponse<T>;
		} catch (error) {
			const refused = egressRefusalOf(error);
			if (refused) throw blockedByN8n(client, request, refused);
			const failure = failureOf(error);
			const decision = decideRetry(
				{
					method: request.method,
					hasIdempotencyKey: Boolean(request.idempotencyKey) && request.resendable !== false,
					status: failure.status,
					networkCode: failure.code,
					retryAfterSeconds: parseRetryAfter(
						failure.headers['retry-after'] ?? failure.headers['Retry-After'],
					),
					attempt,
				},
				request.retryLimits
					? { ...client.retryLimits, ...request.retryLimits }
					: client.retryLimits,
			);
			if (!decision.retry || client.signal?.aborted) throw await toError(client, request, failure);
			if (!(await sleep(decision.delayMs, client.signal)))
				throw await toError(client, request, failure);
		}
	}
}

/** A copy of a parsed JSON body (redaction works in place; the caller may still use the original). */
function structuredCloneOf(body: unknown): unknown {
	try {
		return JSON.parse(JSON.stringify(body ?? null)) as unknown;
	} catch {
		return String(body);
	}
}

/** Error for a value the service returned that the node cannot use. */
export function unexpectedResponse(
	client: ApiClient,
	what: string,
	body: unknown,
	itemIndex?: number,
): NodeApiError {
	const shown = JSON.stringify(
		redactForDisplay(client.secrets.value(structuredCloneOf(body))) as JsonObject,
	)?.slice(0, 300);
	return problemError(
		client.ctx.getNode(),
		{ code: 'unexpected_response', title: what, detail: shown },
		undefined,
		itemIndex,
	);
}
