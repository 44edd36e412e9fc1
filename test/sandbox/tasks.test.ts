import type { AxiosInstance } from 'axios';

import { SANDBOX_PROJECT_ID } from '../../sandbox/options';
import type { Sandbox } from '../../sandbox/server';
import { contractCheckOf } from '../helpers/contract';
import { clientFor, expectProblem, openSandbox } from './helpers';

describe('sandbox: scheduled tasks', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeEach(async () => {
		({ sandbox, http } = await openSandbox());
	});
	afterEach(async () => {
		// close() checks every recorded answer against openapi.json and throws on a violation
		await sandbox.close();
		expect(contractCheckOf(sandbox)?.checked).toBeGreaterThan(0);
	});

	it('create → list → pause → resume → re-route → delete', async () => {
		const created = await http.post('/tasks', {
			name: 'Monday digest',
			prompt: 'Summarise last week',
			schedule: '0 9 * * 1',
			destination: 'https://hooks.example.com/digest',
		});
		expect(created.status).toBe(201);
		const task = created.data;
		expect(task).toMatchObject({
			object: 'scheduled_task',
			status: 'active',
			schedule: '0 9 * * 1',
			destination: 'https://hooks.example.com/digest',
			next_run_at: expect.any(String),
		});
		const other = (
			await http.post('/tasks', { name: 'Daily', prompt: 'x', schedule: '*/15 * * * *' })
		).data;
		expect((await http.get('/tasks')).data.data.map((t: { id: string }) => t.id)).toEqual([
			other.id,
			task.id,
		]);

		const paused = await http.patch(`/tasks/${task.id}`, { status: 'paused' });
		expect(paused.data).toMatchObject({ id: task.id, status: 'paused', next_run_at: null });
		expect(
			(await http.get('/tasks', { params: { status: 'paused' } })).data.data.map(
				(t: { id: string }) => t.id,
			),
		).toEqual([task.id]);
		expect((await http.patch(`/tasks/${task.id}`, { status: 'active' })).data).toMatchObject({
			status: 'active',
			next_run_at: expect.any(String),
		});

		const rerouted = await http.patch(`/tasks/${task.id}`, { destination: SANDBOX_PROJECT_ID });
		expect(rerouted.data).toMatchObject({
			destination: SANDBOX_PROJECT_ID,
			status: 'active',
			schedule: '0 9 * * 1',
		});

		expect((await http.delete(`/tasks/${task.id}`)).status).toBe(204);
		expect((await http.get('/tasks')).data.data.map((t: { id: string }) => t.id)).toEqual([
			other.id,
		]);
		expectProblem(await http.patch(`/tasks/${task.id}`, { status: 'paused' }), 404, 'not_found');
		expectProblem(await http.delete(`/tasks/${task.id}`), 404, 'not_found');
	});

	it('refuses a bad schedule, status, destination or an empty update, naming the parameter', async () => {
		expect(
			expectProblem(
				await http.post('/tasks', { name: 'x', prompt: 'y', schedule: 'every monday' }),
				400,
				'invalid_parameter',
			).param,
		).toBe('schedule');
		expectProblem(
			await http.post('/tasks', { name: 'x', schedule: '0 9 * * 1' }),
			400,
			'invalid_prompt',
		);
		const task = (await http.post('/tasks', { name: 'x', prompt: 'y', schedule: '0 9 * * 1' }))
			.data;
		expect(
			expectProblem(
				await http.patch(`/tasks/${task.id}`, { status: 'stopped' }),
				400,
				'invalid_parameter',
			).param,
		).toBe('status');
		expect(
			expectProblem(
				await http.patch(`/tasks/${task.id}`, { destination: 'ftp://x' }),
				400,
				'invalid_parameter',
			).param,
		).toBe('destination');
		expect(
			expectProblem(
				await http.patch(`/tasks/${task.id}`, { destination: 'proj_unknown' }),
				404,
				'not_found',
			).param,
		).toBe('destination');
		expectProblem(await http.patch(`/tasks/${task.id}`, {}), 400, 'invalid_parameter');
	});

	it('needs tasks:write to change and tasks:read to list', async () => {
		const reader = clientFor(sandbox.baseUrl, sandbox.state.createApiKey(['tasks:read']));
		expect((await reader.get('/tasks')).status).toBe(200);
		expect(
			expectProblem(
				await reader.post('/tasks', { name: 'x', prompt: 'y', schedule: '0 9 * * 1' }),
				403,
				'insufficient_scope',
			).required_scope,
		).toBe('tasks:write');
	});
});
