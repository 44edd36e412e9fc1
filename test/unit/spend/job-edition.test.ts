import type { IDataObject, INode } from 'n8n-workflow';

import { SubmitMemory } from '../../../src/runs/submit-memory';
import { requestIdentityOf, type RequestToIdentify } from '../../../src/spend/job-edition';

const node: Pick<INode, 'credentials'> = {
	credentials: { mediaGenApi: { id: 'cred-1', name: 'MediaGen' } },
};

const request = (extra: Partial<RequestToIdentify> = {}): RequestToIdentify => ({
	route: 'POST /images/generations',
	path: '/images/generations',
	qs: {},
	body: { prompt: 'a fox', model: 'image.lumen-xl' },
	uploads: [],
	...extra,
});

describe('requestIdentityOf: a job is named by what is sent', () => {
	const identity = (extra: Partial<RequestToIdentify> = {}, on = node) =>
		requestIdentityOf(request(extra), on);

	it('is the same for the same request, whatever the order of its fields', () => {
		expect(identity({ body: { model: 'image.lumen-xl', prompt: 'a fox' } })).toBe(identity());
	});

	it('leaves out the quote token (a quote prices a job, it does not name one)', () => {
		expect(identity({ body: { ...request().body, quote_token: 'qt_1' } })).toBe(identity());
	});

	it('keeps the credential by id: renamed, the same; another, a new job', () => {
		expect(identity({}, { credentials: { mediaGenApi: { id: 'cred-1', name: 'renamed' } } })).toBe(
			identity(),
		);
		expect(
			identity({}, { credentials: { mediaGenApi: { id: 'cred-2', name: 'MediaGen' } } }),
		).not.toBe(identity());
	});

	it.each<[string, Partial<RequestToIdentify>]>([
		['the route', { route: 'POST /images/edits' }],
		['the path', { path: '/images/generations/x' }],
		['the query', { qs: { dry_run: true } }],
		['a body string', { body: { prompt: 'a red fox', model: 'image.lumen-xl' } }],
		['a body number', { body: { ...request().body, count: 2 } }],
		['a body list', { body: { ...request().body, modes: ['a'] } }],
		['a body object', { body: { ...request().body, viewport: { width: 10 } } }],
	])('changes with %s', (_, change) => {
		expect(identity(change)).not.toBe(identity());
	});

	it('names an upload by its bytes, not by its placeholder or its asset URL', () => {
		const uploading = (hash: string, property: string): Partial<RequestToIdentify> => ({
			body: { ...request().body, image_url: `binary:${property}` },
			uploads: [{ placeholder: `binary:${property}`, input: { contentHash: hash } }],
		});
		expect(identity(uploading('aa', 'photo'))).toBe(identity(uploading('aa', 'picture')));
		expect(identity(uploading('bb', 'photo'))).not.toBe(identity(uploading('aa', 'photo')));
		expect(identity(uploading('aa', 'photo'))).not.toBe(
			identity({ body: { ...request().body, image_url: 'https://cdn.example/a.png' } }),
		);
	});
});

describe('SubmitMemory: an earlier request is replayed unless the node was edited and the item asks another', () => {
	const context: IDataObject = {};
	const ctx = { getContext: () => context } as never;
	const sent = { key: 'k', path: '/images/generations', qs: {}, body: {} };

	beforeEach(() => {
		for (const key of Object.keys(context)) delete context[key];
		new SubmitMemory(ctx, 0, 'edition-1').remember('POST /x', 0, { ...sent, identity: 'id-1' });
	});

	it('not edited, the request resolved differently ({{ $now }}): replayed', () => {
		const memory = new SubmitMemory(ctx, 0, 'edition-1');
		expect(memory.recall('POST /x', 0, 'id-2')?.key).toBe('k');
		expect(memory.editedItems.size).toBe(0);
	});

	it('edited, the same request: replayed', () => {
		const memory = new SubmitMemory(ctx, 0, 'edition-2');
		expect(memory.recall('POST /x', 0, 'id-1')?.key).toBe('k');
		expect(memory.editedItems.size).toBe(0);
	});

	it('edited, another request: a new job, and the item is named', () => {
		const memory = new SubmitMemory(ctx, 0, 'edition-2');
		expect(memory.recall('POST /x', 0, 'id-2')).toBeUndefined();
		expect([...memory.editedItems]).toEqual([0]);
	});

	it('a request remembered without an identity (an earlier build): any edit makes a new job', () => {
		new SubmitMemory(ctx, 0, 'edition-1').remember('POST /x', 0, sent);
		const memory = new SubmitMemory(ctx, 0, 'edition-2');
		expect(memory.recall('POST /x', 0, 'id-1')).toBeUndefined();
	});
});
