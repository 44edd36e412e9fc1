import type { IDataObject } from 'n8n-workflow';

/** The event kinds of the API document's Events section. */
export const EVENT_TYPES = ['run.completed', 'run.failed', 'batch.completed', 'batch.failed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

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

/** The event kinds as n8n options, sorted by name. */
export const EVENT_OPTIONS = [
	{ name: 'Batch Completed', value: 'batch.completed', description: 'A batch reached completed' },
	{ name: 'Batch Failed', value: 'batch.failed', description: 'A batch reached failed' },
	{ name: 'Run Completed', value: 'run.completed', description: 'A run reached completed' },
	{ name: 'Run Failed', value: 'run.failed', description: 'A run reached failed' },
];

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
