import type { AxiosInstance } from 'axios';

import type { Sandbox } from '../../sandbox/server';
import { clientFor, expectProblem, openSandbox, submitImage } from './helpers';

describe('sandbox scopes', () => {
	let sandbox: Sandbox;
	let narrow: AxiosInstance;

	beforeAll(async () => {
		({ sandbox } = await openSandbox());
		narrow = clientFor(
			sandbox.baseUrl,
			sandbox.state.createApiKey(['runs:read', 'account:read'], 'no images'),
		);
	});
	afterAll(() => sandbox.close());

	it('answers 403 insufficient_scope naming images:write when the key lacks it, and creates no run', async () => {
		const problem = expectProblem(await submitImage(narrow), 403, 'insufficient_scope');
		expect(problem.required_scope).toBe('images:write');
		expect(sandbox.state.runs.size).toBe(0);
	});

	it('names the scope of the route that was refused (credits:read)', async () => {
		const problem = expectProblem(await narrow.get('/account/credits'), 403, 'insufficient_scope');
		expect(problem.required_scope).toBe('credits:read');
	});

	it('lets the same key through on the routes its scopes cover', async () => {
		expect((await narrow.get('/runs')).status).toBe(200);
		expect((await narrow.get('/account')).status).toBe(200);
	});

	it('accepts a submit from a key that has images:write', async () => {
		const writer = clientFor(
			sandbox.baseUrl,
			sandbox.state.createApiKey(['images:write'], 'images only'),
		);
		const res = await submitImage(writer);
		expect(res.status).toBe(202);
		expect(res.data.status).toBe('queued');
	});
});
