/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the local sandbox service: runs in Node, never shipped (CONTRIBUTING.md, Linting) */
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

import { newId, nowIso } from './ids';
import { SANDBOX_ACCOUNT_ID } from './options';
import type { RunRecord, SandboxState } from './state';
import {
	DELIVERY_HEADER,
	EVENT_HEADER,
	signatureOf,
	SIGNATURE_HEADER,
	type EventType,
} from './webhook-signature';

/** The body of a delivery (decisions.md). */
interface WebhookEvent {
	id: string;
	object: 'event';
	type: EventType;
	created_at: string;
	data: { object: Record<string, unknown> };
}

/** decisions.md: a 2xx is a success; anything else, or no answer within 10 s, is retried up to 5 attempts. */
export const WEBHOOK_MAX_ATTEMPTS = 5;
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** back-off before attempt n+1 is BASE * 2^(n-1), times the sandbox's webhookBackoffScale: 5 s, 10 s, 20 s, 40 s */
export const WEBHOOK_BACKOFF_BASE_MS = 5_000;
const RESPONSE_BODY_LIMIT = 2_000;

/** The state.events name on which terminal runs and batches are announced to the delivery engine. */
const WEBHOOK_EVENT = 'webhook.event';

export interface WebhookEndpoint {
	id: string;
	object: 'webhook_endpoint';
	url: string;
	description: string | null;
	status: 'active' | 'disabled';
	events: EventType[];
	signing_secret_preview: string;
	created_at: string;
	updated_at: string;
	last_delivery_at: string | null;
}

export interface WebhookDelivery {
	id: string;
	object: 'webhook_delivery';
	endpoint_id: string;
	event_id: string;
	event_type: EventType;
	run_id: string | null;
	batch_id: string | null;
	status: 'pending' | 'success' | 'failed';
	attempt_count: number;
	max_attempts: number;
	response_status: number | null;
	response_body: string | null;
	last_error: string | null;
	request_headers: Record<string, string>;
	/** the delivery this one replays, if it is a replay */
	replay_of: string | null;
	/** how long the last attempt took (ms) */
	duration_ms: number | null;
	created_at: string;
	updated_at: string;
	last_attempt_at: string | null;
	next_attempt_at: string | null;
	delivered_at: string | null;
}

interface EndpointRecord {
	endpoint: WebhookEndpoint;
	accountId: string;
	secret: string;
}

interface StoredEvent {
	event: WebhookEvent;
	/** the exact bytes every attempt and replay sends (and signs) */
	body: Buffer;
	accountId: string;
}

interface DeliveryRecord {
	delivery: WebhookDelivery;
	accountId: string;
}

/**
 * Announces a terminal run or batch: every active endpoint of the account subscribed to `type`
 * gets a signed delivery. Runs are announced by the engine itself (on `run.finished`); batches call
 * this with `batch.completed` / `batch.failed` and the batch object.
 */
export function emitEvent(
	state: SandboxState,
	type: EventType,
	object: Record<string, unknown>,
	accountId: string = SANDBOX_ACCOUNT_ID,
): void {
	state.events.emit(WEBHOOK_EVENT, { type, object, accountId });
}

function previewOf(secret: string): string {
	return `whsec_…${secret.slice(-4)}`;
}

/**
 * The sandbox's webhook endpoints and deliveries: stores endpoints per account, turns terminal
 * runs and batches into signed events, POSTs them with retries and exponential back-off, and
 * records every attempt as a WebhookDelivery.
 */
export class WebhookEngine {
	private readonly endpoints = new Map<string, EndpointRecord>();
	private readonly deliveries = new Map<string, DeliveryRecord>();
	private readonly events = new Map<string, StoredEvent>();
	private readonly timers = new Set<NodeJS.Timeout>();
	private readonly inFlight = new Set<ClientRequest>();
	private stopped = false;

	constructor(private readonly state: SandboxState) {
		state.events.on('run.finished', (record: RunRecord) => {
			emitEvent(
				state,
				record.run.status === 'completed' ? 'run.completed' : 'run.failed',
				record.run,
				record.accountId,
			);
		});
		state.events.on(
			WEBHOOK_EVENT,
			(e: { type: EventType; object: Record<string, unknown>; accountId: string }) =>
				this.publish(e.type, e.object, e.accountId),
		);
	}

