import { deriveIdempotencyKey, keyFromUserValue, successorKey, type IdempotencyScope } from '../../src/transport/idempotency';

const scope: IdempotencyScope = { workflowId: 'wf_1', executionId: 'exec_1', nodeName: 'Generate Image', runIndex: 0, itemIndex: 0, route: 'POST /images/generations' };

describe('deriveIdempotencyKey', () => {
	it('gives the same key for the same scope (every try of one item in one node run)', () => {
		expect(deriveIdempotencyKey(scope)).toBe(deriveIdempotencyKey({ ...scope }));
	});

	it('is a header-safe string with a recognisable prefix', () => {
		expect(deriveIdempotencyKey(scope)).toMatch(/^n8n-[0-9a-f]{48}$/);
	});

	it.each<[string, Partial<IdempotencyScope>]>([
		['another execution', { executionId: 'exec_2' }],
		['another item', { itemIndex: 1 }],
		['another node', { nodeName: 'Generate Image1' }],
		['another workflow', { workflowId: 'wf_2' }],
		['another route', { route: 'POST /images/upscale' }],
		['another run of the node in the same execution (a loop)', { runIndex: 1 }],
	])('differs for %s', (_name, change) => {
		expect(deriveIdempotencyKey({ ...scope, ...change })).not.toBe(deriveIdempotencyKey(scope));
	});

	it('does not confuse scopes whose fields would run together (node "Node 1" item 1 vs node "Node " item 11)', () => {
		expect(deriveIdempotencyKey({ ...scope, nodeName: 'Node 1', itemIndex: 1 })).not.toBe(deriveIdempotencyKey({ ...scope, nodeName: 'Node ', itemIndex: 11 }));
	});
});

describe('keyFromUserValue', () => {
	it('is the same in any execution for the same value, route and item (a re-run replays)', () => {
		expect(keyFromUserValue('poster-42', 'POST /images/generations', 0)).toBe(keyFromUserValue('poster-42', 'POST /images/generations', 0));
	});

	it('never lets two items or two operations share a key, though the value is fixed', () => {
		const keys = new Set([
			keyFromUserValue('fixed', 'POST /images/generations', 0),
			keyFromUserValue('fixed', 'POST /images/generations', 1),
			keyFromUserValue('fixed', 'POST /images/generations', 2),
			keyFromUserValue('fixed', 'POST /videos/generations', 0),
		]);
		expect(keys.size).toBe(4);
	});

	it('differs from a derived key of the same item', () => {
		expect(keyFromUserValue('exec_1', scope.route, 0)).not.toBe(deriveIdempotencyKey(scope));
	});
});

describe('successorKey', () => {
	it('names a new request: differs from the key it follows and per attempt', () => {
		const key = deriveIdempotencyKey(scope);
		expect(new Set([key, successorKey(key, 1), successorKey(key, 2)]).size).toBe(3);
		expect(successorKey(key, 1)).toMatch(/^n8n-[0-9a-f]{48}$/);
	});
});
