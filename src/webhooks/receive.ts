import type { IBinaryKeyData, IDataObject, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { downloadOutput } from '../media/download';
import { isRun, outputFiles } from '../runs/run';
import { DELIVERY_HEADER, SIGNATURE_HEADER, subjectKind, type WebhookEvent } from './events';
import { triggerStaticData } from './registration';
import { verifyDelivery } from './signature';

/** How many event ids "Ignore Repeated Events" remembers. */
export const REMEMBERED_EVENT_IDS = 200;

export interface TriggerOptions {
	maxEventAgeMinutes?: number;
	ignoreRepeatedEvents?: boolean;
	capabilities?: string;
	models?: string;
	downloadOutputs?: boolean;
	binaryPropertyName?: string;
}

function list(value: unknown): string[] {
	return typeof value === 'string' ? value.split(',').map((v) => v.trim()).filter(Boolean) : [];
}

/** Why an event that verified is not passed on, or undefined when it is. */
function ignoredBecause(ctx: IWebhookFunctions, event: WebhookEvent, options: TriggerOptions): string | undefined {
	const selected = ctx.getNodeParameter('events', []) as unknown;
	if (Array.isArray(selected) && !selected.includes(event.type)) return 'event_not_selected';
	if (subjectKind(event.type) === 'run') {
		const run = event.data.object;
		const capabilities = list(options.capabilities);
		if (capabilities.length && !capabilities.includes(String(run.capability ?? ''))) return 'capability_filtered';
		const models = list(options.models);
		if (models.length && !models.includes(String(run.model ?? ''))) return 'model_filtered';
	}
	return undefined;
}

/** Remembers the event id; false when it was seen before. */
function rememberEvent(ctx: IWebhookFunctions, eventId: string): boolean {
	const data = triggerStaticData(ctx);
	const seen = Array.isArray(data.recentEventIds) ? data.recentEventIds : [];
	if (seen.includes(eventId)) return false;
	// assigned anew (not pushed) so that n8n notices the change and saves the static data
	data.recentEventIds = [...seen, eventId].slice(-REMEMBERED_EVENT_IDS);
	return true;
}

async function eventItem(ctx: IWebhookFunctions, event: WebhookEvent, deliveryId: string | undefined, options: TriggerOptions): Promise<INodeExecutionData> {
	const subject = event.data.object;
	const json: IDataObject = {
		type: event.type,
		event_id: event.id,
		created_at: event.created_at,
		delivery_id: deliveryId ?? null,
		[subjectKind(event.type)]: subject,
	};
	if (!options.downloadOutputs || event.type !== 'run.completed' || !isRun(subject)) return { json };
	const files = outputFiles(subject);
	json.output_urls = files.map((f) => f.url);
	if (files.length === 0) return { json };
	const field = options.binaryPropertyName || 'data';
	const binary: IBinaryKeyData = {};
	for (const [index, file] of files.entries()) {
		binary[index === 0 ? field : `${field}_${index}`] = await downloadOutput(ctx, file, `${subject.id}${index ? `_${index}` : ''}`);
	}
	return { json, binary };
}

function header(ctx: IWebhookFunctions, name: string): string | undefined {
	const value = ctx.getHeaderData()[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

/**
 * The trigger's webhook: verifies the signature over the exact raw body with the secret stored at
 * registration. Missing, malformed or wrong signatures (and, when the option is on, stale events)
 * get 401 and start nothing. A verified event is passed on as one item unless a filter or the
 * repeated-event check drops it (answered 200, so the service does not retry it).
 */
export async function receiveEvent(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const req = ctx.getRequestObject();
	const options = ctx.getNodeParameter('options', {}) as TriggerOptions;
	const reject = (reason: string): IWebhookResponseData => {
		ctx.getResponseObject().status(401).json({ error: 'unauthorized', reason });
		return { noWebhookResponse: true };
	};
	const secret = triggerStaticData(ctx).signingSecret;
	if (!secret) return reject('no_signing_secret');
	if (!req.rawBody && typeof req.readRawBody === 'function') await req.readRawBody();
	const verification = verifyDelivery({
		secret,
		rawBody: req.rawBody,
		signatureHeader: header(ctx, SIGNATURE_HEADER),
		maxAgeMinutes: Number(options.maxEventAgeMinutes ?? 0),
	});
	if (!verification.ok) return reject(verification.reason);
	const { event } = verification;
	const ignored = ignoredBecause(ctx, event, options) ?? (options.ignoreRepeatedEvents && !rememberEvent(ctx, event.id) ? 'repeated_event' : undefined);
	if (ignored) return { webhookResponse: { received: true, ignored } };
	return { workflowData: [[await eventItem(ctx, event, header(ctx, DELIVERY_HEADER), options)]] };
}
