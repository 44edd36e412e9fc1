/* eslint-disable @n8n/community-nodes/require-node-api-error -- the local sandbox service: runs in Node, never shipped (CONTRIBUTING.md, Linting) */
import type { Request } from 'express';

import { newId, nowIso } from '../ids';
import {
	bodyOf,
	listReply,
	principalOf,
	ProblemError,
	type Reply,
	type RouteContext,
	type RouteHandler,
} from '../http';
import { findModel, listedModels, publicModel } from '../models';
import { priceOf } from '../pricing';
import type { SandboxServices } from '../services';
import { ASSET_VALIDITY_MS, UPLOAD_WINDOW_MS, UPLOADABLE_TYPES } from '../storage';

/** Client id and secret from an HTTP Basic header (each URL-encoded, RFC 6749 §2.3.1), if one is sent. */
function basicCredentials(req: Request): { id: string; secret: string } | undefined {
	const match = /^Basic\s+(\S+)$/i.exec(req.get('authorization') ?? '');
	if (!match) return undefined;
	const decoded = Buffer.from(match[1], 'base64').toString('utf8');
	const colon = decoded.indexOf(':');
	if (colon < 0)
		throw new ProblemError(
			400,
			'invalid_request',
			'The Basic credentials must be client_id:client_secret',
		);
	try {
		return {
			id: decodeURIComponent(decoded.slice(0, colon)),
			secret: decodeURIComponent(decoded.slice(colon + 1)),
		};
	} catch {
		throw new ProblemError(
			400,
			'invalid_request',
			'The Basic credentials are not valid URL-encoded text',
		);
	}
}

function invalidRequest(detail: string, param?: string): ProblemError {
	return new ProblemError(400, 'invalid_request', detail, param ? { param } : {});
}

/**
 * POST /oauth/token as the API document specifies it: a JSON body with grant_type
 * (client_credentials), client_id, client_secret and an optional space-separated scope, and no other
 * properties; or the client id and secret as HTTP Basic, the JSON body then holding grant_type and
 * the optional scope only. A form-encoded body, or any other property, is 400 invalid_request.
 */
const issueToken: RouteHandler = (ctx) => {
	if (!ctx.req.is('application/json')) {
		throw invalidRequest(
			`The token request must be a JSON body (Content-Type: application/json), not ${ctx.req.get('content-type') ?? 'no body'}`,
		);
	}
	const body = bodyOf(ctx);
	const basic = basicCredentials(ctx.req);
	const allowed = basic
		? ['grant_type', 'scope']
		: ['grant_type', 'client_id', 'client_secret', 'scope'];
	const extra = Object.keys(body).find((name) => !allowed.includes(name));
	if (extra) {
		throw invalidRequest(
			`${extra} is not a property of the token request${basic ? ' when the client authenticates with HTTP Basic' : ''}; allowed: ${allowed.join(', ')}`,
			extra,
		);
	}
	if (body.grant_type === undefined)
		throw invalidRequest('grant_type is required (client_credentials)', 'grant_type');
	if (body.grant_type !== 'client_credentials')
		throw new ProblemError(400, 'unsupported_grant_type', 'grant_type must be client_credentials', {
			param: 'grant_type',
		});
	for (const name of ['client_id', 'client_secret', 'scope']) {
		if (body[name] !== undefined && typeof body[name] !== 'string')
			throw invalidRequest(`${name} must be a string`, name);
	}
	const clientId = basic?.id ?? (body.client_id as string | undefined);
	const secret = basic?.secret ?? (body.client_secret as string | undefined);
	if (!clientId || secret === undefined)
		throw invalidRequest(
			'client_id and client_secret are required, in the JSON body or as HTTP Basic',
			clientId ? 'client_secret' : 'client_id',
		);
	const client = ctx.state.oauthClients.get(clientId);
	if (!client || client.secret !== secret)
		throw new ProblemError(401, 'invalid_client', 'Unknown client or wrong client secret');
	const requested =
		typeof body.scope === 'string' && body.scope.trim()
			? body.scope.trim().split(/\s+/)
			: client.defaultScopes;
	const refused = requested.filter((s) => !client.allowedScopes.includes(s));
	if (refused.length)
		throw new ProblemError(
			400,
			'invalid_scope',
			`Scopes not granted to this client: ${refused.join(' ')}`,
			{ param: 'scope' },
		);
	const token = newId('at');
	const ttl = ctx.state.options.tokenTtlSeconds;
	ctx.state.tokens.set(token, {
		clientId,
		accountId: client.accountId,
		scopes: requested,
		expiresAt: Date.now() + ttl * 1000,
	});
	ctx.state.tokensIssued++;
	return {
		status: 200,
		body: {
			access_token: token,
			token_type: 'Bearer',
			expires_in: ttl,
			scope: requested.join(' '),
		},
	};
};

