import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeExecutionData,
	IPollFunctions,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { BYTES_PER_MB, DEFAULT_MAX_OUTPUT_MB, downloadOutputs } from '../media/download';
import { outputFiles } from '../outputs/output-files';
import { binaryField, DEFAULT_BINARY_FIELD } from '../outputs/output-options';
import { simplifyOf } from '../outputs/simplify-option';
import { simplifiedBatch, simplifiedRun } from '../outputs/simplify';
import { normalizeBaseUrl } from '../credentials/credential-types';
import { problemOf } from '../transport/problem';
import { SecretValues } from '../transport/redact';
import { DELIVERY_HEADER, SIGNATURE_HEADER, subjectKind, type WebhookEvent } from './events';
import { claimEvent, saveSeenEvents, type SeenWindow } from './seen-events';
import { verifyDelivery } from './signature';
import {
	deliverySigningSecret,
	triggerCredentialType,
	triggerPlace,
	triggerStaticData,
} from './trigger-secret';
import {
	downloadOutputsOption,
	events,
	ignoreRepeatedEvents,
	maxEventAge,
	onlyCapabilities,
	onlyModels,
	TRIGGER_OPTIONS_COLLECTION,
} from './trigger-options';

/**
 * The trigger's Options as saved. Workflows saved when the replay protection lived there still hold
 * Reject Events Older Than and Ignore Repeated Events in it; top-level parameters win.
 */
export type TriggerOptions = IDataObject;

function list(value: unknown): string[] {
	return typeof value === 'string'
		? value
				.split(',')
				.map((v) => v.trim())
				.filter(Boolean)
		: [];
}

/** Why an event that verified is not passed on, or undefined when it is. */
export function ignoredBecause(
	ctx: IWebhookFunctions | IPollFunctions,
	event: WebhookEvent,
	options: TriggerOptions,
): string | undefined {
	const selected = events.read((name, fallback) => ctx.getNodeParameter(name, fallback));
	if (!selected.includes(event.type)) return 'event_not_selected';
	if (subjectKind(event.type) === 'run') {
		const run = event.data.object;
		const capabilities = list(onlyCapabilities.read(options));
		if (capabilities.length && !capabilities.includes(String(run.capability ?? '')))
			return 'capability_filtered';
		const models = list(onlyModels.read(options));
		if (models.length && !models.includes(String(run.model ?? ''))) return 'model_filtered';
	}
	return undefined;
}

/**
 * The replay protection that applies: a value saved in Options by an older version of the node,
 * else the top-level parameter (whose default n8n fills in when the node stores none).
 */
