import type { IDataObject } from 'n8n-workflow';

import { listAll } from '../transport/paginate';
import { apiRequest, unexpectedResponse, type ApiClient } from '../transport/request';
import type { EventType } from './events';
import { deleteEndpoint } from './registration';

/** Ends the description of every endpoint a paused execution registers: what makes it recognisable. */
const MARKER = '[mediagen paused wait]';
const DEADLINE = /resumes by (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z) \[mediagen paused wait\]$/;
/**
 * How long after its deadline a paused execution's endpoint is left alone: n8n resumes executions
 * whose deadline passed within a minute, and a delivery in that time still resumes with the outputs.
 */
export const EXPIRED_AFTER_MS = 15 * 60_000;
const NAME_LENGTH = 80;

/** Who registers the endpoint: shown in its description, so that a person (and the cleanup) can tell what it is for. */
export interface PausedExecution {
	executionId: string;
	workflowId: string;
	workflowName: string;
	nodeName: string;
	/** the execution's resume URL (n8n's waiting-webhook URL with its token) */
	resumeUrl: string;
	/** when n8n resumes the execution without an event */
	deadline: Date;
}

export interface PausedEndpoint {
	id: string;
	signingSecret: string;
}

const short = (value: string) => (value.length > NAME_LENGTH ? `${value.slice(0, NAME_LENGTH - 1)}…` : value);

export function pausedEndpointDescription(paused: PausedExecution): string {
	return `n8n execution ${paused.executionId} of workflow "${short(paused.workflowName)}" (${paused.workflowId}), node "${short(paused.nodeName)}", paused until its runs finish; resumes by ${paused.deadline.toISOString()} ${MARKER}`;
}

/** The deadline a paused execution's endpoint names, or undefined for any other endpoint. */
export function pausedEndpointDeadline(endpoint: IDataObject): Date | undefined {
	const match = typeof endpoint.description === 'string' ? DEADLINE.exec(endpoint.description) : null;
	const at = match ? Date.parse(match[1]) : NaN;
	return Number.isFinite(at) ? new Date(at) : undefined;
}

/** Everything before the execution id in a resume URL: the same for every paused execution of one n8n. */
function waitingBaseOf(resumeUrl: string): string {
	const url = new URL(resumeUrl);
	return `${url.origin}${url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1)}`;
}

/**
 * Registers the endpoint that resumes a paused execution: the service sends `events` to its resume
 * URL. The signing secret comes back only here.
 */
export async function registerPausedEndpoint(client: ApiClient, paused: PausedExecution, events: EventType[]): Promise<PausedEndpoint> {
	const { body } = await apiRequest<IDataObject>(client, {
		method: 'POST',
		path: '/webhooks',
		body: { url: paused.resumeUrl, events, description: pausedEndpointDescription(paused) },
	});
	if (typeof body?.id !== 'string' || typeof body.signing_secret !== 'string' || !body.signing_secret) {
		throw unexpectedResponse(client, 'POST /webhooks did not return an endpoint with its signing_secret', body);
	}
	return { id: body.id, signingSecret: body.signing_secret };
}

export async function removePausedEndpoint(client: ApiClient, endpointId: string): Promise<void> {
	await deleteEndpoint(client, endpointId);
}

/**
 * Deletes the endpoints of paused executions of this n8n whose deadline passed (by more than
 * EXPIRED_AFTER_MS): executions that resumed at their deadline (no node code runs then) or were
 * cancelled while paused. An endpoint whose execution may still be waiting is never touched.
 * Returns the ids it deleted.
 */
export async function removeExpiredPausedEndpoints(client: ApiClient, resumeUrl: string, now = Date.now()): Promise<string[]> {
	const base = waitingBaseOf(resumeUrl);
	const endpoints = await listAll(client, { path: '/webhooks' }, { returnAll: true, limit: 0 });
	const expired = endpoints.filter((endpoint) => {
		const deadline = pausedEndpointDeadline(endpoint);
		return typeof endpoint.id === 'string' && typeof endpoint.url === 'string' && endpoint.url.startsWith(base) && deadline !== undefined && deadline.getTime() + EXPIRED_AFTER_MS < now;
	});
	for (const endpoint of expired) await deleteEndpoint(client, endpoint.id as string);
	return expired.map((endpoint) => endpoint.id as string);
}
