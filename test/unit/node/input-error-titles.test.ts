// Refusals of user input speak the panel's words (issue 14): the field's label leads the title, the
// API name only follows in the description for people who read the API document. Each refusal below
// happens before anything is sent, so it must also name what is allowed and say nothing was spent.
import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { findOperation } from '../../../src/catalog';
import type { PreparedCall, WaitList } from '../../../src/runs/call';
import { createBatchFromItems } from '../../../src/runs/batches';
import { checkMentionsReady, mentionsOf } from '../../../src/runs/mentions';
import type { SubmitMemory } from '../../../src/runs/submit-memory';
import type { ApiClient } from '../../../src/transport/request';

const ctx = {
	getNode: () => ({
		name: 'MediaGen',
		type: 'mediaGen',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	}),
} as unknown as IExecuteFunctions;

function callOf(
	node: 'MediaGenBatch' | 'MediaGenImage',
	resource: string,
	operation: string,
	body: IDataObject,
	itemIndex = 0,
): PreparedCall {
	const endpoint = findOperation(node, resource, operation)!;
	return {
		itemIndex,
		endpoint,
		path: endpoint.path,
		qs: {},
		body,
		settings: {},
		uploads: [],
		route: `${endpoint.method} ${endpoint.path}`,
	};
}

/** Nothing may be sent: a client, memory or wait holder that is touched fails the test. */
const untouchable = new Proxy(
	{},
	{
		get: () => {
			throw new Error('the refusal reached the network');
		},
	},
);

/** What the action threw (undefined when it threw nothing). */
async function refusal(action: () => unknown): Promise<unknown> {
	try {
		await action();
	} catch (error) {
		return error;
	}
	return undefined;
}

const batch = (items: IDataObject[]) => () =>
	createBatchFromItems(
		ctx,
		untouchable as ApiClient,
		items.map((body, i) => callOf('MediaGenBatch', 'batch', 'create', body, i)),
		untouchable as SubmitMemory,
		untouchable as WaitList,
	);
const image = (mentions: unknown) =>
	callOf('MediaGenImage', 'image', 'generate', {
		prompt: 'ava',
		mentions: mentions as IDataObject[],
	});

describe('refusals of user input: the label, the allowed values, nothing spent', () => {
	it.each([
		[
			'a workflow target that is no workflow',
			'Target',
			batch([{ mode: 'workflow', target: 'nope', item: {} }]),
		],
		[
			'an operation target that generates nothing',
			'Target',
			batch([{ mode: 'operation', target: 'GET /runs', item: {} }]),
		],
		[
			'an item body that is no object',
			'Item Body',
			batch([{ mode: 'operation', target: 'POST /images/generations', item: 'x' }]),
		],
		[
			'an item body the workflow does not take',
			'Item Body',
			batch([{ mode: 'workflow', target: 'hook_pack', item: { prompt: 'a', tone: 'loud' } }]),
		],
		[
			'items of one batch with different modes',
			'Mode',
			batch([
				{ mode: 'workflow', target: 'hook_pack', item: { prompt: 'a' } },
				{ mode: 'operation', target: 'hook_pack', item: { prompt: 'a' } },
			]),
		],
		['mentions that are no list', 'Mentions', () => mentionsOf(ctx, image('ava'))],
		[
			'a mention without a handle',
			'Mentions',
			() => mentionsOf(ctx, image([{ influencer_id: 'inf_ava' }])),
		],
		[
			'a mention of a draft influencer',
			'Mentions',
			() =>
				checkMentionsReady(
					ctx,
					image([]),
					[{ handle: 'leo', influencer_id: 'inf_leo' }],
					[
						{ id: 'inf_leo', status: 'draft' },
						{ id: 'inf_ava', handle: 'ava', status: 'ready' },
					],
				),
		],
	])('%s', async (_case, label, action) => {
		const error = (await refusal(action)) as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message.startsWith(`${label}: `)).toBe(true);
		// "Target (target): …" is the form issue 14 objects to: an API name in parentheses after the label
		expect(error.message).not.toMatch(/^[^:]*\([a-z_]+\):/);
		expect(error.message).toMatch(/; allowed: \S/);
		expect(error.description).toContain(
			'Nothing was sent to the service, so no credits were spent.',
		);
	});
});
