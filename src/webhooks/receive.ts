import type { IDataObject, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { BYTES_PER_MB, DEFAULT_MAX_OUTPUT_MB, downloadOutputs } from '../media/download';
import { outputFiles } from '../media/output-files';
import { simplifiedBatch, simplifiedRun } from '../media/simplify';
import { BEARER_CREDENTIAL_TYPE, isCredentialType, normalizeBaseUrl } from '../transport/credentials';
import { problemOf } from '../transport/problem';
import { DELIVERY_HEADER, SIGNATURE_HEADER, subjectKind, type WebhookEvent } from './events';
import { triggerStaticData } from './registration';
import { verifyDelivery } from './signature';

/** How many event ids "Ignore Repeated Events" remembers. */
export const REMEMBERED_EVENT_IDS = 200;

/** Replay protection that applies when the node stores no value (a node added before the fields existed). */
export const DEFAULT_MAX_EVENT_AGE_MINUTES = 5;
export const DEFAULT_IGNORE_REPEATED_EVENTS = true;

export interface TriggerOptions {
	/** kept for workflows saved when these two lived in Options; top-level parameters win */
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

function seenBefore(ctx: IWebhookFunctions, eventId: string): boolean {
	const seen = triggerStaticData(ctx).recentEventIds;
	return Array.isArray(seen) && seen.includes(eventId);
}

/** Remembers a started event's id (the last step before the workflow starts: nothing after it can fail). */
function rememberEvent(ctx: IWebhookFunctions, eventId: string): void {
	const data = triggerStaticData(ctx);
	const seen = Array.isArray(data.recentEventIds) ? data.recentEventIds : [];
	// assigned anew (not pushed) so that n8n notices the change and saves the static data
	data.recentEventIds = [...seen, eventId].slice(-REMEMBERED_EVENT_IDS);
}

/**
 * The replay protection that applies: a value saved in Options by an older version of the node,
 * else the top-level parameter (whose default n8n fills in when the node stores none).
 */
export function replayProtection(ctx: IWebhookFunctions, options: TriggerOptions): { maxAgeMinutes: number; ignoreRepeated: boolean } {
	const age = options.maxEventAgeMinutes ?? (ctx.getNodeParameter('maxEventAgeMinutes', DEFAULT_MAX_EVENT_AGE_MINUTES) as unknown);
	const repeated = options.ignoreRepeatedEvents ?? (ctx.getNodeParameter('ignoreRepeatedEvents', DEFAULT_IGNORE_REPEATED_EVENTS) as unknown);
	const minutes = Number(age);
	return {
		// an unreadable age (an expression gone wrong) falls back to the default, never to "any age"
		maxAgeMinutes: typeof age !== 'boolean' && age !== '' && Number.isFinite(minutes) && minutes >= 0 ? minutes : DEFAULT_MAX_EVENT_AGE_MINUTES,
		ignoreRepeated: repeated !== false,
	};
}

async function baseUrlOf(ctx: IWebhookFunctions): Promise<string> {
	const auth = ctx.getNodeParameter('authentication', BEARER_CREDENTIAL_TYPE);
	const credentials = await ctx.getCredentials(isCredentialType(auth) ? auth : BEARER_CREDENTIAL_TYPE);
	return normalizeBaseUrl(credentials.baseUrl);
}

/** The event as the service sent it (below node version 2, or Simplify off): its envelope with the run or batch inside. */
function fullEventJson(event: WebhookEvent, deliveryId: string | undefined): IDataObject {
	return {
		type: event.type,
		event_id: event.id,
		created_at: event.created_at,
		delivery_id: deliveryId ?? null,
		[subjectKind(event.type)]: event.data.object,
	};
}

/** Simplify: the run or batch flat (src/media/simplify.ts), then which event it was. */
function simplifiedEventJson(event: WebhookEvent): IDataObject {
	const subject = event.data.object;
	const json = subjectKind(event.type) === 'batch' ? simplifiedBatch(subject) : simplifiedRun(subject);
	return { ...json, event: event.type, event_id: event.id };
}

async function eventItem(ctx: IWebhookFunctions, event: WebhookEvent, deliveryId: string | undefined, options: TriggerOptions): Promise<INodeExecutionData> {
	const subject = event.data.object;
	const simplify = ctx.getNodeParameter('simplify', false) === true;
	const json = simplify ? simplifiedEventJson(event) : fullEventJson(event, deliveryId);
	if (!options.downloadOutputs || event.type !== 'run.completed' || typeof subject.id !== 'string') return { json };
	const files = outputFiles(subject.output as IDataObject | null | undefined);
	if (!simplify) json.output_urls = files.map((f) => f.url);
	if (files.length === 0) return { json };
	try {
		const baseUrl = await baseUrlOf(ctx);
		const binary = await downloadOutputs(ctx, files, options.binaryPropertyName || 'data', baseUrl, { runId: subject.id, maxBytes: DEFAULT_MAX_OUTPUT_MB * BYTES_PER_MB });
		return { json, binary };
	} catch (error) {
		// The delivery is already answered: the workflow still starts, with the URLs and the reason.
		json.download_error = { code: problemOf(error)?.code ?? 'download_failed', message: error instanceof Error ? error.message : String(error) };
		return { json };
	}
}

function header(ctx: IWebhookFunctions, name: string): string | undefined {
	const value = ctx.getHeaderData()[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

/**
 * The trigger's webhook: verifies the signature over the exact raw body with the secret stored at
 * registration. Missing, malformed or wrong signatures, and events older than the allowed age, get
 * 401 and start nothing. A verified event is passed on as one item unless a filter or the
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
	const protection = replayProtection(ctx, options);
	const verification = verifyDelivery({
		secret,
		rawBody: req.rawBody,
		signatureHeader: header(ctx, SIGNATURE_HEADER),
		maxAgeMinutes: protection.maxAgeMinutes,
	});
	if (!verification.ok) return reject(verification.reason);
	const { event } = verification;
	const ignored = ignoredBecause(ctx, event, options) ?? (protection.ignoreRepeated && seenBefore(ctx, event.id) ? 'repeated_event' : undefined);
	if (ignored) return { webhookResponse: { received: true, ignored } };
	// Answered here, before the files are fetched (the service waits at most 10 s) and before n8n
	// starts the execution: n8n saves the static data (the remembered id) when it answers, and in
	// n8n 2.41 an execution that starts first clears the "changed" mark, so the id would be lost.
	ctx.getResponseObject().status(200).json({ received: true, event_id: event.id });
	const item = await eventItem(ctx, event, header(ctx, DELIVERY_HEADER), options);
	if (protection.ignoreRepeated) rememberEvent(ctx, event.id);
	return { noWebhookResponse: true, workflowData: [[item]] };
}
