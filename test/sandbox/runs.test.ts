import axios, { type AxiosInstance } from 'axios';

import type { Sandbox } from '../../sandbox/server';
import { openSandbox, PNG_SIGNATURE, sleep, submitImage, waitForRun } from './helpers';

async function balance(http: AxiosInstance): Promise<number> {
	const res = await http.get('/account/credits');
	expect(res.status).toBe(200);
	expect(res.data).toEqual({
		account_id: 'acc_sandbox',
		balance: expect.any(Number),
		currency: 'credits',
	});
	return res.data.balance as number;
}

async function fetchFile(url: string) {
	return axios.get<ArrayBuffer>(url, { responseType: 'arraybuffer', validateStatus: () => true });
}

describe('sandbox runs: lifecycle, outputs and credits', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 200, startingCredits: 1000 }));
	});
	afterAll(() => sandbox.close());

	it('moves a run queued (202) → processing → completed with images served as real PNG files', async () => {
		const submit = await submitImage(http, {
			prompt: 'three moons',
			count: 2,
			aspect_ratio: '1:1',
		});
		expect(submit.status).toBe(202);
		expect(submit.data).toEqual(
			expect.objectContaining({
				object: 'run',
				status: 'queued',
				capability: 'image_generation',
				model: 'image.aurora-2',
				output: null,
				completed_at: null,
			}),
		);
		expect(submit.data.input_summary).toEqual(
			expect.objectContaining({ prompt: 'three moons', count: 2, aspect_ratio: '1:1' }),
		);

		const during = await http.get(`/runs/${submit.data.id}`);
		expect(during.data.status).toBe('processing');
		expect(during.data.output).toBeNull();

		const run = await waitForRun(http, submit.data.id);
		expect(run.status).toBe('completed');
		expect(run.completed_at).toEqual(expect.any(String));
		expect(run.error).toBeNull();
		const output = run.output as { images: Array<{ url: string }>; output_url: string };
		expect(output.images).toHaveLength(2);
		expect(output.output_url).toBe(output.images[0].url);

		for (const url of [output.output_url, ...output.images.map((i) => i.url)]) {
			expect(url.startsWith(sandbox.origin)).toBe(true);
			const file = await fetchFile(url);
			expect(file.status).toBe(200);
			expect(file.headers['content-type']).toMatch(/^image\/png/);
			expect(Buffer.from(file.data).subarray(0, 8)).toEqual(PNG_SIGNATURE);
		}
		const [a, b] = await Promise.all(output.images.map((i) => fetchFile(i.url)));
		expect(Buffer.from(a.data).equals(Buffer.from(b.data))).toBe(false);
	});

	it('refuses an output URL whose signature was tampered with', async () => {
		const { data } = await submitImage(http);
		const run = await waitForRun(http, data.id);
		const url = (run.output as { output_url: string }).output_url.replace(
			/sig=[^&]+/,
			'sig=forged',
		);
		expect((await fetchFile(url)).status).toBe(403);
	});

	it('reserves credits at submit and charges them once at completion', async () => {
		const start = await balance(http);
		const ledgerBefore = sandbox.state.ledger.length;
		const submit = await submitImage(http, { count: 3 });
		const price = 3 * 4; // image.aurora-2: 4 credits per image
		expect(await balance(http)).toBe(start - price);
		expect(sandbox.state.chargesFor(submit.data.id)).toHaveLength(0);

		const run = await waitForRun(http, submit.data.id);
		expect(run.usage).toEqual({ credits: price });
		expect(await balance(http)).toBe(start - price);
		expect(sandbox.state.ledger.length).toBe(ledgerBefore + 1);
		expect(sandbox.state.chargesFor(submit.data.id)).toEqual([
			expect.objectContaining({
				run_id: submit.data.id,
				account_id: 'acc_sandbox',
				team_id: null,
				credits: price,
			}),
		]);
		await sleep(250);
		expect(sandbox.state.chargesFor(submit.data.id)).toHaveLength(1);
	});

	it('serves GET /runs/{id}/output and 404 not_found for an unknown run', async () => {
		const { data } = await submitImage(http);
		await waitForRun(http, data.id);
		const output = await http.get(`/runs/${data.id}/output`);
		expect(output.status).toBe(200);
		expect(output.data).toEqual(
			expect.objectContaining({
				id: data.id,
				object: 'run_output',
				status: 'completed',
				output: expect.objectContaining({ output_url: expect.any(String) }),
			}),
		);
		const missing = await http.get('/runs/run_missing');
		expect(missing.status).toBe(404);
		expect(missing.data.code).toBe('not_found');
	});

	it.each([
		['a slash', 'run/1', 'run%2F1'],
		['a space and a question mark', 'run 1?', 'run%201%3F'],
		['unicode', 'rün_☃', 'r%C3%BCn_%E2%98%83'],
	])(
		'reads a path id with %s as one id, decoded (404 naming it, not another route)',
		async (_what, id, encoded) => {
			const res = await http.get(`/runs/${encoded}`);
			expect({ status: res.status, code: res.data.code }).toEqual({
				status: 404,
				code: 'not_found',
			});
			expect(res.data.detail).toBe(`No run ${id}`);
		},
	);
});

