import { nowIso } from '../ids';
import { bodyOf, principalOf, ProblemError, type Reply, type RouteContext } from '../http';
import type { SandboxModel } from '../models';
import type { OutputMaker } from '../outputs';
import type { SandboxServices } from '../services';
import { checkBillingAndFiling, checkParameters, resolveModel } from './generation';
import { producerStore, type Json } from './library-store';

export function round(credits: number): number {
	return Math.round(credits * 100) / 100;
}

/** How a producer route prices and runs a request. */
export interface ProducerJob {
	credits: number;
	/** what estimates of this work bind their quote to (a model alias, or the submit's route) */
	quoteKey: string;
	/** `capability` of the run (the API's capability where one exists) */
	capability: string;
	/** the resource the run makes or changes (Run.resource_id) */
	resourceId?: string;
	makeOutput: OutputMaker;
	onFinish?: (status: 'completed' | 'failed', output: Json | null) => void;
	inputSummary?: Json;
}

/** Body and path parameters together, for the catalog's field checks. */
export function paramsOf(ctx: RouteContext): Json {
	return { ...bodyOf(ctx), ...(ctx.req.params as Json) };
}

/** Checks a producer request against its catalog fields (and model limits) and resolves its model. */
export function checkProducer(ctx: RouteContext, services: SandboxServices): SandboxModel | undefined {
	const params = paramsOf(ctx);
	const model = resolveModel(ctx.endpoint, params);
	checkParameters(ctx, services, ctx.endpoint, params, model);
	for (const field of ctx.endpoint.fields) {
		const value = params[field.name];
		const allowed = (field.options ?? []).map((o) => o.value).filter((v) => v !== '');
		if (field.type === 'options' && allowed.length && value !== undefined && value !== '' && !allowed.includes(value as string)) {
			throw new ProblemError(400, 'invalid_parameter', `${field.name} must be one of ${allowed.join(', ')}`, { param: field.name });
		}
	}
	return model;
}

/** A cost estimate of producer work (same quote machinery as POST /models/estimate-cost). */
export function estimateReply(ctx: RouteContext, services: SandboxServices, quoteKey: string, credits: number, model?: SandboxModel): Reply {
	const quote = services.quotes.issue(principalOf(ctx).accountId, quoteKey, bodyOf(ctx), credits);
	return { status: 200, body: { ...quote, model: model?.id ?? null } };
}

/**
 * A producer submit: team/project rules, quote, money, then a queued run (HTTP 202) like every
 * generating submit. The run carries the producer's capability and resource_id.
 */
export function submitProducerRun(ctx: RouteContext, services: SandboxServices, job: ProducerJob, model?: SandboxModel): Reply {
	const principal = principalOf(ctx);
	const params = bodyOf(ctx);
	const teamId = checkBillingAndFiling(ctx, ctx.endpoint, params);
	if (typeof params.quote_token === 'string' && params.quote_token) {
		services.quotes.verify(params.quote_token, principal.accountId, job.quoteKey, params, job.credits);
	}
	let moneyFailure: string | undefined;
	if (teamId) {
		const team = ctx.state.teams.get(teamId)!;
		if (team.pool - team.reserved < job.credits) moneyFailure = 'team_pool_insufficient';
	} else {
		const account = ctx.state.account(principal.accountId);
		if (account.balance - account.reserved < job.credits) moneyFailure = 'insufficient_credits';
	}
	const summary: Json = { model: model?.id ?? null, ...(job.inputSummary ?? {}) };
	for (const key of ['prompt', 'duration_seconds', 'page_count', 'game_id', 'app_id']) if (params[key] !== undefined) summary[key] = params[key];
	const { record, submitted } = services.runs.create({
		endpoint: ctx.endpoint,
		model,
		principal,
		params,
		price: job.credits,
		teamId,
		moneyFailure,
		makeOutput: job.makeOutput,
		inputSummary: summary,
	});
	for (const run of [record.run, submitted]) {
		run.capability = job.capability;
		run.resource_id = job.resourceId ?? null;
	}
	if (job.onFinish) producerStore(ctx.state).onFinish.set(record.run.id, job.onFinish);
	return { status: 202, body: submitted, runId: record.run.id };
}

export function stamp(data: Json): void {
	data.updated_at = nowIso();
}