export function replayProtection(
	ctx: IWebhookFunctions,
	options: TriggerOptions,
): { maxAgeMinutes: number; ignoreRepeated: boolean } {
	const age =
		options[maxEventAge.name] ??
		(ctx.getNodeParameter(maxEventAge.name, maxEventAge.spec.default) as unknown);
	const repeated =
		options[ignoreRepeatedEvents.name] ??
		(ctx.getNodeParameter(ignoreRepeatedEvents.name, ignoreRepeatedEvents.spec.default) as unknown);
	const minutes = Number(age);
	return {
		// an unreadable age (an expression gone wrong) falls back to the default, never to "any age"
		maxAgeMinutes:
			typeof age !== 'boolean' && age !== '' && Number.isFinite(minutes) && minutes >= 0
				? minutes
				: maxEventAge.spec.default,
		ignoreRepeated: repeated !== false,
	};
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

/** Simplify: the run or batch flat (src/outputs/simplify.ts), then which event it was. */
function simplifiedEventJson(event: WebhookEvent): IDataObject {
	const subject = event.data.object;
	const json =
		subjectKind(event.type) === 'batch' ? simplifiedBatch(subject) : simplifiedRun(subject);
	return { ...json, event: event.type, event_id: event.id };
}

/** The item an event starts the workflow with (also the polling trigger's, with no delivery and no signing secret). */
export async function eventItem(
	ctx: IWebhookFunctions | IPollFunctions,
	event: WebhookEvent,
	deliveryId: string | undefined,
	options: TriggerOptions,
	signingSecret: string,
): Promise<INodeExecutionData> {
	const subject = event.data.object;
	const simplify = simplifyOf((name, fallback) => ctx.getNodeParameter(name, fallback));
	const json = simplify ? simplifiedEventJson(event) : fullEventJson(event, deliveryId);
	if (
		!downloadOutputsOption.read(options) ||
		event.type !== 'run.completed' ||
		typeof subject.id !== 'string'
	)
		return { json };
	const files = outputFiles(subject.output as IDataObject | null | undefined);
	if (!simplify) json.output_urls = files.map((f) => f.url);
	if (files.length === 0) return { json };
	const secrets = new SecretValues().add(signingSecret);
	try {
		const credentials = await ctx.getCredentials<ICredentialDataDecryptedObject>(
			triggerCredentialType(ctx),
		);
		secrets.addCredential(credentials);
		const baseUrl = normalizeBaseUrl(credentials.baseUrl);
		const binary = await downloadOutputs(
			ctx,
			files,
			binaryField.read(options) ?? DEFAULT_BINARY_FIELD,
			baseUrl,
			{ runId: subject.id, maxBytes: DEFAULT_MAX_OUTPUT_MB * BYTES_PER_MB },
		);
		return { json, binary };
	} catch (error) {
		// The delivery is already answered: the workflow still starts, with the URLs and the reason.
		json.download_error = secrets.value({
			code: problemOf(error)?.code ?? 'download_failed',
			message: error instanceof Error ? error.message : String(error),
		});
		return { json };
	}
}

function header(ctx: IWebhookFunctions, name: string): string | undefined {
	const value = ctx.getHeaderData()[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

/**
 * The trigger's webhook: verifies the signature over the exact raw body with the secret sealed at
 * registration. Missing, malformed or wrong signatures, and events older than the allowed age, get
 * 401 and start nothing. A verified event is passed on as one item unless a filter or the
 * repeated-event check drops it (answered 200, so the service does not retry it).
 */
export async function receiveEvent(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const req = ctx.getRequestObject();
	const options = ctx.getNodeParameter(TRIGGER_OPTIONS_COLLECTION, {}) as TriggerOptions;
	const reject = (reason: string): IWebhookResponseData => {
		ctx.getResponseObject().status(401).json({ error: 'unauthorized', reason });
		return { noWebhookResponse: true };
	};
	const opened = await deliverySigningSecret(ctx);
	if (!('secret' in opened)) return reject(opened.reason);
	if (!req.rawBody && typeof req.readRawBody === 'function') await req.readRawBody();
	const protection = replayProtection(ctx, options);
	const verification = verifyDelivery({
		secret: opened.secret,
		rawBody: req.rawBody,
		signatureHeader: header(ctx, SIGNATURE_HEADER),
		maxAgeMinutes: protection.maxAgeMinutes,
	});
	if (!verification.ok) return reject(verification.reason);
	const { event } = verification;
	const filtered = ignoredBecause(ctx, event, options);
	if (filtered) return { webhookResponse: { received: true, ignored: filtered } };
	const data = triggerStaticData(ctx);
	const place = triggerPlace(ctx);
	const window = (): SeenWindow => ({ maxAgeMinutes: protection.maxAgeMinutes, now: Date.now() });
	// claimed before anything is awaited: a copy arriving while this one downloads is a repeat
	if (protection.ignoreRepeated && !claimEvent(data, place, event.id, event.created_at, window())) {
		return { webhookResponse: { received: true, ignored: 'repeated_event' } };
	}
	// Answered here, before the files are fetched (the service waits at most 10 s). n8n saves the
	// static data after the node returns, before it starts the execution.
	ctx.getResponseObject().status(200).json({ received: true, event_id: event.id });
	const item = await eventItem(ctx, event, header(ctx, DELIVERY_HEADER), options, opened.secret);
	// again: the static data n8n saves now also holds the ids this process claimed meanwhile
	if (protection.ignoreRepeated) saveSeenEvents(data, place, window());
	return { noWebhookResponse: true, workflowData: [[item]] };
}
