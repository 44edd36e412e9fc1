import { canonicalJson, deriveIdempotencyKey, type IdempotencyScope } from '../../src/transport/idempotency';

const scope: IdempotencyScope = { workflowId: 'wf_1', executionId: 'exec_1', nodeName: 'Generate Image', itemIndex: 0, route: 'POST /images/generations' };
const body = { prompt: 'a fox', count: 2, aspect_ratio: '1:1', reference_image_urls: ['https://a', 'https://b'], loras: [{ id: 'l1', scale: 0.5 }] };

describe('deriveIdempotencyKey', () => {
	it('gives the same key for the same scope and body', () => {
		expect(deriveIdempotencyKey(scope, body)).toBe(deriveIdempotencyKey({ ...scope }, JSON.parse(JSON.stringify(body))));
	});

	it('gives the same key whatever the order of object keys, also in nested objects', () => {
		const reordered = { loras: [{ scale: 0.5, id: 'l1' }], reference_image_urls: ['https://a', 'https://b'], aspect_ratio: '1:1', count: 2, prompt: 'a fox' };
		expect(deriveIdempotencyKey(scope, reordered)).toBe(deriveIdempotencyKey(scope, body));
	});

	it('ignores keys whose value is undefined (they are not sent)', () => {
		expect(deriveIdempotencyKey(scope, { ...body, negative_prompt: undefined })).toBe(deriveIdempotencyKey(scope, body));
	});

	it('is a header-safe string with a recognisable prefix', () => {
		expect(deriveIdempotencyKey(scope, body)).toMatch(/^n8n-[0-9a-f]{48}$/);
	});

	it.each<[string, Partial<IdempotencyScope>]>([
		['another execution', { executionId: 'exec_2' }],
		['another item', { itemIndex: 1 }],
		['another node', { nodeName: 'Generate Image1' }],
		['another workflow', { workflowId: 'wf_2' }],
		['another route', { route: 'POST /images/upscale' }],
	])('differs for %s', (_name, change) => {
		expect(deriveIdempotencyKey({ ...scope, ...change }, body)).not.toBe(deriveIdempotencyKey(scope, body));
	});

	it.each<[string, Record<string, unknown>]>([
		['another prompt', { ...body, prompt: 'a wolf' }],
		['another count', { ...body, count: 3 }],
		['a count sent as a string', { ...body, count: '2' }],
		['an added field', { ...body, seed: 1 }],
		['a removed field', { prompt: 'a fox', count: 2, aspect_ratio: '1:1', reference_image_urls: ['https://a', 'https://b'] }],
		['array items in another order', { ...body, reference_image_urls: ['https://b', 'https://a'] }],
		['a nested change', { ...body, loras: [{ id: 'l1', scale: 0.6 }] }],
	])('differs for %s', (_name, other) => {
		expect(deriveIdempotencyKey(scope, other)).not.toBe(deriveIdempotencyKey(scope, body));
	});

	it('does not confuse scopes whose fields would run together (node "Node 1" item 1 vs node "Node " item 11)', () => {
		const a = deriveIdempotencyKey({ ...scope, nodeName: 'Node 1', itemIndex: 1 }, body);
		const b = deriveIdempotencyKey({ ...scope, nodeName: 'Node ', itemIndex: 11 }, body);
		expect(a).not.toBe(b);
	});
});

describe('canonicalJson', () => {
	it('sorts object keys at every depth and keeps array order', () => {
		expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
	});
});
