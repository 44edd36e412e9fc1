import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import { hintFor } from './hints';
import { isTransientFailure } from './retry-policy';

/** An RFC 9457 problem document as the service sends it. */
export interface Problem {
	type?: string;
	title?: string;
	status?: number;
	detail?: string;
	code?: string;
	request_id?: string;
	[extra: string]: unknown;
}

export function isProblem(body: unknown): body is Problem {
	return typeof body === 'object' && body !== null && typeof (body as Problem).code === 'string';
}

/** Fields of a problem that are safe and useful to show the user (never credentials). */
const SHOWN_EXTRAS = ['param', 'required_scope', 'quote'];

/**
 * The one way a service failure becomes an n8n error: the message starts with the stable `code`
 * (users branch on it), and the problem travels in `context.problem` so that Continue On Fail can
 * put `code`, `status` and `request_id` into the error item.
 */
export function problemError(
	node: INode,
	problem: Problem,
	status: number | undefined,
	itemIndex?: number,
): NodeApiError {
	const code = problem.code ?? `http_${status ?? 'error'}`;
	const title = problem.title ?? 'The service refused the request';
	const detail = problem.detail ? `: ${problem.detail}` : '';
	const fresh = problem.quote as { credits?: unknown } | undefined;
	const extras = [
		...SHOWN_EXTRAS.filter((k) => problem[k] !== undefined && typeof problem[k] !== 'object').map(
			(k) => `${k}: ${String(problem[k])}`,
		),
		typeof fresh?.credits === 'number'
			? `fresh quote: ${fresh.credits} credits (in the error item's quote field)`
			: '',
	]
		.filter(Boolean)
		.join(' · ');
	const message = `${code} — ${title}${detail}`;
	const error = new NodeApiError(node, { ...problem } as JsonObject, {
		message,
		description: [
			hintFor(code),
			extras,
			problem.request_id ? `request_id: ${problem.request_id}` : '',
		]
			.filter(Boolean)
			.join(' · '),
		httpCode: status === undefined ? undefined : String(status),
		itemIndex,
	});
	// NodeApiError swaps messages that mention ECONNRESET, ENOENT, … for generic text; the code must lead.
	error.message = message;
	error.context.problem = { ...problem, code, status: status ?? problem.status } as JsonObject;
	return error;
}

/** The problem carried by an error made by `problemError`, if any. */
export function problemOf(error: unknown): Problem | undefined {
	const ctx = (error as { context?: { problem?: Problem } } | null)?.context;
	return ctx?.problem;
}

/**
 * Whether a failed read says the service is briefly unreachable or overloaded (no answer, 429, 5xx)
 * rather than that the request is wrong: a wait may go on after it.
 */
export function isOutage(error: unknown): boolean {
	const problem = problemOf(error);
	if (!problem) return false;
	if (problem.code === 'network_error') return true;
	return problem.status !== undefined && isTransientFailure(Number(problem.status));
}