	createEndpoint(
		accountId: string,
		fields: { url: string; description: string | null; events: EventType[] },
	): WebhookEndpoint & { signing_secret: string } {
		const at = nowIso();
		const secret = `whsec_${randomBytes(24).toString('hex')}`;
		const endpoint: WebhookEndpoint = {
			id: newId('whe'),
			object: 'webhook_endpoint',
			url: fields.url,
			description: fields.description,
			status: 'active',
			events: fields.events,
			signing_secret_preview: previewOf(secret),
			created_at: at,
			updated_at: at,
			last_delivery_at: null,
		};
		this.endpoints.set(endpoint.id, { endpoint, accountId, secret });
		return { ...endpoint, signing_secret: secret };
	}

	endpoint(accountId: string, id: string): WebhookEndpoint | undefined {
		const record = this.endpoints.get(id);
		return record && record.accountId === accountId ? record.endpoint : undefined;
	}

	/** newest first */
	listEndpoints(accountId: string): WebhookEndpoint[] {
		return [...this.endpoints.values()]
			.filter((r) => r.accountId === accountId)
			.map((r) => r.endpoint)
			.reverse();
	}

	updateEndpoint(
		accountId: string,
		id: string,
		changes: Partial<Pick<WebhookEndpoint, 'url' | 'description' | 'events' | 'status'>>,
	): WebhookEndpoint | undefined {
		const endpoint = this.endpoint(accountId, id);
		if (!endpoint) return undefined;
		Object.assign(endpoint, changes, { updated_at: nowIso() });
		return endpoint;
	}

	deleteEndpoint(accountId: string, id: string): boolean {
		if (!this.endpoint(accountId, id)) return false;
		this.endpoints.delete(id);
		return true;
	}

	delivery(accountId: string, id: string): WebhookDelivery | undefined {
		const record = this.deliveries.get(id);
		return record && record.accountId === accountId ? record.delivery : undefined;
	}

	/** newest first */
	listDeliveries(accountId: string): WebhookDelivery[] {
		return [...this.deliveries.values()]
			.filter((r) => r.accountId === accountId)
			.map((r) => r.delivery)
			.reverse();
	}

	/** Sends the event of a delivery to its endpoint again: a new delivery with the same event id. */
	replay(
		accountId: string,
		deliveryId: string,
	): WebhookDelivery | 'not_found' | 'endpoint_gone' | 'endpoint_disabled' {
		const original = this.delivery(accountId, deliveryId);
		if (!original) return 'not_found';
		const endpoint = this.endpoints.get(original.endpoint_id);
		if (!endpoint) return 'endpoint_gone';
		if (endpoint.endpoint.status !== 'active') return 'endpoint_disabled';
		return this.deliver(endpoint, this.events.get(original.event_id)!, original.id);
	}

	/** Stops retries and drops requests in flight (sandbox shutdown). */
	stop(): void {
		this.stopped = true;
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		for (const r of this.inFlight) r.destroy();
		this.inFlight.clear();
	}

	private publish(type: EventType, object: Record<string, unknown>, accountId: string): void {
		const event: WebhookEvent = {
			id: newId('evt'),
			object: 'event',
			type,
			created_at: nowIso(),
			data: { object: JSON.parse(JSON.stringify(object)) },
		};
		const stored: StoredEvent = {
			event,
			body: Buffer.from(JSON.stringify(event), 'utf8'),
			accountId,
		};
		this.events.set(event.id, stored);
		for (const record of this.endpoints.values()) {
			if (
				record.accountId !== accountId ||
				record.endpoint.status !== 'active' ||
				!record.endpoint.events.includes(type)
			)
				continue;
			this.deliver(record, stored, null);
		}
	}

	private deliver(
		endpoint: EndpointRecord,
		stored: StoredEvent,
		replayOf: string | null,
	): WebhookDelivery {
		const at = nowIso();
		const subject = stored.event.data.object as { id?: unknown };
		const kind = stored.event.type.startsWith('batch.') ? 'batch' : 'run';
		const delivery: WebhookDelivery = {
			id: newId('whd'),
			object: 'webhook_delivery',
			endpoint_id: endpoint.endpoint.id,
			event_id: stored.event.id,
			event_type: stored.event.type,
			run_id: kind === 'run' && typeof subject.id === 'string' ? subject.id : null,
			batch_id: kind === 'batch' && typeof subject.id === 'string' ? subject.id : null,
			status: 'pending',
			attempt_count: 0,
			max_attempts: WEBHOOK_MAX_ATTEMPTS,
			response_status: null,
			response_body: null,
			last_error: null,
			request_headers: {},
			replay_of: replayOf,
			duration_ms: null,
			created_at: at,
			updated_at: at,
			last_attempt_at: null,
			next_attempt_at: at,
			delivered_at: null,
		};
		this.deliveries.set(delivery.id, { delivery, accountId: endpoint.accountId });
		void this.attempt(delivery, stored);
		return delivery;
	}