function accountBody(ctx: RouteContext): Record<string, unknown> {
	const account: Partial<ReturnType<typeof ctx.state.account>> = {
		...ctx.state.account(principalOf(ctx).accountId),
	};
	delete account.balance;
	delete account.reserved;
	return account;
}

function runsOf(ctx: RouteContext) {
	const accountId = principalOf(ctx).accountId;
	return [...ctx.state.runs.values()].filter((r) => r.accountId === accountId).reverse();
}

function runById(ctx: RouteContext) {
	const record = ctx.state.runs.get(String(ctx.req.params.runId));
	if (!record || record.accountId !== principalOf(ctx).accountId)
		throw new ProblemError(404, 'not_found', `No run ${String(ctx.req.params.runId)}`);
	return record;
}

function usage(ctx: RouteContext): Reply {
	const groupBy = String(ctx.req.query.group_by ?? 'none');
	if (!['model', 'capability', 'day', 'none'].includes(groupBy)) {
		throw new ProblemError(
			400,
			'invalid_parameter',
			'group_by must be model, capability, day or none',
			{ param: 'group_by' },
		);
	}
	const start = ctx.req.query.start
		? Date.parse(String(ctx.req.query.start))
		: Date.now() - 30 * 86400_000;
	const end = ctx.req.query.end ? Date.parse(String(ctx.req.query.end)) : Date.now() + 1000;
	if (Number.isNaN(start) || Number.isNaN(end))
		throw new ProblemError(400, 'invalid_parameter', 'start and end must be ISO 8601 date-times', {
			param: 'start',
		});
	const runs = runsOf(ctx).filter((r) => {
		const at = Date.parse(String(r.run.created_at));
		return at >= start && at <= end;
	});
	const groups = new Map<
		string,
		{ credits_spent: number; runs_count: number; successful_runs: number; failed_runs: number }
	>();
	const totals = { credits_spent: 0, runs_count: 0, successful_runs: 0, failed_runs: 0 };
	for (const r of runs) {
		const key =
			groupBy === 'model'
				? String(r.run.model ?? 'none')
				: groupBy === 'capability'
					? String(r.run.capability)
					: groupBy === 'day'
						? String(r.run.created_at).slice(0, 10)
						: 'all';
		const g = groups.get(key) ?? {
			credits_spent: 0,
			runs_count: 0,
			successful_runs: 0,
			failed_runs: 0,
		};
		const spent = ctx.state.chargesFor(r.run.id).reduce((n, e) => n + e.credits, 0);
		for (const t of [g, totals]) {
			t.credits_spent += spent;
			t.runs_count++;
			if (r.run.status === 'completed') t.successful_runs++;
			if (r.run.status === 'failed') t.failed_runs++;
		}
		groups.set(key, g);
	}
	const breakdown =
		groupBy === 'none'
			? []
			: [...groups.entries()].map(([group, g]) => ({
					group,
					...g,
					avg_credits_per_run: g.runs_count ? g.credits_spent / g.runs_count : 0,
				}));
	return {
		status: 200,
		body: {
			object: 'usage_summary',
			period: { start: nowIso(start), end: nowIso(end) },
			group_by: groupBy,
			totals,
			breakdown,
		},
	};
}

