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

	it('keeps the loop run and the item apart (run 1 item 23 is not run 12 item 3: that item would get the other one\'s run)', () => {
		expect(deriveIdempotencyKey({ ...scope, runIndex: 1, itemIndex: 23 })).not.toBe(deriveIdempotencyKey({ ...scope, runIndex: 12, itemIndex: 3 }));
		expect(deriveIdempotencyKey({ ...scope, nodeName: 'Image 1', runIndex: 23 })).not.toBe(deriveIdempotencyKey({ ...scope, nodeName: 'Image 12', runIndex: 3 }));
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

/**
 * Known answers: a retry of one item can run on another queue-mode worker, and a re-run with the
 * same Idempotency Key option can come after a package update. Both must send the very key of the
 * first try, so the derivation is part of the contract: changing it pays again.
 */
describe('keys are the same in every version of the package', () => {
	it.each([
		['a derived key', () => deriveIdempotencyKey(scope), 'n8n-88a9d1624b16632a792252122f0bc2540fdd3161bfa23b0e'],
		['a key from the option', () => keyFromUserValue('poster-42', 'POST /images/generations', 0), 'n8n-8f7e17a9d4d27b95099e11549f3cb694808057aa9c9146d8'],
		['a successor key', () => successorKey(deriveIdempotencyKey(scope), 1), 'n8n-14d82b4c5c0561e22b934079ee0a4b54982c3fadb5b07ab0'],
	])('%s', (_name, key, expected) => {
		expect(key()).toBe(expected);
	});
});
