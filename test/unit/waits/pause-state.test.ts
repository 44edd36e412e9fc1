import type { INodeType } from 'n8n-workflow';

import { catalog, extraOperations } from '../../../src/catalog';
import {
	decodeState,
	encodeState,
	STATE_MAX_LENGTH,
	stateKey,
} from '../../../src/waits/pause-state';
import {
	answersNotWaiting,
	pausedEndpointDeadline,
	pausedEndpointDescription,
} from '../../../src/webhooks/paused-endpoint';
import { openSecret, sealSecret } from '../../../src/webhooks/sealed-secret';
import { actionNodes } from '../../helpers/action-nodes';

const key = { credentialSecret: 'mg_live_key_123', context: 'exec-7\u0000MediaGen Video' };
const secret = `whsec_${'ab'.repeat(24)}`;

describe('the sealed signing secret of a paused execution', () => {
	it('opens with the same credential, execution and node only, and not after a change', () => {
		const sealed = sealSecret(secret, key);
		expect(sealed).not.toContain(secret);
		expect(openSecret(sealed, key)).toBe(secret);
		expect(openSecret(sealed, { ...key, credentialSecret: 'mg_live_key_124' })).toBeUndefined();
		expect(openSecret(sealed, { ...key, context: 'exec-8\u0000MediaGen Video' })).toBeUndefined();
		const bytes = Buffer.from(sealed, 'base64url');
		bytes[bytes.length - 1] ^= 1;
		expect(openSecret(bytes.toString('base64url'), key)).toBeUndefined();
		expect(openSecret('', key)).toBeUndefined();
		// a fresh IV each time: the same secret never seals to the same text
		expect(sealSecret(secret, key)).not.toBe(sealed);
	});
});

describe('the state a paused node keeps in the execution custom data', () => {
	it('is a key n8n accepts (letters, digits, underscores; at most 50) and different per node', () => {
		expect(stateKey('MediaGen Video')).toMatch(/^[a-z0-9_]{1,50}$/);
		expect(stateKey('MediaGen Video')).not.toBe(stateKey('MediaGen Video1'));
	});

	it('lists each output shape once and maps held items to them only when they differ', () => {
		const one = encodeState('whe_1', 'sealed', 1000, [{}, {}, {}]);
		expect(decodeState(one)).toEqual({
			endpointId: 'whe_1',
			sealedSecret: 'sealed',
			deadline: 1000,
			shapes: [{}],
		});
		const two = decodeState(
			encodeState('whe_1', 'sealed', 1000, [{ b: 'image' }, {}, { b: 'image' }]),
		);
		expect(two).toEqual({
			endpointId: 'whe_1',
			sealedSecret: 'sealed',
			deadline: 1000,
			shapes: [{ b: 'image' }, {}],
			shapeOf: [0, 1, 0],
		});
		// 100 items with the same settings fit n8n's limit of a custom data value
		expect(
			encodeState(
				'x'.repeat(64),
				'x'.repeat(160),
				Date.now(),
				Array(100).fill({ u: true, b: 'video' }),
			).length,
		).toBeLessThan(STATE_MAX_LENGTH);
		expect(decodeState('v0:{}')).toBeUndefined();
		expect(decodeState('v1:not json')).toBeUndefined();
		expect(decodeState(undefined)).toBeUndefined();
	});
});

describe('the description of a paused execution endpoint', () => {
	it('names the execution, workflow and node and carries the deadline the cleanup reads back', () => {
		const deadline = new Date('2031-05-01T12:00:00.000Z');
		const description = pausedEndpointDescription({
			executionId: '42',
			workflowId: 'wf1',
			workflowName: 'Reels',
			nodeName: 'Make reel',
			resumeUrl: 'http://n8n/webhook-waiting/42',
			deadline,
		});
		expect(description).toBe(
			'n8n execution 42 of workflow "Reels" (wf1), node "Make reel", paused until its runs finish; resumes by 2031-05-01T12:00:00.000Z [mediagen paused wait]',
		);
		expect(pausedEndpointDeadline({ description })).toEqual(deadline);
		expect(
			pausedEndpointDeadline({ description: 'n8n workflow "Reels" (wf1), node "Trigger"' }),
		).toBeUndefined();
		expect(pausedEndpointDeadline({ description: null })).toBeUndefined();
	});
});

describe('Wait Mode in the node descriptions', () => {
	it('every node with a waiting operation declares the resume webhook (answering on $execution.resumeUrl only)', () => {
		const waitingNodes = new Set(
			[...catalog, ...extraOperations]
				.filter((e) => e.output === 'run' || e.output === 'batch')
				.map((e) => e.node),
		);
		for (const [name, node] of Object.entries(actionNodes())) {
			const webhooks = node.description.webhooks ?? [];
			if (waitingNodes.has(name as never))
				expect(webhooks).toEqual([
					{
						name: 'default',
						httpMethod: 'POST',
						responseMode: 'onReceived',
						path: '',
						restartWebhook: true,
					},
				]);
			if (waitingNodes.has(name as never)) expect(typeof node.webhook).toBe('function');
		}
	});

	it('offers Wait Mode where the node waits, defaulting to the catalog entry (paused for long jobs)', () => {
		const { MediaGenVideo, MediaGenImage, MediaGenProducer } = actionNodes();
		const waitMode = (node: INodeType, operation: string) =>
			node.description.properties.find(
				(p) =>
					p.name === 'waitMode' &&
					(p.displayOptions?.show?.operation as string[] | undefined)?.includes(operation),
			);
		expect(waitMode(MediaGenVideo, 'generate')?.default).toBe('parked');
		expect(waitMode(MediaGenVideo, 'analyze')?.default).toBe('inExecution');
		expect(waitMode(MediaGenImage, 'generate')?.default).toBe('inExecution');
		expect(waitMode(MediaGenProducer, 'generate')?.default).toBe('parked');
		expect(waitMode(MediaGenVideo, 'generate')?.displayOptions?.show?.waitForCompletion).toEqual([
			true,
		]);
	});
});

describe("n8n's answer on a leftover endpoint's resume URL", () => {
	// word for word what n8n 2.41.1's WaitingWebhooks answers (packages/cli/src/webhooks/waiting-webhooks.ts)
	it.each([
		['deleted', 404, { code: 404, message: 'The execution "17" does not exist.' }, true],
		['cancelled', 409, { code: 409, message: 'The execution "17" has finished with error.' }, true],
		['finished', 409, { code: 409, message: 'The execution "17 has finished already.' }, true],
		[
			'running (it may be about to pause on this endpoint)',
			409,
			{ code: 409, message: 'The execution "17" is running already.' },
			false,
		],
		[
			'waiting: the node answers an unsigned call',
			401,
			{ error: 'unauthorized', reason: 'missing_signature' },
			false,
		],
		['another resume token', 401, { error: 'Invalid token' }, false],
		[
			'waiting on another node',
			404,
			{
				code: 404,
				message:
					'The workflow for execution "17" does not contain a waiting webhook with a matching path/method.',
			},
			false,
		],
		['a proxy in front of n8n', 404, { message: 'Not Found' }, false],
		['n8n overloaded', 503, 'Service Unavailable', false],
	])('%s (HTTP %i)', (_, status, body, removable) => {
		expect(answersNotWaiting(status, body)).toBe(removable);
	});
});
