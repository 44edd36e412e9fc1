import type { AxiosInstance } from 'axios';

import { SANDBOX_PROJECT_ID, SANDBOX_TEAM_ID, SANDBOX_VIEWER_TEAM_ID } from '../../sandbox/options';
import type { Sandbox } from '../../sandbox/server';
import { clientFor, expectProblem, openSandbox, submitImage, waitForRun } from './helpers';

describe('sandbox team billing and project filing on POST /images/generations', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 50 }));
	});
	afterAll(() => sandbox.close());

	it('answers 403 insufficient_scope (teams:read) when the key cannot read the workspace', async () => {
		const noTeams = clientFor(
			sandbox.baseUrl,
			sandbox.state.createApiKey(['images:write', 'runs:read']),
		);
		const problem = expectProblem(
			await submitImage(noTeams, { team_id: SANDBOX_TEAM_ID }),
			403,
			'insufficient_scope',
		);
		expect(problem.required_scope).toBe('teams:read');
		expect(sandbox.state.runs.size).toBe(0);
	});

	it('answers 404 invalid_team_id for a workspace the caller is not a member of', async () => {
		expectProblem(await submitImage(http, { team_id: 'team_unknown' }), 404, 'invalid_team_id');
	});

	it('answers 403 team_role_cannot_spend for a viewer of the workspace', async () => {
		expectProblem(
			await submitImage(http, { team_id: SANDBOX_VIEWER_TEAM_ID }),
			403,
			'team_role_cannot_spend',
		);
		expect(sandbox.state.runs.size).toBe(0);
	});

	it('bills the team pool, not the personal balance, and records team_id in the ledger', async () => {
		const personal = (await http.get('/account/credits')).data.balance;
		const pool = sandbox.state.teams.get(SANDBOX_TEAM_ID)!.pool;
		const submit = await submitImage(http, { team_id: SANDBOX_TEAM_ID, count: 2 });
		expect(submit.status).toBe(202);
		const run = await waitForRun(http, submit.data.id);
		expect(run.status).toBe('completed');
		expect(sandbox.state.chargesFor(submit.data.id)).toEqual([
			expect.objectContaining({ team_id: SANDBOX_TEAM_ID, credits: 8 }),
		]);
		expect(sandbox.state.teams.get(SANDBOX_TEAM_ID)!.pool).toBe(pool - 8);
		expect((await http.get('/account/credits')).data.balance).toBe(personal);
	});

	it('fails a run with team_pool_insufficient when the pool cannot pay, without charging anyone', async () => {
		const team = sandbox.state.teams.get(SANDBOX_TEAM_ID)!;
		const saved = team.pool;
		team.pool = 3;
		try {
			const submit = await submitImage(http, { team_id: SANDBOX_TEAM_ID });
			const run = await waitForRun(http, submit.data.id);
			expect(run.status).toBe('failed');
			expect((run.error as { code: string }).code).toBe('team_pool_insufficient');
			expect(sandbox.state.chargesFor(submit.data.id)).toHaveLength(0);
			expect(team.pool).toBe(3);
		} finally {
			team.pool = saved;
		}
	});

	it('checks project_id: projects:read scope, then membership, then accepts the sandbox project', async () => {
		const noProjects = clientFor(sandbox.baseUrl, sandbox.state.createApiKey(['images:write']));
		const scope = expectProblem(
			await submitImage(noProjects, { project_id: SANDBOX_PROJECT_ID }),
			403,
			'insufficient_scope',
		);
		expect(scope.required_scope).toBe('projects:read');
		const missing = expectProblem(
			await submitImage(http, { project_id: 'proj_unknown' }),
			404,
			'not_found',
		);
		expect(missing.param).toBe('project_id');
		expect((await submitImage(http, { project_id: SANDBOX_PROJECT_ID })).status).toBe(202);
	});
});