/** Handlers of the account, model, run and upload endpoints, keyed by operation name. */
export function coreHandlers(services: SandboxServices): Record<string, RouteHandler> {
	return {
		'POST /oauth/token': issueToken,
		'GET /account': (ctx) => ({ status: 200, body: accountBody(ctx) }),
		'GET /account/credits': (ctx) => {
			const account = ctx.state.account(principalOf(ctx).accountId);
			return {
				status: 200,
				body: {
					account_id: account.id,
					balance: account.balance - account.reserved,
					currency: 'credits',
				},
			};
		},
		'GET /models': (ctx) => {
			const capability = ctx.req.query.capability;
			const models = listedModels()
				.filter((m) => !capability || m.capability === capability)
				.map(publicModel);
			return listReply(ctx.req, models as Array<{ id: string }>);
		},
		'GET /models/pricing': (ctx) =>
			listReply(
				ctx.req,
				listedModels().map((m) => ({
					id: m.id,
					model: m.id,
					capability: m.capability,
					unit: m.pricing.unit,
					credits: m.pricing.credits,
					operation_key: m.capability,
					notes: m.pricing.notes ?? null,
				})),
			),
		'POST /models/estimate-cost': (ctx) => {
			const params = bodyOf(ctx);
			if (typeof params.model !== 'string' || !params.model)
				throw new ProblemError(400, 'invalid_parameter', 'model is required to estimate', {
					param: 'model',
				});
			const model = findModel(params.model);
			if (!model)
				throw new ProblemError(400, 'model_not_found', `No model with alias ${params.model}`, {
					param: 'model',
				});
			return {
				status: 200,
				body: services.quotes.issue(
					principalOf(ctx).accountId,
					model.id,
					params,
					priceOf(model, params),
					model.id,
				),
			};
		},
		'GET /usage': usage,
		'GET /runs': (ctx) => {
			const { status, capability } = ctx.req.query;
			const runs = runsOf(ctx)
				.filter(
					(r) =>
						(!status || r.run.status === status) &&
						(!capability || r.run.capability === capability),
				)
				.map((r) => r.run);
			return listReply(ctx.req, runs);
		},
		'GET /runs/{runId}': (ctx) => ({ status: 200, body: runById(ctx).run }),
		'GET /runs/{runId}/output': (ctx) => {
			const { run } = runById(ctx);
			return {
				status: 200,
				body: {
					id: run.id,
					object: 'run_output',
					status: run.status,
					capability: run.capability,
					output: run.output,
					error: run.error,
					completed_at: run.completed_at,
				},
			};
		},
		'POST /uploads': (ctx) => {
			const body = bodyOf(ctx);
			const contentType = String(body.content_type ?? '').toLowerCase();
			if (!UPLOADABLE_TYPES.has(contentType)) {
				throw new ProblemError(
					400,
					'unsupported_media_type',
					`Cannot upload ${contentType || 'a file without content_type'}; allowed: ${[...UPLOADABLE_TYPES].join(', ')}`,
					{ param: 'content_type' },
				);
			}
			const assetId = newId('asset');
			const now = Date.now();
			const upload = {
				asset_id: assetId,
				accountId: principalOf(ctx).accountId,
				content_type: contentType,
				filename: typeof body.filename === 'string' ? body.filename : undefined,
				uploadExpiresAt: now + UPLOAD_WINDOW_MS,
				assetExpiresAt: now + ASSET_VALIDITY_MS,
			};
			ctx.state.uploads.set(assetId, upload);
			return {
				status: 201,
				body: {
					asset_id: assetId,
					upload_url: services.urls.sign(
						ctx.origin,
						`/storage/uploads/${assetId}`,
						upload.uploadExpiresAt,
					),
					asset_url: services.urls.sign(
						ctx.origin,
						`/storage/assets/${assetId}`,
						upload.assetExpiresAt,
					),
					content_type: contentType,
					expires_at: nowIso(upload.assetExpiresAt),
				},
			};
		},
	};
}
