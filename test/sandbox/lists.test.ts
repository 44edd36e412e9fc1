import type { AxiosInstance } from 'axios';

import type { Sandbox } from '../../sandbox/server';
import { expectProblem, idem, openSandbox, submitImage, waitForRun } from './helpers';

describe('sandbox lists: GET /runs', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;
	/** newest first, as the list returns them */
	let ids: string[] = [];
	const failed: string[] = [];
	let editing: string;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 50 }));
		const created: string[] = [];
		for (let i = 0; i < 3; i++)
			created.push((await submitImage(http, { prompt: `completed ${i}` })).data.id);
		for (const id of created) await waitForRun(http, id);
		sandbox.state.options.failureRate = 1;
		for (let i = 0; i < 2; i++)
			failed.push((await submitImage(http, { prompt: `failed ${i}` })).data.id);
		for (const id of failed) await waitForRun(http, id);
		sandbox.state.options.failureRate = 0;
		const edit = await http.post(
			'/images/background-remove',
			{ image_url: 'https://example.com/cat.png' },
			idem(),
		);
		expect(edit.status).toBe(202);
		editing = edit.data.id;
		await waitForRun(http, editing);
		ids = [...created, ...failed, editing].reverse();
	});
	afterAll(() => sandbox.close());

	it('answers a list object, newest first, with the default page size', async () => {
		const res = await http.get('/runs');
		expect(res.status).toBe(200);
		expect(res.data).toEqual({ object: 'list', data: expect.any(Array), has_more: false });
		expect(res.data.data.map((r: { id: string }) => r.id)).toEqual(ids);
	});

	it('pages with limit and starting_after until has_more is false', async () => {
		const pages: Array<{ ids: string[]; has_more: boolean }> = [];
		let after: string | undefined;
		for (let guard = 0; guard < 10; guard++) {
			const res = await http.get('/runs', {
				params: { limit: 2, ...(after ? { starting_after: after } : {}) },
			});
			expect(res.status).toBe(200);
			const pageIds = res.data.data.map((r: { id: string }) => r.id);
			pages.push({ ids: pageIds, has_more: res.data.has_more });
			if (!res.data.has_more) break;
			after = pageIds[pageIds.length - 1];
		}
		expect(pages.map((p) => p.ids.length)).toEqual([2, 2, 2]);
		expect(pages.map((p) => p.has_more)).toEqual([true, true, false]);
		expect(pages.flatMap((p) => p.ids)).toEqual(ids);
	});

	it('answers has_more false when the page ends exactly at the last item', async () => {
		const res = await http.get('/runs', { params: { limit: 2, starting_after: ids[3] } });
		expect(res.data.data.map((r: { id: string }) => r.id)).toEqual(ids.slice(4));
		expect(res.data.has_more).toBe(false);
	});

	it('filters by status', async () => {
		const res = await http.get('/runs', { params: { status: 'failed' } });
		expect(res.data.data.map((r: { id: string }) => r.id).sort()).toEqual([...failed].sort());
		expect(res.data.data.every((r: { status: string }) => r.status === 'failed')).toBe(true);
		const completed = await http.get('/runs', { params: { status: 'completed' } });
		expect(completed.data.data).toHaveLength(4);
	});

	it('filters by capability', async () => {
		const res = await http.get('/runs', { params: { capability: 'image_editing' } });
		expect(res.data.data.map((r: { id: string }) => r.id)).toEqual([editing]);
		const images = await http.get('/runs', {
			params: { capability: 'image_generation', status: 'completed' },
		});
		expect(images.data.data).toHaveLength(3);
	});

	it.each([['0'], ['101'], ['-1'], ['two'], ['1.5']])(
		'answers 400 invalid_parameter (param limit) for limit=%s',
		async (limit) => {
			const problem = expectProblem(
				await http.get('/runs', { params: { limit } }),
				400,
				'invalid_parameter',
			);
			expect(problem.param).toBe('limit');
		},
	);

	it('answers 400 invalid_parameter (param starting_after) for an id that is not in the list', async () => {
		const problem = expectProblem(
			await http.get('/runs', { params: { starting_after: 'run_missing' } }),
			400,
			'invalid_parameter',
		);
		expect(problem.param).toBe('starting_after');
	});
});
