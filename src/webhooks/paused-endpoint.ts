import type { IDataObject } from 'n8n-workflow';

import { listAll } from '../transport/paginate';
import type { ApiClient } from '../transport/request';
import type { EventType } from './events';
import { createEndpoint, deleteEndpoint } from './registration';

/** Ends the description of every endpoint a paused execution registers: what makes it recognisable. */
const MARKER = '[mediagen paused wait]';
const DEADLINE =
	/resumes by (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z) \[mediagen paused wait\]$/;
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

const short = (value: string) =>
	value.length > NAME_LENGTH ? `${value.slice(0, NAME_LENGTH - 1)}…` : value;

export function pausedEndpointDescription(paused: PausedExecution): string {
	return `n8n execution ${paused.executionId} of workflow "${short(paused.workflowName)}" (${paused.workflowId}), node "${short(paused.nodeName)}", paused until its runs finish; resumes by ${paused.deadline.toISOString()} ${MARKER}`;
}

/** The deadline a paused execution's endpoint names, or undefined for any other endpoint. */
export function pausedEndpointDeadline(endpoint: IDataObject): Date | undefined {
	const match =
		typeof endpoint.description === 'string' ? DEADLINE.exec(endpoint.description) : null;
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
export async function registerPausedEndpoint(
	client: ApiClient,
	paused: PausedExecution,
	events: EventType[],
): Promise<PausedEndpoint> {
	return await createEndpoint(client, {
		url: paused.resumeUrl,
		events,
		description: pausedEndpointDescription(paused),
	});
}

export async function removePausedEndpoint(client: ApiClient, endpointId: string): Promise<void> {
	await deleteEndpoint(client, endpointId);
}

/** Leftover endpoints asked about per pause: each probe makes n8n load an execution. */
const PROBES_PER_CLEANUP = 10;
const PROBE_TIMEOUT_MS = 5000;
/**
 * The probe goes to a sub-path of the resume URL that no waiting webhook serves. n8n keeps one resume
 * token per execution, so a leftover endpoint's URL still reaches the same execution when it later
 * waits at another node (a Wait node resumed by a POST, a form): the resume URL itself would resume it.
 */
const PROBE_PATH = 'mediagen-leftover-probe';

/**
 * When each leftover URL was last asked about and kept (this process): the next cleanup asks the
 * others first, so executions paused for long do not hide cancelled ones behind them. Holds only
 * URLs of endpoints that still exist.
 */
const keptAt = new Map<string, number>();

/**
 * What n8n answers on the resume URL of an execution that is not waiting and never will again
 * (n8n 2.41.1, `WaitingWebhooks.executeWebhook` in packages/cli/src/webhooks/waiting-webhooks.ts):
 * 404 "The execution "<id>" does not exist." (deleted), 409 "… has finished with error." (cancelled:
 * `ExecutionService.stopDuringRun` records a cancellation error) and 409 "… has finished already."
 * On the probe's sub-path a waiting execution answers 404 "The workflow for execution … does not
 * contain a waiting webhook …", a form 307, a running one (maybe about to pause on this endpoint)
 * 409 "… is running already.": all kept.
 */
export function answersNotWaiting(status: number, body: unknown): boolean {
	const message =
		typeof body === 'object' && body !== null ? (body as IDataObject).message : undefined;
	if (typeof message !== 'string' || !message.startsWith('The execution "')) return false;
	return (
		(status === 404 && message.endsWith(' does not exist.')) ||
		(status === 409 && / has finished (with error|already)\.$/.test(message))
	);
}

/** The address the probe asks: the resume URL's execution, a path no node's webhook has, the same token. */
export function leftoverProbeUrl(resumeUrl: string): string {
	const url = new URL(resumeUrl);
	url.pathname = `${url.pathname.replace(/\/$/, '')}/${PROBE_PATH}`;
	return url.toString();
}

/** Asks this n8n, with an unsigned POST beside the endpoint's resume URL, whether its execution is gone for good. */
async function executionIsOver(client: ApiClient, url: string): Promise<boolean> {
	const response = (await client.ctx.helpers.httpRequest({
		method: 'POST',
		url: leftoverProbeUrl(url),
		body: {},
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout: PROBE_TIMEOUT_MS,
	})) as { statusCode: number; body: unknown };
	return answersNotWaiting(response.statusCode, response.body);
}

/**
 * Deletes the endpoints left by paused executions of this n8n (its resume URLs only) that no
 * execution will resume on: those whose deadline passed more than EXPIRED_AFTER_MS ago, and those
 * whose execution this n8n says was cancelled, deleted or has finished (see answersNotWaiting; at
 * most PROBES_PER_CLEANUP URLs asked, those not asked before first, then the oldest deadline). An
 * endpoint whose execution may still be waiting — or n8n's answer is anything else, or none — is
 * never touched. Returns the ids it deleted.
 */
export async function removeLeftoverPausedEndpoints(
	client: ApiClient,
	resumeUrl: string,
	now = Date.now(),
): Promise<string[]> {
	const base = waitingBaseOf(resumeUrl);
	const endpoints = await listAll(client, { path: '/webhooks' }, { returnAll: true, limit: 0 });
	const leftovers = endpoints
		.map((endpoint) => ({
			id: endpoint.id,
			url: endpoint.url,
			deadline: pausedEndpointDeadline(endpoint),
		}))
		.filter(
			(e): e is { id: string; url: string; deadline: Date } =>
				typeof e.id === 'string' &&
				typeof e.url === 'string' &&
				e.url.startsWith(base) &&
				e.deadline !== undefined,
		)
		.sort(
			(a, b) =>
				(keptAt.get(a.url) ?? 0) - (keptAt.get(b.url) ?? 0) ||
				a.deadline.getTime() - b.deadline.getTime(),
		);
	for (const url of keptAt.keys()) if (!leftovers.some((e) => e.url === url)) keptAt.delete(url);
	const expired = leftovers.filter((e) => e.deadline.getTime() + EXPIRED_AFTER_MS < now);
	// several endpoints can name one execution: ask about each URL once
	const urls = [
		...new Set(
			leftovers.filter((e) => !expired.includes(e) && e.url !== resumeUrl).map((e) => e.url),
		),
	].slice(0, PROBES_PER_CLEANUP);
	const answers = await Promise.all(
		urls.map(async (url) => [url, await executionIsOver(client, url).catch(() => false)] as const),
	);
	const overUrls = new Set(answers.filter(([, over]) => over).map(([url]) => url));
	for (const [url, over] of answers) if (!over) keptAt.set(url, now);
	const gone = leftovers.filter((e) => expired.includes(e) || overUrls.has(e.url));
	for (const endpoint of gone) await deleteEndpoint(client, endpoint.id);
	return gone.map((endpoint) => endpoint.id);
}