	private async attempt(delivery: WebhookDelivery, stored: StoredEvent): Promise<void> {
		if (this.stopped) return;
		const endpoint = this.endpoints.get(delivery.endpoint_id);
		const now = nowIso();
		if (!endpoint || endpoint.endpoint.status !== 'active') {
			// a deleted or disabled endpoint receives nothing, retries included
			Object.assign(delivery, {
				status: 'failed',
				next_attempt_at: null,
				updated_at: now,
				last_error: endpoint ? 'The endpoint is disabled' : 'The endpoint was deleted',
			});
			return;
		}
		const headers: Record<string, string> = {
			'Content-Type': 'application/json',
			'User-Agent': 'MediaGen-Sandbox-Webhooks/1.0',
			[SIGNATURE_HEADER]: signatureOf(endpoint.secret, stored.body),
			[EVENT_HEADER]: stored.event.type,
			[DELIVERY_HEADER]: delivery.id,
		};
		delivery.attempt_count++;
		Object.assign(delivery, {
			request_headers: headers,
			last_attempt_at: now,
			next_attempt_at: null,
			updated_at: now,
		});
		endpoint.endpoint.last_delivery_at = now;
		const started = Date.now();
		const result = await this.post(endpoint.endpoint.url, headers, stored.body);
		if (this.stopped) return;
		const done = nowIso();
		Object.assign(delivery, {
			duration_ms: Date.now() - started,
			response_status: result.status ?? null,
			response_body: result.body ?? null,
			updated_at: done,
		});
		if (result.status !== undefined && result.status >= 200 && result.status < 300) {
			Object.assign(delivery, { status: 'success', last_error: null, delivered_at: done });
			return;
		}
		delivery.last_error = result.error ?? `The receiver answered HTTP ${result.status}`;
		if (delivery.attempt_count >= delivery.max_attempts) {
			// the sandbox's choice: an endpoint that missed every attempt of a delivery is disabled
			// (status 'disabled'), and receives nothing until it is PATCHed back to 'active'
			delivery.status = 'failed';
			if (this.state.options.webhookAutoDisable)
				Object.assign(endpoint.endpoint, { status: 'disabled', updated_at: done });
			return;
		}
		const wait =
			WEBHOOK_BACKOFF_BASE_MS *
			2 ** (delivery.attempt_count - 1) *
			this.state.options.webhookBackoffScale;
		delivery.next_attempt_at = nowIso(Date.now() + wait);
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			void this.attempt(delivery, stored);
		}, wait);
		timer.unref();
		this.timers.add(timer);
	}

	/** One POST; never throws. */
	private post(
		url: string,
		headers: Record<string, string>,
		body: Buffer,
	): Promise<{ status?: number; body?: string; error?: string }> {
		return new Promise((resolve) => {
			let target: URL;
			try {
				target = new URL(url);
			} catch {
				resolve({ error: `Not a URL: ${url}` });
				return;
			}
			const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
			const req = send(target, {
				method: 'POST',
				headers: { ...headers, 'Content-Length': String(body.length), Connection: 'close' },
				agent: false,
			});
			this.inFlight.add(req);
			const finish = (value: { status?: number; body?: string; error?: string }) => {
				this.inFlight.delete(req);
				resolve(value);
			};
			req.setTimeout(WEBHOOK_TIMEOUT_MS, () =>
				req.destroy(new Error(`No answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`)),
			);
			req.on('response', (res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () =>
					finish({
						status: res.statusCode,
						body: Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_BODY_LIMIT),
					}),
				);
				res.on('error', (e) => finish({ status: res.statusCode, error: e.message }));
			});
			req.on('error', (e: NodeJS.ErrnoException) =>
				finish({ error: e.code ? `${e.code}: ${e.message}` : e.message }),
			);
			req.end(body);
		});
	}
}
