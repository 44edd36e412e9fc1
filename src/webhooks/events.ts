import type { IDataObject } from 'n8n-workflow';

import { EVENT_OPTIONS, EVENT_TYPES, type EventType } from '../catalog/events';

export { EVENT_OPTIONS, EVENT_TYPES, type EventType };

/** Header names of a delivery (decisions.md). */
export const SIGNATURE_HEADER = 'X-Service-Signature';
export const EVENT_HEADER = 'X-Service-Event';
export const DELIVERY_HEADER = 'X-Service-Delivery';

/**
 * The body of a delivery (decisions.md):
 * `{id: 'evt_…', object: 'event', type, created_at, data: {object: Run | Batch}}`.
 */
export interface WebhookEvent extends IDataObject {
	id: string;
	object: 'event';
	type: EventType;
	created_at: string;
	data: { object: IDataObject };
}

export function isEventType(value: unknown): value is EventType {
	return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);
}

/** Whether a parsed body has the event shape; tolerant of extra fields. */
export function isWebhookEvent(value: unknown): value is WebhookEvent {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const event = value as Partial<WebhookEvent>;
	const subject = event.data?.object;
	return (
		typeof event.id === 'string' &&
		isEventType(event.type) &&
		typeof event.created_at === 'string' &&
		typeof subject === 'object' &&
		subject !== null &&
		!Array.isArray(subject)
	);
}

/** `run` for run.* events, `batch` for batch.* events. */
export function subjectKind(type: EventType): 'run' | 'batch' {
	return type.startsWith('batch.') ? 'batch' : 'run';
}
