import { createHash } from 'node:crypto';

import type { IDataObject, INode } from 'n8n-workflow';

import { canonicalJson } from '../transport/canonical-json';

/**
 * Parameters that steer how the node waits, bounds, batches or shapes its outputs: editing them
 * changes nothing the service makes, so it must not turn the items into new jobs (and pay again).
 * The node's description knows which they are (each option says whether it changes the request).
 */
export interface EditsThatKeepTheJob {
	topLevel: ReadonlySet<string>;
	/** the collection that holds the options below */
	inCollection: string;
	inOptions: ReadonlySet<string>;
}

/** The credentials a node sends with, by id (a renamed credential is the same one). */
function credentialsOf(node: Pick<INode, 'credentials'>): Record<string, string | null> {
	return Object.fromEntries(
		Object.entries(node.credentials ?? {}).map(([type, details]) => [
			type,
			details?.id ?? details?.name ?? null,
		]),
	);
}

/**
 * The edition of what a node asks the service for: a hash of its parameters as saved (expressions
 * unresolved, so `$now` or a re-upload never changes it) and of the credentials it uses, without
 * the settings that do not change the request. n8n's "Retry" of a failed execution runs the node
 * with the parameters of the saved workflow when asked to: a different edition then means the user
 * may have edited what an item sends, and only then are the items' requests compared (a request
 * that resolves differently on each try, `{{ $now }}`, must still replay when nothing was edited).
 * It names no job: that is the request's identity (requestIdentityOf).
 */
export function editionOf(
	node: Pick<INode, 'parameters' | 'credentials'>,
	keep: EditsThatKeepTheJob,
): string {
	const parameters: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(node.parameters ?? {})) {
		if (keep.topLevel.has(name)) continue;
		if (name === keep.inCollection && value && typeof value === 'object' && !Array.isArray(value)) {
			parameters[name] = Object.fromEntries(
				Object.entries(value).filter(([option]) => !keep.inOptions.has(option)),
			);
		} else parameters[name] = value;
	}
	const credentials = credentialsOf(node);
	// the editor may save the same parameters in another order
	return createHash('sha256')
		.update(canonicalJson({ parameters, credentials }))
		.digest('hex')
		.slice(0, 32);
}

/** What a request is, as far as its identity goes: what the node sends, before its uploads. */
export interface RequestToIdentify {
	route: string;
	path: string;
	qs: IDataObject;
	body: IDataObject;
	uploads: Array<{ placeholder: string; input: { contentHash: string } }>;
}

/**
 * The identity of one item's request: a hash of what the node sends — route, path, query and body
 * as resolved for the item — and of the credentials it sends them with. It is blind to how the
 * parameters are spelled (a model picked From List or By ID, a list's cached label, an option left
 * empty, a rewritten expression that resolves the same), so such edits keep the job; anything sent
 * that changes makes a new one. Left out: `quote_token` (a quote prices a job, it does not name
 * one: Max Credits binds a fresh one on each execution) and the asset URLs of uploads (new on every
 * upload), for which the uploaded bytes stand in.
 */
export function requestIdentityOf(
	request: RequestToIdentify,
	node: Pick<INode, 'credentials'>,
): string {
	const uploaded = new Map(
		request.uploads.map((upload) => [upload.placeholder, `sha256:${upload.input.contentHash}`]),
	);
	const body = { ...request.body };
	delete body.quote_token;
	const sent = JSON.parse(
		JSON.stringify(
			{ route: request.route, path: request.path, qs: request.qs, body },
			(_, value) =>
				typeof value === 'string' && uploaded.has(value) ? uploaded.get(value) : value,
		),
	) as unknown;
	return createHash('sha256')
		.update(canonicalJson({ sent, credentials: credentialsOf(node) }))
		.digest('hex')
		.slice(0, 32);
}
