import type { AxiosInstance } from 'axios';

import { SANDBOX_TEAM_ID } from '../../sandbox/options';
import type { Sandbox } from '../../sandbox/server';
import {
	clientFor,
	expectProblem,
	idem,
	openSandbox,
	sleep,
	submitImage,
	waitForRun,
} from './helpers';

const ids = (res: { data: { data: Array<{ id: string }> } }) => res.data.data.map((e) => e.id);

describe('sandbox library objects: create → list → get → update → delete round trips', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 50 }));
	});
	afterAll(() => sandbox.close());

	it('projects: create, list, get, rename, add and remove run items, delete', async () => {
		const created = await http.post('/projects', { name: 'Spring campaign', description: 'Q2' });
		expect(created.status).toBe(201);
		const project = created.data;
		expect(project).toEqual(
			expect.objectContaining({
				object: 'project',
				name: 'Spring campaign',
				description: 'Q2',
				items: [],
				item_count: 0,
			}),
		);

		expect(ids(await http.get('/projects'))).toContain(project.id);
		expect((await http.get(`/projects/${project.id}`)).data.name).toBe('Spring campaign');

		const renamed = await http.patch(`/projects/${project.id}`, { name: 'Summer campaign' });
		expect(renamed.status).toBe(200);
		expect(renamed.data).toEqual(
			expect.objectContaining({ name: 'Summer campaign', description: 'Q2' }),
		);

		const runs = [(await submitImage(http)).data.id, (await submitImage(http)).data.id];
		await Promise.all(runs.map((id) => waitForRun(http, id)));
		const added = await http.post(`/projects/${project.id}/items`, { run_ids: runs });
		expect(added.data).toEqual(expect.objectContaining({ items: runs, item_count: 2 }));
		expectProblem(
			await http.post(`/projects/${project.id}/items`, { run_ids: ['run_nope'] }),
			404,
			'not_found',
		);

		const removed = await http.delete(`/projects/${project.id}/items`, {
			params: { run_ids: runs[0] },
		});
		expect(removed.status).toBe(200);
		expect(removed.data.items).toEqual([runs[1]]);

		// a project the API created is usable as project_id on a generation
		const filed = await submitImage(http, { project_id: project.id });
		expect(filed.status).toBe(202);

		expect((await http.delete(`/projects/${project.id}`)).status).toBe(204);
		expectProblem(await http.get(`/projects/${project.id}`), 404, 'not_found');
		expect(ids(await http.get('/projects'))).not.toContain(project.id);
		expectProblem(await submitImage(http, { project_id: project.id }), 404, 'not_found');
	});

	it('projects: refuse a nameless project', async () => {
		const res = expectProblem(
			await http.post('/projects', { description: 'no name' }),
			400,
			'invalid_parameter',
		);
		expect(res.param).toBe('name');
	});

	it('elements: create, filter by type, get, delete; type is checked', async () => {
		const character = (
			await http.post('/elements', {
				name: 'Captain',
				type: 'character',
				image_urls: ['https://example.com/c.png'],
			})
		).data;
		const place = (await http.post('/elements', { name: 'Harbor', type: 'location' })).data;
		expect(character).toEqual(
			expect.objectContaining({
				object: 'element',
				name: 'Captain',
				type: 'character',
				image_urls: ['https://example.com/c.png'],
			}),
		);
		expect(ids(await http.get('/elements'))).toEqual([place.id, character.id]);
		expect(ids(await http.get('/elements', { params: { type: 'location' } }))).toEqual([place.id]);
		expect((await http.get(`/elements/${character.id}`)).data.name).toBe('Captain');
		expect((await http.delete(`/elements/${character.id}`)).status).toBe(204);
		expectProblem(await http.get(`/elements/${character.id}`), 404, 'not_found');
		expect(
			expectProblem(
				await http.post('/elements', { name: 'X', type: 'vehicle' }),
				400,
				'invalid_parameter',
			).param,
		).toBe('type');
	});

	it('brands: create, update, list, get, delete; colors are checked', async () => {
		const brand = (
			await http.post('/brands', {
				name: 'Acme',
				colors: ['#FF0000'],
				fonts: ['Inter'],
				tone: 'bold',
			})
		).data;
		expect(brand).toEqual(
			expect.objectContaining({
				object: 'brand',
				name: 'Acme',
				status: 'ready',
				colors: ['#FF0000'],
			}),
		);
		const updated = (
			await http.patch(`/brands/${brand.id}`, { tone: 'calm', colors: ['#00FF00', '#0000FF'] })
		).data;
		expect(updated).toEqual(
			expect.objectContaining({
				name: 'Acme',
				tone: 'calm',
				colors: ['#00FF00', '#0000FF'],
				fonts: ['Inter'],
			}),
		);
		expect(ids(await http.get('/brands'))).toContain(brand.id);
		expect((await http.get(`/brands/${brand.id}`)).data.tone).toBe('calm');
		expectProblem(
			await http.patch(`/brands/${brand.id}`, { colors: ['red'] }),
			400,
			'invalid_parameter',
		);
		expect((await http.delete(`/brands/${brand.id}`)).status).toBe(204);
		expectProblem(await http.get(`/brands/${brand.id}`), 404, 'not_found');
	});

	it('brands: an ingestion creates an ingesting brand that becomes ready with colors and fonts', async () => {
		const res = await http.post('/brands/ingestions', { url: 'https://www.example.com/about' });
		expect(res.status).toBe(202);
		expect(res.data).toEqual(
			expect.objectContaining({
				object: 'brand',
				status: 'ingesting',
				name: 'example.com',
				colors: [],
			}),
		);
		let brand = res.data;
		for (let i = 0; i < 100 && brand.status !== 'ready'; i++) {
			await sleep(20);
			brand = (await http.get(`/brands/${res.data.id}`)).data;
		}
		expect(brand.status).toBe('ready');
		expect(brand.colors.length).toBeGreaterThan(0);
		expect(brand.fonts.length).toBeGreaterThan(0);
		expectProblem(
			await http.post('/brands/ingestions', { url: 'not a url' }),
			400,
			'invalid_parameter',
		);
	});

	it('moodboards: presets list, fork into an own moodboard, list and get it', async () => {
		const presets = await http.get('/moodboards/presets');
		expect(presets.data.data.length).toBeGreaterThanOrEqual(3);
		const preset = presets.data.data[0];
		expect(ids(await http.get('/moodboards'))).toEqual([]);
		const fork = await http.post(`/moodboards/presets/${preset.id}/fork`, { name: 'My board' });
		expect(fork.status).toBe(201);
		expect(fork.data).toEqual(
			expect.objectContaining({ object: 'moodboard', name: 'My board', forked_from: preset.id }),
		);
		expect(ids(await http.get('/moodboards'))).toEqual([fork.data.id]);
		expect((await http.get(`/moodboards/${fork.data.id}`)).data.forked_from).toBe(preset.id);
		expectProblem(await http.post('/moodboards/presets/mbp_nope/fork', {}), 404, 'not_found');
	});

	it('teams: lists the workspaces of the account with role and pool; get one; unknown is 404', async () => {
		const teams = (await http.get('/teams')).data.data;
		expect(teams.map((t: { id: string }) => t.id)).toContain(SANDBOX_TEAM_ID);
		const team = (await http.get(`/teams/${SANDBOX_TEAM_ID}`)).data;
		expect(team).toEqual(
			expect.objectContaining({
				object: 'team',
				role: 'owner',
				pool_balance: expect.any(Number),
				currency: 'credits',
			}),
		);
		expectProblem(await http.get('/teams/team_nope'), 404, 'not_found');
	});

	it('influencers: create (Idempotency-Key required) is draft, then ready; list filters by status', async () => {
		expectProblem(
			await http.post('/influencers', {
				handle: 'nova',
				image_urls: ['https://example.com/1.jpg'],
			}),
			400,
			'idempotency_key_required',
		);
		const res = await http.post(
			'/influencers',
			{ handle: 'nova', display_name: 'Nova', image_urls: ['https://example.com/1.jpg'] },
			idem(),
		);
		expect(res.status).toBe(201);
		expect(res.data).toEqual(
			expect.objectContaining({
				object: 'influencer',
				handle: 'nova',
				status: 'draft',
				source_type: 'uploaded',
			}),
		);
		let influencer = res.data;
		for (let i = 0; i < 100 && influencer.status !== 'ready'; i++) {
			await sleep(20);
			influencer = (await http.get(`/influencers/${res.data.id}`)).data;
		}
		expect(influencer.status).toBe('ready');
		const ready = (await http.get('/influencers', { params: { status: 'ready' } })).data.data;
		expect(ready.every((i: { status: string }) => i.status === 'ready')).toBe(true);
		expect(ready.map((i: { handle: string }) => i.handle)).toEqual(
			expect.arrayContaining(['nova', 'ava']),
		);
		expect(
			(await http.get('/influencers')).data.data.map((i: { status: string }) => i.status),
		).toEqual(expect.arrayContaining(['draft', 'archived']));

		expectProblem(
			await http.post('/influencers', { handle: 'nova', source_type: 'generated' }, idem()),
			409,
			'handle_taken',
		);
		expectProblem(
			await http.post('/influencers', { handle: '@bad', source_type: 'generated' }, idem()),
			400,
			'invalid_parameter',
		);
		expectProblem(
			await http.post('/influencers', { handle: 'nophotos' }, idem()),
			400,
			'invalid_parameter',
		);
	});

	it('keeps each account to its own objects and checks the scopes', async () => {
		const narrow = clientFor(sandbox.baseUrl, sandbox.state.createApiKey(['projects:read']));
		expect((await narrow.get('/projects')).status).toBe(200);
		expect(
			expectProblem(await narrow.post('/projects', { name: 'x' }), 403, 'insufficient_scope')
				.required_scope,
		).toBe('projects:write');
		expect(
			expectProblem(await narrow.get('/brands'), 403, 'insufficient_scope').required_scope,
		).toBe('brands:read');
	});
});
