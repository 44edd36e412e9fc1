/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { randomUUID } from 'node:crypto';

import axios, { type AxiosInstance, type AxiosResponse } from 'axios';

import { SANDBOX_API_KEY } from '../../sandbox/options';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { closeWithContractCheck } from '../helpers/contract';

export type SandboxOptions = Parameters<typeof startSandbox>[0];

/** A sandbox with a fast default latency, and an axios client on its base URL that never throws on status. */
export async function openSandbox(
	options: SandboxOptions = {},
): Promise<{ sandbox: Sandbox; http: AxiosInstance }> {
	const sandbox = closeWithContractCheck(await startSandbox({ latencyMs: 100, ...options }));
	return { sandbox, http: clientFor(sandbox.baseUrl, SANDBOX_API_KEY) };
}

export function clientFor(baseUrl: string, bearer?: string): AxiosInstance {
	return axios.create({
		baseURL: baseUrl,
		validateStatus: () => true,
		headers: bearer ? { Authorization: `Bearer ${bearer}` } : {},
		timeout: 10_000,
	});
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

export function idem(key: string = randomUUID()): { headers: Record<string, string> } {
	return { headers: { 'Idempotency-Key': key } };
}

/** Asserts the response is a problem document with every field the API document names, and returns it. */
export function expectProblem(
	res: AxiosResponse,
	status: number,
	code: string,
): Record<string, unknown> {
	const body = res.data as Record<string, unknown>;
	expect({ status: res.status, code: body?.code }).toEqual({ status, code });
	expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/);
	expect(body).toEqual(
		expect.objectContaining({
			type: expect.stringMatching(new RegExp(`/errors/${code}$`)),
			title: expect.any(String),
			status,
			detail: expect.any(String),
			code,
			request_id: expect.any(String),
		}),
	);
	return body;
}

/** Submits an image generation with a fresh Idempotency-Key. */
export function submitImage(
	http: AxiosInstance,
	body: Record<string, unknown> = {},
	key?: string,
): Promise<AxiosResponse> {
	return http.post('/images/generations', { prompt: 'a lighthouse at dusk', ...body }, idem(key));
}

/** Polls GET /runs/{id} until the run is completed or failed. */
export async function waitForRun(
	http: AxiosInstance,
	runId: string,
	timeoutMs = 5000,
): Promise<Record<string, unknown>> {
	const end = Date.now() + timeoutMs;
	for (;;) {
		const res = await http.get(`/runs/${runId}`);
		if (res.status !== 200)
			throw new Error(`GET /runs/${runId} answered ${res.status}: ${JSON.stringify(res.data)}`);
		if (res.data.status === 'completed' || res.data.status === 'failed')
			return res.data as Record<string, unknown>;
		if (Date.now() > end)
			throw new Error(`run ${runId} still ${res.data.status} after ${timeoutMs} ms`);
		await sleep(25);
	}
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
