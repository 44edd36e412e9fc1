import type { IDataObject } from 'n8n-workflow';

import type { Endpoint } from '../../src/catalog';
import { mediaDurationSeconds } from '../../src/media/duration';
import { checkCapability, checkFileLimits, checkLimit, checkStaticBounds } from '../../src/models/limits';
import { bodyOf, principalOf, ProblemError, requireScope, type Reply, type RouteContext, type RouteHandler } from '../http';
import { defaultModelFor, findModel, type SandboxModel } from '../models';
import { imageOutputs, type OutputMaker } from '../outputs';
import { priceOf } from '../pricing';
import type { SandboxServices } from '../services';

/** Checks team_id / project_id the way the API document describes. Returns the team to bill. */
export function checkBillingAndFiling(ctx: RouteContext, endpoint: Endpoint, params: Record<string, unknown>): string | undefined {
	const principal = principalOf(ctx);
	let teamId: string | undefined;
	if (params.team_id !== undefined && params.team_id !== '') {
		if (!endpoint.teamBilling) {
			throw new ProblemError(400, 'team_billing_unsupported', `${endpoint.method} ${endpoint.path} cannot bill a workspace pool; it refuses team_id instead of billing the personal balance`, { param: 'team_id' });
		}
		requireScope(ctx, 'teams:read');
		const team = ctx.state.teams.get(String(params.team_id));
		const role = team?.members[principal.accountId];
		if (!team || !role) throw new ProblemError(404, 'invalid_team_id', `You are not a member of workspace ${String(params.team_id)}`, { param: 'team_id' });
		if (role === 'viewer') throw new ProblemError(403, 'team_role_cannot_spend', `Your role (${role}) in ${team.id} cannot spend its pool`);
		teamId = team.id;
	}
	if (params.project_id !== undefined && params.project_id !== '') {
		if (!endpoint.projectFiling) {
			throw new ProblemError(400, 'project_filing_unsupported', `The output of ${endpoint.method} ${endpoint.path} is not an image, video or audio a project can hold`, { param: 'project_id' });
		}
		requireScope(ctx, 'projects:read');
		const project = ctx.state.projects.get(String(params.project_id));
		if (!project || project.accountId !== principal.accountId) throw new ProblemError(404, 'not_found', `No project ${String(params.project_id)}`, { param: 'project_id' });
	}
	return teamId;
}

/** Resolves the model alias of a request: the capability's default when omitted. */
export function resolveModel(endpoint: Endpoint, params: Record<string, unknown>): SandboxModel | undefined {
	if (!endpoint.capability) return undefined;
	if (params.model === undefined || params.model === '') return defaultModelFor(endpoint.capability);
	const model = findModel(String(params.model));
	if (!model || model.capability !== endpoint.capability) {
		throw new ProblemError(400, 'model_not_found', `No ${endpoint.capability} model with alias ${String(params.model)}`, { param: 'model' });
	}
	return model;
}

/** The bytes behind one of the sandbox's own asset URLs (the service can measure what it stores). */

/** The service names the model limit that decided (the node keeps it out of its messages). */
const limitNote = (limit?: string) => (limit ? ` (model ${limit.startsWith('capability ') ? limit : `limit ${limit}`})` : '');
function uploadedBytes(ctx: RouteContext, url: string): Buffer | undefined {
	try {
		const parsed = new URL(url);
		if (parsed.origin !== ctx.origin || !parsed.pathname.startsWith('/storage/assets/')) return undefined;
		return ctx.state.uploads.get(parsed.pathname.split('/').pop() ?? '')?.bytes;
	} catch {
		return undefined;
	}
}

