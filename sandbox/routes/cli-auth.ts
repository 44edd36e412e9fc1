import { createHash, timingSafeEqual } from 'node:crypto';

import { bodyOf, ProblemError, type RouteContext, type RouteHandler } from '../http';
import { newId, nowIso } from '../ids';
import { moduleState, notFound } from '../module-state';
import { ALL_SCOPES } from '../options';
import type { SandboxState } from '../state';

type SessionStatus = 'pending' | 'approved' | 'consumed' | 'denied' | 'expired';

interface CliSession {
	session_id: string;
	status: SessionStatus;
	label: string;
	requested_scopes: string[];
	expires_at: string;
	expiresAt: number;
	codeChallenge: string;
}

/** How long a session waits for approval and exchange. */
const SESSION_TTL_MS = 10 * 60 * 1000;
/** Scopes asked for when the start request names none: every read scope. */
const DEFAULT_SCOPES = ALL_SCOPES.filter((s) => s.endsWith(':read'));
/** API document: the code_verifier is 43 to 128 base64url characters */
const VERIFIER = /^[A-Za-z0-9_-]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

const sessionsOf = moduleState(() => new Map<string, CliSession>());

function current(session: CliSession): CliSession {
	if (
		(session.status === 'pending' || session.status === 'approved') &&
		session.expiresAt <= Date.now()
	)
		session.status = 'expired';
	return session;
}

function sessionOf(state: SandboxState, id: string): CliSession {
	const session = sessionsOf(state).get(id);
	if (!session) throw notFound('sign-in session', id);
	return current(session);
}

function statusBody(session: CliSession) {
	const { session_id, status, label, requested_scopes, expires_at } = session;
	return { session_id, status, label, requested_scopes, expires_at };
}

function s256(verifier: string): string {
	return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Sandbox-only: what the user does on the consent page. */
export function decideCliSession(
	state: SandboxState,
	id: string,
	decision: 'approve' | 'deny',
): ReturnType<typeof statusBody> {
	const session = sessionOf(state, id);
	if (session.status !== 'pending')
		throw new ProblemError(409, 'session_not_pending', `Session ${id} is ${session.status}`);
	session.status = decision === 'approve' ? 'approved' : 'denied';
	return statusBody(session);
}

/** A tiny consent page at verification_url (the sandbox's stand-in for the browser step). */
export function consentPage(state: SandboxState, id: string): string {
	const session = sessionOf(state, id);
	const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
	return `<!doctype html><title>Approve ${escape(session.label)}</title><h1>Sign in "${escape(session.label)}"</h1>
<p>Scopes: ${session.requested_scopes.map(escape).join(', ')}</p><p>Status: ${session.status}</p>
<form method="post" action="/_sandbox/cli/sessions/${encodeURIComponent(id)}/approve"><button>Approve</button></form>
<form method="post" action="/_sandbox/cli/sessions/${encodeURIComponent(id)}/deny"><button>Deny</button></form>`;
}

const start: RouteHandler = (ctx: RouteContext) => {
	const body = bodyOf(ctx);
	if (body.code_challenge_method !== 'S256') {
		throw new ProblemError(400, 'invalid_parameter', 'code_challenge_method must be S256', {
			param: 'code_challenge_method',
		});
	}
	if (typeof body.code_challenge !== 'string' || !CHALLENGE.test(body.code_challenge)) {
		throw new ProblemError(
			400,
			'invalid_parameter',
			'code_challenge must be BASE64URL(SHA256(code_verifier)): 43 base64url characters',
			{ param: 'code_challenge' },
		);
	}
	let scopes = DEFAULT_SCOPES;
	if (body.scopes !== undefined) {
		const requested = typeof body.scopes === 'string' ? body.scopes.split(/[\s,]+/) : body.scopes;
		if (!Array.isArray(requested) || requested.some((s) => typeof s !== 'string')) {
			throw new ProblemError(400, 'invalid_parameter', 'scopes must be an array of scope names', {
				param: 'scopes',
			});
		}
		const unknown = (requested as string[]).filter((s) => s && !ALL_SCOPES.includes(s));
		if (unknown.length)
			throw new ProblemError(400, 'invalid_scope', `Unknown scopes: ${unknown.join(' ')}`, {
				param: 'scopes',
			});
		const named = (requested as string[]).filter(Boolean);
		if (named.length) scopes = named;
	}
	const expiresAt = Date.now() + SESSION_TTL_MS;
	const session: CliSession = {
		session_id: newId('cli'),
		status: 'pending',
		label: typeof body.label === 'string' && body.label.trim() ? body.label.trim() : 'CLI',
		requested_scopes: [...new Set(scopes)].sort(),
		expires_at: nowIso(expiresAt),
		expiresAt,
		codeChallenge: body.code_challenge,
	};
	sessionsOf(ctx.state).set(session.session_id, session);
	const { session_id, label, requested_scopes, expires_at } = session;
	return {
		status: 201,
		body: {
			session_id,
			verification_url: `${ctx.origin}/_sandbox/cli/verify/${session_id}`,
			expires_at,
			requested_scopes,
			label,
		},
	};
};

const exchange: RouteHandler = (ctx) => {
	const session = sessionOf(ctx.state, String(ctx.req.params.sessionId));
	const verifier = bodyOf(ctx).code_verifier;
	if (typeof verifier !== 'string' || !VERIFIER.test(verifier)) {
		throw new ProblemError(
			400,
			'invalid_parameter',
			'code_verifier must be 43 to 128 base64url characters (A-Z a-z 0-9 - _)',
			{ param: 'code_verifier' },
		);
	}
	switch (session.status) {
		case 'pending':
			throw new ProblemError(400, 'authorization_pending', 'The session has not been approved yet');
		case 'denied':
			throw new ProblemError(403, 'access_denied', 'The user denied this session');
		case 'expired':
			throw new ProblemError(410, 'session_expired', 'The session expired; start a new one');
		case 'consumed':
			throw new ProblemError(
				409,
				'session_consumed',
				'The API key of this session was already issued',
			);
		case 'approved':
			break;
	}
	const expected = Buffer.from(session.codeChallenge);
	const actual = Buffer.from(s256(verifier));
	if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
		throw new ProblemError(
			400,
			'invalid_code_verifier',
			'BASE64URL(SHA256(code_verifier)) does not match the code_challenge of this session',
			{ param: 'code_verifier' },
		);
	}
	session.status = 'consumed';
	const apiKey = ctx.state.createApiKey(session.requested_scopes, session.label);
	return {
		status: 200,
		body: {
			api_key: apiKey,
			scopes: session.requested_scopes,
			label: session.label,
			session_expires_at: session.expires_at,
		},
	};
};

/** The command-line sign-in (PKCE, S256): start, status, exchange. No credential needed. */
export function cliAuthHandlers(): Record<string, RouteHandler> {
	return {
		'POST /cli/auth/sessions': start,
		'GET /cli/auth/sessions/{sessionId}': (ctx) => ({
			status: 200,
			body: statusBody(sessionOf(ctx.state, String(ctx.req.params.sessionId))),
		}),
		'POST /cli/auth/sessions/{sessionId}/exchange': exchange,
	};
}
