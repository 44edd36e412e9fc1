/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the local sandbox service: runs in Node, never shipped (CONTRIBUTING.md, Linting) */
import express, { type Request, type Response } from 'express';

import { chaosFault } from './chaos';
import { echoedText } from './echo';
import { ENDPOINT_TABLE, operationName, type TableEndpoint } from './endpoint-table';
import {
	ProblemError,
	requireScope,
	type Reply,
	type RouteContext,
	type RouteHandler,
} from './http';
import { sendProblem } from './problem';
import { sameJson } from './same-json';
import type { SandboxServices } from './services';
import type { Fault, Principal, SandboxState } from './state';

function authenticate(state: SandboxState, req: Request): Principal {
	const header = req.get('authorization') ?? '';
	const match = /^Bearer\s+(\S+)$/i.exec(header);
	if (!match) throw new ProblemError(401, 'unauthorized', 'Missing or malformed bearer credential');
	const credential = match[1];
	const key = state.apiKeys.get(credential);
	if (key)
		return { credentialId: credential, accountId: key.accountId, scopes: new Set(key.scopes) };
	const token = state.tokens.get(credential);
	if (!token) throw new ProblemError(401, 'unauthorized', 'Unknown bearer credential');
	if (token.expiresAt <= Date.now())
		throw new ProblemError(401, 'unauthorized', 'The access token has expired');
	return { credentialId: credential, accountId: token.accountId, scopes: new Set(token.scopes) };
}

/** Per-credential request rate, in one-second windows. */
class RateLimiter {
	private window = 0;
	private counts = new Map<string, number>();

	constructor(private readonly perSecond: () => number) {}

	/** seconds to wait, or 0 when the request may pass */
	take(credential: string): number {
		const now = Date.now();
		const window = Math.floor(now / 1000);
		if (window !== this.window) {
			this.window = window;
			this.counts.clear();
		}
		const count = (this.counts.get(credential) ?? 0) + 1;
		this.counts.set(credential, count);
		return count > this.perSecond() ? 1 : 0;
	}
}

function takeFault(
	state: SandboxState,
	req: Request,
	when: Fault['when'],
	apiPath: string,
): Fault | undefined {
	const index = state.faults.findIndex(
		(f) =>
			f.when === when &&
			f.remaining > 0 &&
			(!f.method || f.method === req.method) &&
			(!f.path || (typeof f.path === 'string' ? apiPath.startsWith(f.path) : f.path.test(apiPath))),
	);
	if (index < 0) return undefined;
	const fault = state.faults[index];
	if (--fault.remaining <= 0) state.faults.splice(index, 1);
	return fault;
}

/** Answers with an injected fault; false when the fault only delays the real answer. */
async function applyFault(req: Request, res: Response, fault: Fault): Promise<boolean> {
	if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
	if (fault.reset) {
		req.socket.destroy();
		return true;
	}
	if (fault.body !== undefined || fault.echo) {
		// off the published contract on purpose: the contract check skips it
		res.locals.offContract = true;
		return answerMisbehaving(req, res, fault);
	}
	if (!fault.status) return false;
	if (fault.retryAfter !== undefined) res.set('Retry-After', String(fault.retryAfter));
	sendProblem(
		req,
		res,
		fault.status,
		fault.code ?? (fault.status === 429 ? 'rate_limited' : 'service_unavailable'),
		'Injected failure',
	);
	return true;
}

/** What a misbehaving service or proxy answers: a raw body, or a secret of the request echoed back. */
function answerMisbehaving(req: Request, res: Response, fault: Fault): true {
	const echo = fault.echo;
	if (!echo) {
		res
			.status(fault.status ?? 200)
			.type(fault.contentType ?? 'application/json')
			.send(fault.body);
		return true;
	}
	const text = echoedText(req, echo);
	if (echo.in === 'text')
		res
			.status(fault.status ?? 400)
			.type('text/plain')
			.send(text);
	else if (echo.in === 'error_description')
		res
			.status(fault.status ?? 401)
			.json({ error: fault.code ?? 'invalid_client', error_description: text });
	else if (echo.in === 'title')
		res
			.status(fault.status ?? 400)
			.type('application/problem+json')
			.send(
				JSON.stringify({
					title: text,
					status: fault.status ?? 400,
					code: fault.code ?? 'invalid_parameter',
				}),
			);
	else sendProblem(req, res, fault.status ?? 400, fault.code ?? 'invalid_parameter', text);
	return true;
}