/** Server-side checks of the parameters against the catalog and the model's limits. */
export function checkParameters(ctx: RouteContext, services: SandboxServices, endpoint: Endpoint, params: Record<string, unknown>, model?: SandboxModel): void {
	if (endpoint.requireOneOf && endpoint.requireOneOf.every((name) => params[name] === undefined || params[name] === '')) {
		throw new ProblemError(400, 'invalid_parameter', `One of ${endpoint.requireOneOf.join(', ')} is required`, { param: endpoint.requireOneOf[0] });
	}
	for (const field of endpoint.fields) {
		const value = params[field.name];
		if (field.name === 'prompt' && field.required && (typeof value !== 'string' || value.trim() === '')) {
			throw new ProblemError(400, 'invalid_prompt', 'prompt is missing or empty', { param: 'prompt' });
		}
		if (field.required && (value === undefined || value === '')) {
			throw new ProblemError(400, 'invalid_parameter', `${field.name} is required`, { param: field.name });
		}
		const violation =
			checkStaticBounds(field, value) ?? checkLimit(field, value, model?.limits as IDataObject | undefined) ?? checkCapability(field, value, model?.capabilities as IDataObject | undefined);
		if (violation) throw new ProblemError(400, 'invalid_parameter', `${field.name}: ${JSON.stringify(violation.value)} is not allowed; ${violation.allowed}${limitNote(violation.modelLimit)}`, { param: field.name });
		if (field.type === 'media' || field.type === 'mediaList') {
			const urls = Array.isArray(value) ? value : value === undefined ? [] : [value];
			for (const url of urls) {
				services.assertFetchable(ctx, String(url), field.name);
				const bytes = uploadedBytes(ctx, String(url));
				const file = bytes && checkFileLimits(field, { size: bytes.length, durationSeconds: mediaDurationSeconds(bytes) }, model?.limits as IDataObject | undefined);
				if (file) throw new ProblemError(400, 'invalid_parameter', `${field.name}: the file (${String(file.value)}) is not allowed; ${file.allowed}${limitNote(file.modelLimit)}`, { param: field.name });
			}
		}
	}
}

function inputSummary(params: Record<string, unknown>, model?: SandboxModel): Record<string, unknown> {
	const summary: Record<string, unknown> = { model: model?.id ?? null };
	for (const key of ['prompt', 'aspect_ratio', 'count', 'duration', 'generate_audio', 'resolution', 'scale']) {
		if (params[key] !== undefined) summary[key] = params[key];
	}
	summary.has_image = Boolean(params.image_url ?? (Array.isArray(params.reference_image_urls) && params.reference_image_urls.length));
	return summary;
}

/** A run to create once its model and parameters are known (see createPaidRun). */
export interface PaidRun {
	endpoint: Endpoint;
	model?: SandboxModel;
	params: Record<string, unknown>;
	price: number;
	makeOutput: OutputMaker;
	inputSummary?: Record<string, unknown>;
}

/**
 * Team/project rules, the quote and the money of a submit, then a queued run (HTTP 202). Shared by
 * runHandler and the routes that price a run themselves (draft finals, timeline renders).
 */
export function createPaidRun(ctx: RouteContext, services: SandboxServices, job: PaidRun): Reply {
	const { endpoint, model, params, price } = job;
	const principal = principalOf(ctx);
	const teamId = checkBillingAndFiling(ctx, endpoint, params);
	if (typeof params.quote_token === 'string' && params.quote_token) {
		services.quotes.verify(params.quote_token, principal.accountId, model?.id ?? endpoint.path, params, price);
	}
	let moneyFailure: string | undefined;
	if (teamId) {
		const team = ctx.state.teams.get(teamId)!;
		const month = new Date().toISOString().slice(0, 7);
		const spent = (accountId?: string) =>
			ctx.state.ledger.filter((e) => e.team_id === teamId && e.at.startsWith(month) && (!accountId || e.account_id === accountId)).reduce((n, e) => n + e.credits, 0);
		const memberCap = team.memberCaps?.[principal.accountId];
		if (team.pool - team.reserved < price) moneyFailure = 'team_pool_insufficient';
		else if (team.monthlyCap !== undefined && spent() + team.reserved + price > team.monthlyCap) moneyFailure = 'team_monthly_cap';
		else if (memberCap !== undefined && spent(principal.accountId) + price > memberCap) moneyFailure = 'team_member_cap';
	} else {
		const account = ctx.state.account(principal.accountId);
		if (account.balance - account.reserved < price) moneyFailure = 'insufficient_credits';
	}
	const { record, submitted } = services.runs.create({
		endpoint,
		model,
		principal,
		params,
		price,
		teamId,
		moneyFailure,
		makeOutput: job.makeOutput,
		inputSummary: job.inputSummary ?? inputSummary(params, model),
	});
	return { status: 202, body: submitted, runId: record.run.id };
}

/**
 * The handler of a generating submit: model, parameters, team/project, quote, money; then a
 * queued run (HTTP 202). Every generation endpoint is served by this one function.
 */
export function runHandler(services: SandboxServices, makeOutput: OutputMaker = imageOutputs): RouteHandler {
	return (ctx): Reply => {
		const { endpoint } = ctx;
		const params = bodyOf(ctx);
		const model = resolveModel(endpoint, params);
		checkParameters(ctx, services, endpoint, params, model);
		const price = model ? priceOf(model, params) : 1;
		return createPaidRun(ctx, services, { endpoint, model, params, price, makeOutput });
	};
}
