import type { Request, Response } from 'express';

import type { TableEndpoint } from './endpoint-table';
import type { Principal, SandboxState } from './state';

/** A failure a handler raises; the router turns it into a problem document. */
export class ProblemError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		detail: string,
		readonly extra: Record<string, unknown> = {},
	) {
		super(detail);
	}
}

/** What a handler answers; the router sends it and remembers it for idempotent replays. */
export interface Reply {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
	/** set by run-creating handlers: an idempotent replay answers with this run's current state */
	runId?: string;
}

export interface RouteContext {
	req: Request;
	res: Response;
	state: SandboxState;
	endpoint: TableEndpoint;
	/** absent on the routes that take no credential */
	principal?: Principal;
	/** scheme://host of the sandbox, for the URLs it hands out */
	origin: string;
	/** base URL of the API (origin + /v1) */
	baseUrl: string;
}

export type RouteHandler = (ctx: RouteContext) => Reply | Promise<Reply>;

export function principalOf(ctx: RouteContext): Principal {
	if (!ctx.principal)
		throw new ProblemError(401, 'unauthorized', 'A bearer credential is required');
	return ctx.principal;
}

/** `{object:'list', data, has_more}` with `limit` (1..100, default 20) and `starting_after`. */
export function listReply<T extends { id?: unknown }>(req: Request, items: T[]): Reply {
	const rawLimit = req.query.limit === undefined ? 20 : Number(req.query.limit);
	if (!Number.isInteger(rawLimit) || rawLimit < 1 || rawLimit > 100) {
		throw new ProblemError(400, 'invalid_parameter', 'limit must be an integer from 1 to 100', {
			param: 'limit',
		});
	}
	let start = 0;
	const after = req.query.starting_after;
	if (typeof after === 'string' && after) {
		const index = items.findIndex((i) => i.id === after);
		if (index < 0)
			throw new ProblemError(
				400,
				'invalid_parameter',
				`starting_after ${after} is not in this list`,
				{ param: 'starting_after' },
			);
		start = index + 1;
	}
	const data = items.slice(start, start + rawLimit);
	return { status: 200, body: { object: 'list', data, has_more: start + rawLimit < items.length } };
}

export function requireScope(ctx: RouteContext, scope: string): void {
	if (!principalOf(ctx).scopes.has(scope)) {
		throw new ProblemError(403, 'insufficient_scope', `This credential lacks the ${scope} scope`, {
			required_scope: scope,
		});
	}
}

export function bodyOf(ctx: RouteContext): Record<string, unknown> {
	const body = ctx.req.body as unknown;
	return body && typeof body === 'object' && !Array.isArray(body)
		? (body as Record<string, unknown>)
		: {};
}
