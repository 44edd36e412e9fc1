import { NodeOperationError, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { Endpoint } from '../catalog';
import { NOTHING_SPENT } from '../options/nothing-spent';
import { BooleanOption, NumberOption, TextOption, type RefusalContext } from '../options/option';

// The options of how a generating operation is sent (the node's Options collection): how many at
// once, how long a reply may take, one batch instead of one submit per item, the quote, the job's
// name, and where it is billed and filed.

export const maxParallelSubmits = new NumberOption({
	name: 'concurrency',
	displayName: 'Max Parallel Submits',
	description:
		'How many items are submitted at once; the runs are waited for in one loop as they are sent',
	default: 20,
	min: 1,
	max: 50,
	changesRequest: false,
});

/** The most a reply may take, in seconds: a slower one is lost, and a submit is resent with the same key. */
export const requestTimeout = new NumberOption({
	name: 'requestTimeout',
	displayName: 'Request Timeout (Seconds)',
	description:
		'A reply slower than this is treated as lost; submits are then resent with the same Idempotency-Key',
	default: 30,
	min: 1,
	max: 600,
	changesRequest: false,
});

export const useBatchApi = new BooleanOption({
	name: 'useBatchApi',
	displayName: 'Use Batch API',
	description:
		'Whether to send all items as one batch and wait for the batch, instead of one submit per item (API: POST /batches)',
	default: false,
	changesRequest: false,
});

export const quoteToken = new TextOption({
	name: 'quoteToken',
	displayName: 'Quote Token',
	description: 'From an Estimate Cost: binds the run to the quoted price',
	default: '',
	password: true,
	// binds a price, not what is made; usually an expression, whose text does not change anyway
	changesRequest: false,
});

export const idempotencyKey = new TextOption({
	name: 'idempotencyKey',
	displayName: 'Idempotency Key',
	description:
		'Names the job, e.g. {{ $json.sku }}: a re-run with the same values (in any order) gets the first runs back instead of paying again. One job per value per node of a workflow. Without it the node derives a key per execution and item, so its own retries never pay twice.',
	default: '',
	changesRequest: true,
});

export const teamId = new TextOption({
	name: 'teamId',
	displayName: 'Team ID',
	description:
		'Bill the workspace (team) pool instead of the personal balance; the key also needs teams:read',
	default: '',
	changesRequest: true,
});

export const projectId = new TextOption({
	name: 'projectId',
	displayName: 'Project ID',
	description: 'File the output in this project; the key also needs projects:read',
	default: '',
	changesRequest: true,
});

/** Every option this module defines, for the node's description and the checks over all options. */
export const SUBMIT_OPTIONS = [
	maxParallelSubmits,
	requestTimeout,
	useBatchApi,
	quoteToken,
	idempotencyKey,
	teamId,
	projectId,
];

/** The options of this module an operation offers (unordered: the Options collection sorts them). */
export function submitOptionProperties(e: Endpoint): INodeProperties[] {
	const properties = [maxParallelSubmits.property(), requestTimeout.property()];
	if (e.method !== 'GET') {
		if (e.output === 'run' && e.capability) properties.push(useBatchApi.property());
		if (e.output === 'run') properties.push(quoteToken.property());
		properties.push(idempotencyKey.property());
	}
	if (e.teamBilling) properties.push(teamId.property());
	if (e.projectFiling) properties.push(projectId.property());
	return properties;
}

/**
 * The job an item names through Idempotency Key: a number from an expression counts as its text;
 * a blank value means none (the node derives a key); anything else is refused.
 */
export function jobNameOf(
	ctx: RefusalContext,
	itemIndex: number,
	options: IDataObject,
): string | undefined {
	const raw = options[idempotencyKey.name];
	if (raw === undefined || raw === null) return undefined;
	if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
	if (typeof raw !== 'string') {
		throw new NodeOperationError(
			ctx.getNode(),
			`${idempotencyKey.displayName}: ${JSON.stringify(raw) ?? String(raw)} is not allowed; allowed: text that names the job, e.g. {{ $json.sku }}`,
			{
				itemIndex,
				description: NOTHING_SPENT,
			},
		);
	}
	return raw.trim() || undefined;
}
