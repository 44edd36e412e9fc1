import { createHash } from 'node:crypto';

import type { INode } from 'n8n-workflow';

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

/**
 * The edition of what a node asks the service for: a hash of its parameters as saved (expressions
 * unresolved, so `$now` or a re-upload never changes it) and of the credentials it uses, without
 * the settings that do not change the request. n8n's "Retry" of a failed execution runs the node
 * with the parameters of the saved workflow when asked to: a different edition then means the user
 * edited the node, and its items are new jobs rather than replays of the runs the first try made.
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
	const credentials = Object.fromEntries(
		Object.entries(node.credentials ?? {}).map(([type, details]) => [
			type,
			details?.id ?? details?.name ?? null,
		]),
	);
	// the editor may save the same parameters in another order
	return createHash('sha256')
		.update(canonicalJson({ parameters, credentials }))
		.digest('hex')
		.slice(0, 32);
}