describe('sandbox runs: provider failures (failureRate 1)', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 50, failureRate: 1 }));
	});
	afterAll(() => sandbox.close());

	it('fails the run with error.code provider_error, charges nothing and releases the reservation', async () => {
		const start = (await http.get('/account/credits')).data.balance;
		const submit = await submitImage(http);
		expect(submit.status).toBe(202);
		const run = await waitForRun(http, submit.data.id);
		expect(run.status).toBe('failed');
		expect(run.error).toEqual(
			expect.objectContaining({ code: 'provider_error', message: expect.any(String) }),
		);
		expect(run.output).toBeNull();
		expect(run.completed_at).toEqual(expect.any(String));
		expect(sandbox.state.ledger).toHaveLength(0);
		expect((await http.get('/account/credits')).data.balance).toBe(start);
	});
});

describe('sandbox runs: not enough credits', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 50, startingCredits: 5 }));
	});
	afterAll(() => sandbox.close());

	it('accepts the submit, then fails the run with insufficient_credits (not provider_error) and charges nothing', async () => {
		const submit = await submitImage(http, { count: 2 }); // 8 credits > 5
		expect(submit.status).toBe(202);
		expect(submit.data.status).toBe('queued');
		const run = await waitForRun(http, submit.data.id);
		expect(run.status).toBe('failed');
		expect((run.error as { code: string }).code).toBe('insufficient_credits');
		expect(sandbox.state.ledger).toHaveLength(0);
		expect((await http.get('/account/credits')).data.balance).toBe(5);
	});

	it('still completes a run the balance covers', async () => {
		const run = await waitForRun(http, (await submitImage(http, { count: 1 })).data.id);
		expect(run.status).toBe('completed');
		expect((await http.get('/account/credits')).data.balance).toBe(1);
	});
});

describe('sandbox runs: concurrency per account', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 200, concurrencyPerAccount: 1 }));
	});
	afterAll(() => sandbox.close());

	it('keeps a second run queued while the first processes, then runs it', async () => {
		const first = (await submitImage(http, { prompt: 'first' })).data.id as string;
		const second = (await submitImage(http, { prompt: 'second' })).data.id as string;
		expect((await http.get(`/runs/${first}`)).data.status).toBe('processing');
		expect((await http.get(`/runs/${second}`)).data.status).toBe('queued');

		expect((await waitForRun(http, first)).status).toBe('completed');
		const afterFirst = (await http.get(`/runs/${second}`)).data.status;
		expect(['processing', 'completed']).toContain(afterFirst);
		const done = await waitForRun(http, second);
		expect(done.status).toBe('completed');
		expect(Date.parse(String(done.completed_at))).toBeGreaterThanOrEqual(
			Date.parse(String((await http.get(`/runs/${first}`)).data.completed_at)) + 100,
		);
	});
});
