import { operationName, type TableEndpoint } from '../endpoint-table';
import {
	bodyOf,
	principalOf,
	ProblemError,
	requireScope,
	type Reply,
	type RouteContext,
	type RouteHandler,
} from '../http';
import { defaultModelFor, findModel, type Capability, type SandboxModel } from '../models';
import { moneyFailureOf } from '../money';
import { imageOutputs, type OutputMaker } from '../outputs';
import { ROUTE_PARAMETERS } from '../parameters/routes';
import { checkRequest } from '../parameters/validate';
import { priceOf } from '../pricing';
import type { SandboxServices } from '../services';
import { SUBMITS } from '../submits';

const given = (value: unknown) => value !== undefined && value !== null && value !== '';

/** Checks team_id / project_id the way the API document describes. Returns the team to bill. */
export function checkBillingAndFiling(
	ctx: RouteContext,
	endpoint: Pick<TableEndpoint, 'method' | 'path'>,
	params: Record<string, unknown>,
): string | undefined {
	const principal = principalOf(ctx);
	const name = operationName(endpoint);
	const submit = SUBMITS[name];
	let teamId: string | undefined;
	if (given(params.team_id)) {
		if (!submit?.teamBilling) {
			throw new ProblemError(
				400,
				'team_billing_unsupported',
				`${name} cannot bill a workspace pool; it refuses team_id instead of billing the personal balance`,
				{ param: 'team_id' },
			);
		}
		requireScope(ctx, 'teams:read');
		const team = ctx.state.teams.get(String(params.team_id));
		const role = team?.members[principal.accountId];
		if (!team || !role)
			throw new ProblemError(
				404,
				'invalid_team_id',
				`You are not a member of workspace ${String(params.team_id)}`,
				{ param: 'team_id' },
			);
		if (role === 'viewer')
			throw new ProblemError(
				403,
				'team_role_cannot_spend',
				`Your role (${role}) in ${team.id} cannot spend its pool`,
			);
		teamId = team.id;
	}
	if (given(params.project_id)) {
		if (!submit?.projectFiling) {
			throw new ProblemError(
				400,
				'project_filing_unsupported',
				`The output of ${name} is not an image, video or audio a project can hold`,
				{ param: 'project_id' },
			);
		}
		requireScope(ctx, 'projects:read');
		const project = ctx.state.projects.get(String(params.project_id));
		if (!project || project.accountId !== principal.accountId)
			throw new ProblemError(404, 'not_found', `No project ${String(params.project_id)}`, {
				param: 'project_id',
			});
	}
	return teamId;
}

/**
 * The model alias of a request: the capability's default when omitted; any alias of the capability
 * when pinned, listed or superseded. Anything else is 400 model_not_found.
 */
export function resolveModel(
	capability: Capability | undefined,
	params: Record<string, unknown>,
): SandboxModel | undefined {
	if (!capability) return undefined;
	if (!given(params.model)) return defaultModelFor(capability);
	const model = findModel(String(params.model));
	if (!model || model.capability !== capability) {
		throw new ProblemError(
			400,
			'model_not_found',
			`No ${capability} model with alias ${String(params.model)} (GET /models lists the current ones)`,
			{ param: 'model' },
		);
	}
	return model;
}

/** Checks a route's parameters (its entry in ROUTE_PARAMETERS) and returns the model it runs on. */
export function checkRoute(
	ctx: RouteContext,
	services: SandboxServices,
	params: Record<string, unknown>,
	route: string = operationName(ctx.endpoint),
): SandboxModel | undefined {
	const rules = ROUTE_PARAMETERS[route];
	if (!rules) return undefined;
	const model = resolveModel(rules.capability, params);
	checkRequest(ctx, services, rules, params, model);
	return model;
}

function inputSummary(
	params: Record<string, unknown>,
	model?: SandboxModel,
): Record<string, unknown> {
	const summary: Record<string, unknown> = { model: model?.id ?? null };
	for (const key of [
		'prompt',
		'aspect_ratio',
		'count',
		'duration',
		'generate_audio',
		'resolution',
		'scale',
	]) {
		if (params[key] !== undefined) summary[key] = params[key];
	}
	summary.has_image = Boolean(
		params.image_url ??
			(Array.isArray(params.reference_image_urls) && params.reference_image_urls.length),
	);
	return summary;
}

/** A run to create once its model and parameters are known (see createPaidRun). */
export interface PaidRun {
	endpoint: Pick<TableEndpoint, 'method' | 'path'>;
	model?: SandboxModel;
	params: Record<string, unknown>;
	price: number;
	makeOutput: OutputMaker;
	inputSummary?: Record<string, unknown>;
	/** what an estimate of this work binds its quote to (default: the model alias, or the operation name) */
	quoteKey?: string;
	/** Run.capability where the model does not name it */
	capability?: string;
	resourceId?: string;
}

/**
 * Team/project rules, the quote and the money of a submit, then a queued run (HTTP 202). Every
 * generating submit ends here, so every route bills, quotes and fails for money the same way.
 */
export function createPaidRun(ctx: RouteContext, services: SandboxServices, job: PaidRun): Reply {
	const { endpoint, model, params, price } = job;
	const principal = principalOf(ctx);
	const teamId = checkBillingAndFiling(ctx, endpoint, params);
	if (typeof params.quote_token === 'string' && params.quote_token) {
		services.quotes.verify(
			params.quote_token,
			principal.accountId,
			job.quoteKey ?? model?.id ?? operationName(endpoint),
			params,
			price,
		);
	}
	const name = operationName(endpoint);
	const { record, submitted } = services.runs.create({
		operation: name,
		capability: job.capability ?? model?.capability ?? SUBMITS[name]?.runCapability ?? 'workflow',
		model,
		principal,
		params,
		price,
		teamId,
		moneyFailure: moneyFailureOf(ctx.state, principal.accountId, teamId, price),
		makeOutput: job.makeOutput,
		inputSummary: job.inputSummary ?? inputSummary(params, model),
		resourceId: job.resourceId,
	});
	return { status: 202, body: submitted, runId: record.run.id };
}

/**
 * The handler of a generating submit: model and parameters (ROUTE_PARAMETERS), then team/project,
 * quote and money; then a queued run (HTTP 202).
 */
export function runHandler(
	services: SandboxServices,
	makeOutput: OutputMaker = imageOutputs,
): RouteHandler {
	return (ctx): Reply => {
		const { endpoint } = ctx;
		const params = bodyOf(ctx);
		const model = checkRoute(ctx, services, params);
		const price = model ? priceOf(model, params) : 1;
		return createPaidRun(ctx, services, { endpoint, model, params, price, makeOutput });
	};
}
