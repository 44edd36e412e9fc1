import {
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IHookFunctions,
} from 'n8n-workflow';

import { assertTriggerReachable } from './reachability';
import { events } from './trigger-options';
import { listAll } from '../transport/paginate';
import { problemOf } from '../transport/problem';
import { apiRequest, createClient, unexpectedResponse, type ApiClient } from '../transport/request';
import { EVENT_OPTIONS, EVENT_TYPES, isEventType, type EventType } from './events';
import type { SealKey } from './sealed-secret';
import {
	keepSigningSecret,
	signingSecretOf,
	triggerCredentialType,
	triggerSealKey,
	triggerStaticData,
	type TriggerStaticData,
} from './trigger-secret';

/** Forgets the endpoint, not the events: an event id is the account's, whatever endpoint delivers it. */
function forgetEndpoint(data: TriggerStaticData): void {
	delete data.endpointId;
	delete data.sealedSigningSecret;
	delete data.signingSecret;
	delete data.webhookUrl;
}

/** The client of the credential the trigger uses, and the key its signing secret is sealed with. */
async function clientOf(ctx: IHookFunctions): Promise<{ client: ApiClient; key?: SealKey }> {
	const type = triggerCredentialType(ctx);
	const credentials = await ctx.getCredentials<ICredentialDataDecryptedObject>(type);
	return {
		client: await createClient(ctx, type, credentials),
		key: triggerSealKey(ctx, credentials),
	};
}

function webhookUrlOf(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) throw new NodeOperationError(ctx.getNode(), 'n8n has no webhook URL for this trigger');
	return url;
}

