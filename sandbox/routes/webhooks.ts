import { EVENT_TYPES, isEventType, type EventType } from '../webhook-signature';
import {
	bodyOf,
	listReply,
	principalOf,
	ProblemError,
	type RouteContext,
	type RouteHandler,
} from '../http';
import type { SandboxServices } from '../services';
import type { WebhookEndpoint } from '../webhooks';

function invalid(param: string, detail: string): ProblemError {
	return new ProblemError(400, 'invalid_parameter', detail, { param });
}

function readUrl(value: unknown): string {
	if (typeof value !== 'string' || !value.trim()) throw invalid('url', 'url is required');
	try {
		const url = new URL(value.trim());
		if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
	} catch {
		// answered below
	}
	throw invalid('url', `url must be an http or https address, not ${JSON.stringify(value)}`);
}

function readEvents(value: unknown): EventType[] {
	if (!Array.isArray(value) || value.length === 0 || !value.every(isEventType)) {
		throw invalid('events', `events must be a non-empty array of ${EVENT_TYPES.join(', ')}`);
	}
	return [...new Set(value)];
}

function readDescription(value: unknown): string | null {
	if (value === undefined || value === null) return null;
	if (typeof value !== 'string')
		throw invalid('description', 'description must be a string or null');
	return value;
}

const param = (ctx: RouteContext, name: string) => String(ctx.req.params[name]);

/** Handlers of the webhook endpoints and deliveries, keyed like the catalog. */
export function webhookHandlers(services: SandboxServices): Record<string, RouteHandler> {
	const engine = services.webhooks;
	const account = (ctx: RouteContext) => principalOf(ctx).accountId;
	return {
		'GET /webhooks': (ctx) => listReply(ctx.req, engine.listEndpoints(account(ctx))),
		'POST /webhooks': (ctx) => {
			const body = bodyOf(ctx);
			const fields = {
				url: readUrl(body.url),
				events: readEvents(body.events),
				description: readDescription(body.description),
			};
			return { status: 201, body: engine.createEndpoint(account(ctx), fields) };
		},
		'PATCH /webhooks/{endpointId}': (ctx) => {
			const body = bodyOf(ctx);
			const changes: Partial<Pick<WebhookEndpoint, 'url' | 'description' | 'events' | 'status'>> =
				{};
			if (body.url !== undefined) changes.url = readUrl(body.url);
			if (body.events !== undefined) changes.events = readEvents(body.events);
			if (body.description !== undefined) changes.description = readDescription(body.description);
			if (body.status !== undefined) {
				if (body.status !== 'active' && body.status !== 'disabled')
					throw invalid('status', 'status must be active or disabled');
				changes.status = body.status;
			}
			const endpoint = engine.updateEndpoint(account(ctx), param(ctx, 'endpointId'), changes);
			if (!endpoint)
				throw new ProblemError(404, 'not_found', `No webhook endpoint ${param(ctx, 'endpointId')}`);
			return { status: 200, body: endpoint };
		},
		'DELETE /webhooks/{endpointId}': (ctx) => {
			if (!engine.deleteEndpoint(account(ctx), param(ctx, 'endpointId')))
				throw new ProblemError(404, 'not_found', `No webhook endpoint ${param(ctx, 'endpointId')}`);
			return { status: 204 };
		},
		'GET /webhooks/deliveries': (ctx) => {
			const { endpoint_id: endpointId, status, event_type: eventType } = ctx.req.query;
			const deliveries = engine
				.listDeliveries(account(ctx))
				.filter(
					(d) =>
						(!endpointId || d.endpoint_id === endpointId) &&
						(!status || d.status === status) &&
						(!eventType || d.event_type === eventType),
				);
			return listReply(ctx.req, deliveries);
		},
		'POST /webhooks/deliveries/{deliveryId}/replay': (ctx) => {
			const id = param(ctx, 'deliveryId');
			const result = engine.replay(account(ctx), id);
			if (result === 'not_found')
				throw new ProblemError(404, 'not_found', `No webhook delivery ${id}`);
			if (result === 'endpoint_gone')
				throw new ProblemError(404, 'not_found', `The endpoint of delivery ${id} was deleted`);
			if (result === 'endpoint_disabled')
				throw new ProblemError(
					409,
					'endpoint_disabled',
					`The endpoint of delivery ${id} is disabled; enable it to replay`,
				);
			return { status: 202, body: result };
		},
	};
}
