import type { IDataObject } from 'n8n-workflow';

/** A run as the service returns it (fields of the API document). */
export interface Run extends IDataObject {
	id: string;
	object: string;
	status: 'queued' | 'processing' | 'completed' | 'failed';
	capability?: string;
	model?: string | null;
	output?: IDataObject | null;
	error?: { code?: string; message?: string } | null;
	usage?: IDataObject | null;
	created_at?: string;
	updated_at?: string;
	completed_at?: string | null;
}

/** A batch as the service returns it (the Batch resource of the API document). */
export interface Batch extends IDataObject {
	id: string;
	status: 'queued' | 'processing' | 'completed' | 'failed' | 'partial';
	total_items?: number;
	completed_items?: number;
	failed_items?: number;
}

export interface BatchItem extends IDataObject {
	id: string;
	index: number;
	status: string;
	output?: IDataObject | null;
	error?: IDataObject | null;
}

export function isRun(value: unknown): value is Run {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as Run).id === 'string' &&
		typeof (value as Run).status === 'string'
	);
}

const KNOWN_STATUSES = new Set(['queued', 'processing', 'completed', 'failed']);

/** The run statuses the API document names; anything else is not waited for. */
export function isKnownStatus(run: Run): boolean {
	return KNOWN_STATUSES.has(run.status);
}

export function isTerminal(run: Run): boolean {
	return run.status === 'completed' || run.status === 'failed';
}