function selectedEvents(ctx: IHookFunctions): EventType[] {
	const chosen = events
		.read((name, fallback) => ctx.getNodeParameter(name, fallback))
		.filter(isEventType);
	if (chosen.length === 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Start On: choose at least one event; allowed: ${EVENT_OPTIONS.map((o) => o.name).join(', ')}`,
			{
				description: `API field events (${EVENT_TYPES.join(', ')}). No endpoint was registered or changed, and no credits were spent.`,
			},
		);
	}
	return chosen;
}

const sameEvents = (a: unknown, b: EventType[]) =>
	Array.isArray(a) && a.length === b.length && b.every((e) => a.includes(e));

/**
 * checkExists: whether the endpoint this node registered still exists at the service for the
 * current URL. A vanished endpoint is forgotten (so create registers a new one); an endpoint whose
 * events no longer match the node's is updated in place. A secret an earlier version kept in clear
 * is sealed here. A secret sealed with another credential (its API key or client secret changed)
 * cannot verify deliveries any more: that endpoint is deleted when it is this node's (same URL) and
 * a new one registered.
 */
export async function endpointExists(ctx: IHookFunctions): Promise<boolean> {
	const data = triggerStaticData(ctx);
	if (!data.endpointId || !(data.sealedSigningSecret || data.signingSecret)) return false;
	const url = webhookUrlOf(ctx);
	const { client, key } = await clientOf(ctx);
	await assertTriggerReachable(ctx, client, url);
	const opened = signingSecretOf(data, key);
	const endpoints = await listAll(client, { path: '/webhooks' }, { returnAll: true, limit: 0 });
	const endpoint = endpoints.find((e) => e.id === data.endpointId);
	if (!endpoint || !('secret' in opened)) {
		if (endpoint && endpoint.url === url) await deleteEndpoint(client, data.endpointId);
		forgetEndpoint(data);
		return false;
	}
	client.secrets.add(opened.secret);
	// registered for the other URL (test vs production): this activation needs its own endpoint
	if (endpoint.url !== url) return false;
	const events = selectedEvents(ctx);
	// A disabled endpoint receives nothing (document, Events rule 1), so an active workflow would wait in
	// silence: it is enabled again (same id and secret). If the service refuses that, a new one is registered.
	const patch: IDataObject = {};
	if (!sameEvents(endpoint.events, events)) patch.events = events;
	if (endpoint.status === 'disabled') patch.status = 'active';
	if (Object.keys(patch).length === 0) return true;
	const patched = await apiRequest<IDataObject>(client, {
		method: 'PATCH',
		path: `/webhooks/${encodeURIComponent(data.endpointId)}`,
		body: patch,
	}).then(
		({ body }) => body,
		(error: unknown) => {
			if (patch.status && refusedByService(error)) return undefined;
			throw error;
		},
	);
	if (patch.status && patched?.status !== 'active') {
		await deleteEndpoint(client, data.endpointId);
		forgetEndpoint(data);
		return false;
	}
	return true;
}

/** create: registers the n8n webhook URL and keeps the endpoint id and its signing secret, sealed. */
export async function registerEndpoint(ctx: IHookFunctions): Promise<boolean> {
	const url = webhookUrlOf(ctx);
	const events = selectedEvents(ctx);
	const workflow = ctx.getWorkflow();
	const description = `n8n workflow "${workflow.name ?? ''}" (${String(workflow.id ?? '')}), node "${ctx.getNode().name}"`;
	const { client, key } = await clientOf(ctx);
	if (!key) {
		throw new NodeOperationError(
			ctx.getNode(),
			'The MediaGen credential has no API key or client secret',
			{
				description:
					'The trigger seals the endpoint’s signing secret with it. Open the credential and fill it in. Nothing was registered.',
			},
		);
	}
	await assertTriggerReachable(ctx, client, url);
	const created = await createEndpoint(client, { url, events, description });
	const data = triggerStaticData(ctx);
	forgetEndpoint(data);
	data.endpointId = created.id;
	keepSigningSecret(data, created.signingSecret, key);
	data.webhookUrl = url;
	return true;
}

/**
 * Registers an endpoint (POST /webhooks) for the trigger or a paused execution: its id and the
 * signing secret the service shows only now. An answer without them is unexpected.
 */
export async function createEndpoint(
	client: ApiClient,
	endpoint: { url: string; events: EventType[]; description: string },
): Promise<{ id: string; signingSecret: string }> {
	const { body } = await apiRequest<IDataObject>(client, {
		method: 'POST',
		path: '/webhooks',
		body: endpoint,
	});
	if (
		typeof body?.id !== 'string' ||
		typeof body.signing_secret !== 'string' ||
		!body.signing_secret
	) {
		throw unexpectedResponse(
			client,
			'POST /webhooks did not return an endpoint with its signing_secret',
			body,
		);
	}
	return { id: body.id, signingSecret: body.signing_secret };
}

/**
 * Codes with which the service declines re-enabling this endpoint, so that a new registration is the
 * way out: the change is refused (invalid_parameter, decisions.md) or the endpoint went away meanwhile
 * (not_found). Branches on the problem's `code`, never on the HTTP status (document, Errors): any other
 * failure (scope, credential, rate limit, an unknown code) is reported rather than answered with a delete.
 */
const REFUSALS_OF_REENABLING = new Set(['invalid_parameter', 'not_found']);

function refusedByService(error: unknown): boolean {
	const code = problemOf(error)?.code;
	return typeof code === 'string' && REFUSALS_OF_REENABLING.has(code);
}

/** Deletes an endpoint at the service; one that is already gone (code not_found) is fine. */
export async function deleteEndpoint(client: ApiClient, endpointId: string): Promise<void> {
	const failure = await apiRequest(client, {
		method: 'DELETE',
		path: `/webhooks/${encodeURIComponent(endpointId)}`,
	}).then(
		() => undefined,
		(error: unknown) => error,
	);
	// branch on the service's code, never on the HTTP status alone (a proxy's 404 is not "gone")
	if (failure !== undefined && problemOf(failure)?.code !== 'not_found') throw failure;
}

/** delete: removes the registered endpoint at the service (an endpoint already gone is fine). */
export async function removeEndpoint(ctx: IHookFunctions): Promise<boolean> {
	const data = triggerStaticData(ctx);
	if (!data.endpointId) return true;
	await deleteEndpoint((await clientOf(ctx)).client, data.endpointId);
	forgetEndpoint(data);
	return true;
}
