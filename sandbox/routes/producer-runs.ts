import { nowIso } from '../ids';
import { bodyOf, principalOf, type Reply, type RouteContext } from '../http';
import type { SandboxModel } from '../models';
import type { OutputMaker } from '../outputs';
import type { SandboxServices } from '../services';
import { checkRoute, createPaidRun } from './generation';
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

/** Checks a producer request against its entry in ROUTE_PARAMETERS (and model limits) and resolves its model. */
export function checkProducer(
	ctx: RouteContext,
	services: SandboxServices,
): SandboxModel | undefined {
	return checkRoute(ctx, services, bodyOf(ctx));
}

/** A cost estimate of producer work (same quote machinery as POST /models/estimate-cost). */
export function estimateReply(
	ctx: RouteContext,
	services: SandboxServices,
	quoteKey: string,
	credits: number,
	model?: SandboxModel,
): Reply {
	return {
		status: 200,
		body: services.quotes.issue(
			principalOf(ctx).accountId,
			quoteKey,
			bodyOf(ctx),
			credits,
			model?.id ?? null,
		),
	};
}

/**
 * A producer submit: team/project rules, quote, money, then a queued run (HTTP 202) like every
 * generating submit. The run carries the producer's capability and resource_id.
 */
export function submitProducerRun(
	ctx: RouteContext,
	services: SandboxServices,
	job: ProducerJob,
	model?: SandboxModel,
): Reply {
	const params = bodyOf(ctx);
	const summary: Json = { model: model?.id ?? null, ...(job.inputSummary ?? {}) };
	for (const key of ['prompt', 'duration_seconds', 'page_count', 'game_id', 'app_id'])
		if (params[key] !== undefined) summary[key] = params[key];
	const reply = createPaidRun(ctx, services, {
		endpoint: ctx.endpoint,
		model,
		params,
		price: job.credits,
		makeOutput: job.makeOutput,
		inputSummary: summary,
		quoteKey: job.quoteKey,
		capability: job.capability,
		resourceId: job.resourceId,
	});
	if (job.onFinish) producerStore(ctx.state).onFinish.set(reply.runId!, job.onFinish);
	return reply;
}

export function stamp(data: Json): void {
	data.updated_at = nowIso();
}
