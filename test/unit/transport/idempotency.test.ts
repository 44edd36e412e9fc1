import {
	deriveIdempotencyKey,
	keyFromUserValue,
	successorKey,
	type IdempotencyScope,
	type JobScope,
} from '../../../src/transport/idempotency';

const scope: IdempotencyScope = {
	workflowId: 'wf_1',
	executionId: 'exec_1',
	nodeName: 'Generate Image',
	runIndex: 0,
	itemIndex: 0,
	route: 'POST /images/generations',
};

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
		expect(deriveIdempotencyKey({ ...scope, nodeName: 'Node 1', itemIndex: 1 })).not.toBe(
			deriveIdempotencyKey({ ...scope, nodeName: 'Node ', itemIndex: 11 }),
		);
	});

	it("keeps the loop run and the item apart (run 1 item 23 is not run 12 item 3: that item would get the other one's run)", () => {
		expect(deriveIdempotencyKey({ ...scope, runIndex: 1, itemIndex: 23 })).not.toBe(
			deriveIdempotencyKey({ ...scope, runIndex: 12, itemIndex: 3 }),
		);
		expect(deriveIdempotencyKey({ ...scope, nodeName: 'Image 1', runIndex: 23 })).not.toBe(
			deriveIdempotencyKey({ ...scope, nodeName: 'Image 12', runIndex: 3 }),
		);
	});
});

describe('keyFromUserValue', () => {
	const job: JobScope = {
		workflowId: 'wf_1',
		nodeId: 'node-uuid-1',
		route: 'POST /images/generations',
		request: 'r1',
	};

	it('is the same in any execution for the same value and node: no item position in it (a re-run in another order replays)', () => {
		expect(keyFromUserValue('sku-42', job)).toBe(keyFromUserValue('sku-42', { ...job }));
	});

	it.each<[string, Partial<JobScope>]>([
		['another workflow (a copy of the workflow)', { workflowId: 'wf_2' }],
		['another node (a copy of the node)', { nodeId: 'node-uuid-2' }],
		['another operation', { route: 'POST /videos/generations' }],
		['a change of what the item sends', { request: 'r2' }],
	])('differs for %s', (_name, change) => {
		expect(keyFromUserValue('sku-42', { ...job, ...change })).not.toBe(
			keyFromUserValue('sku-42', job),
		);
	});

	it('differs per value, and does not confuse values that would run together with the scope', () => {
		expect(keyFromUserValue('sku-1', job)).not.toBe(keyFromUserValue('sku-2', job));
		expect(keyFromUserValue('1', { ...job, request: 'r' })).not.toBe(
			keyFromUserValue('', { ...job, request: 'r\n1' }),
		);
	});

	it('names one job for one text however Unicode spells it: "café" composed (NFC) and decomposed (NFD) give one key (issue 32, 9)', () => {
		const composed = 'caf\u00e9';
		const decomposed = 'cafe\u0301';
		expect(composed).not.toBe(decomposed);
		expect(keyFromUserValue(decomposed, job)).toBe(keyFromUserValue(composed, job));
	});

	it('differs from a derived key of the same item', () => {
		expect(keyFromUserValue('exec_1', job)).not.toBe(deriveIdempotencyKey(scope));
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
		[
			'a derived key',
			() => deriveIdempotencyKey(scope),
			'n8n-88a9d1624b16632a792252122f0bc2540fdd3161bfa23b0e',
		],
		[
			'a key from the option',
			() =>
				keyFromUserValue('poster-42', {
					workflowId: 'wf_1',
					nodeId: 'node-uuid-1',
					route: 'POST /images/generations',
					// the derivation is unchanged; what fills this part is now the request's identity
					// (it was the node's edition, so own keys changed once with that: CHANGELOG.md)
					request: 'e1',
				}),
			'n8n-786c8b6b1c2f9b19859320dcb8259413b9d96e88076db34f',
		],
		[
			'a successor key',
			() => successorKey(deriveIdempotencyKey(scope), 1),
			'n8n-14d82b4c5c0561e22b934079ee0a4b54982c3fadb5b07ab0',
		],
	])('%s', (_name, key, expected) => {
		expect(key()).toBe(expected);
	});
});