/**
 * Idempotency as decisions.md says: a required key that is absent is 400; the same key with the same
 * parameters (same route, structurally equal JSON body) answers the ORIGINAL result with
 * `Idempotent-Replayed: true` before anything else is looked at (a quote that lapsed since does not
 * matter); the same key with other parameters is 409 and creates nothing.
 */
async function withIdempotency(
	ctx: RouteContext,
	apiPath: string,
	handler: RouteHandler,
): Promise<Reply> {
	const key = ctx.req.get('idempotency-key');
	const rule = ctx.endpoint.idempotencyKey;
	if (rule === 'yes' && !key) {
		throw new ProblemError(
			400,
			'idempotency_key_required',
			`${operationName(ctx.endpoint)} requires an Idempotency-Key header`,
		);
	}
	if (!key || rule === 'no' || !ctx.principal) return await handler(ctx);
	const scope = `${ctx.principal.accountId}|${key}`;
	const request = `${ctx.req.method} ${apiPath}`;
	const body: unknown = ctx.req.body ?? {};
	const prior = ctx.state.idempotency.get(scope);
	if (prior) {
		if (prior.request !== request || !sameJson(prior.body, body)) {
			throw new ProblemError(
				409,
				'idempotency_key_reused',
				'This Idempotency-Key was used with different parameters; no run was created',
			);
		}
		const answer = prior.kind === 'run' ? ctx.state.runs.get(prior.resourceId)?.run : prior.answer;
		return { status: prior.status, body: answer, headers: { 'Idempotent-Replayed': 'true' } };
	}
	const reply = await handler(ctx);
	if (reply.status < 400) {
		if (reply.runId) {
			const record = ctx.state.runs.get(reply.runId);
			if (record) record.idempotencyKey = key;
		}
		ctx.state.idempotency.set(scope, {
			request,
			body: structuredClone(body),
			status: reply.status,
			kind: reply.runId ? 'run' : 'object',
			resourceId: reply.runId ?? '',
			answer: reply.body,
			at: Date.now(),
		});
	}
	return reply;
}

function expressPath(endpoint: TableEndpoint): string {
	return endpoint.path.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * The API under /v1, from the sandbox's endpoint table: each row's method, path, credential, scope
 * and Idempotency-Key rule are enforced here; the handler only does the endpoint's own work.
 */
export function apiRouter(
	state: SandboxState,
	services: SandboxServices,
	handlers: Record<string, RouteHandler>,
): express.Router {
	const router = express.Router();
	const limiter = new RateLimiter(() => state.options.rateLimitPerSecond);
	const ordered = [...ENDPOINT_TABLE].sort(
		(a, b) => a.path.split('{').length - b.path.split('{').length,
	);
	for (const endpoint of ordered) {
		const handler = handlers[operationName(endpoint)];
		const method = endpoint.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
		router[method](expressPath(endpoint), async (req: Request, res: Response) => {
			const apiPath = req.path;
			const origin = `${req.protocol}://${req.get('host')}`;
			services.origin = origin;
			const ctx: RouteContext = { req, res, state, endpoint, origin, baseUrl: `${origin}/v1` };
			try {
				const chaos = chaosFault(state.options.chaos, state.options.chaosSlowMs);
				const before =
					takeFault(state, req, 'before', apiPath) ??
					(chaos?.when === 'before' ? chaos : undefined);
				if (before && (await applyFault(req, res, before))) return;
				const wait = limiter.take(req.get('authorization') ?? req.ip ?? 'anonymous');
				if (wait) {
					res.set('Retry-After', String(wait));
					throw new ProblemError(
						429,
						'rate_limited',
						`More than ${state.options.rateLimitPerSecond} requests per second`,
					);
				}
				if (endpoint.auth === 'bearer') ctx.principal = authenticate(state, req);
				if (endpoint.scope) requireScope(ctx, endpoint.scope);
				if (!handler)
					throw new ProblemError(
						501,
						'not_implemented',
						`The sandbox does not serve ${operationName(endpoint)} yet`,
					);
				const reply = await withIdempotency(ctx, apiPath, handler);
				const after =
					takeFault(state, req, 'after', apiPath) ?? (chaos?.when === 'after' ? chaos : undefined);
				if (after && (await applyFault(req, res, after))) return;
				if (reply.headers) res.set(reply.headers);
				if (reply.body === undefined) res.status(reply.status).end();
				else res.status(reply.status).json(reply.body);
			} catch (error) {
				if (res.headersSent) return;
				if (error instanceof ProblemError)
					sendProblem(req, res, error.status, error.code, error.message, error.extra);
				else
					sendProblem(
						req,
						res,
						500,
						'internal_error',
						error instanceof Error ? error.message : String(error),
					);
			}
		});
	}
	return router;
}
