/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// An n8n of a test's own (stopped and started again by the test) and its public API, for e2e test
// files: through test/e2e/own-n8n.mjs, since ESM host modules cannot be imported here.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface OwnN8n {
	url: string;
	port: number;
	apiKey?: string;
	/** the owner's session cookie (`setup`), for n8n's internal routes */
	cookie?: string;
	stop(): Promise<void>;
}

/**
 * Starts n8n on `userFolder` (`setup`: owner and public API key, on the first start; `port`: the same
 * port again); `extensionsDir` undefined: only what the user folder holds (an installed package).
 */
export async function startOwnN8n(
	userFolder: string,
	extensionsDir: string | undefined,
	options: { setup?: boolean; port?: number; env?: Record<string, string> },
): Promise<OwnN8n> {
	const args = [
		'--user-folder',
		userFolder,
		...(extensionsDir ? ['--extensions', extensionsDir] : []),
		...(options.setup ? ['--setup'] : []),
		...(options.port ? ['--port', String(options.port)] : []),
		...envArgs(options.env),
	];
	const child = spawn(process.execPath, [join(__dirname, 'own-n8n.mjs'), ...args], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const ready = await new Promise<Omit<OwnN8n, 'stop'>>((resolve, reject) => {
		const lines = createInterface({ input: child.stdout! });
		lines.on('line', (line) => line.startsWith('{') && resolve(JSON.parse(line)));
		child.once('exit', (code) =>
			reject(new Error(`n8n exited with code ${code} before it was ready`)),
		);
	});
	return {
		...ready,
		stop: async () => {
			child.kill('SIGTERM');
			await exited;
		},
	};
}

const envArgs = (env: Record<string, string> = {}) =>
	Object.entries(env).flatMap(([key, value]) => ['--env', `${key}=${value}`]);

/** Runs an n8n command (import:workflow, publish:workflow, …) on a user folder while no n8n of it runs. */
export async function runOwnN8nCli(
	userFolder: string,
	extensionsDir: string | undefined,
	args: string[],
	env?: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
	const child = spawn(
		process.execPath,
		[
			join(__dirname, 'own-n8n.mjs'),
			'--user-folder',
			userFolder,
			...(extensionsDir ? ['--extensions', extensionsDir] : []),
			...envArgs(env),
			...args.flatMap((arg) => [`--cli=${arg}`]),
		],
		{
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	return await new Promise((resolve, reject) => {
		const lines = createInterface({ input: child.stdout! });
		lines.on('line', (line) => line.startsWith('{') && resolve(JSON.parse(line)));
		child.once('exit', (code) =>
			reject(new Error(`n8n ${args.join(' ')} exited with code ${code} without a result`)),
		);
	});
}

export async function publicApi<T>(
	n8n: Pick<OwnN8n, 'url'>,
	apiKey: string,
	path: string,
	method = 'GET',
	body?: unknown,
): Promise<T> {
	const res = await fetch(`${n8n.url}/api/v1${path}`, {
		method,
		headers: {
			'X-N8N-API-KEY': apiKey,
			accept: 'application/json',
			...(body ? { 'content-type': 'application/json' } : {}),
		},
		body: body ? JSON.stringify(body) : undefined,
	});
	if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${await res.text()}`);
	return (await res.json()) as T;
}

/** Polls `check` until it gives a value (errors count as "not yet"). */
export async function eventually<T>(
	what: string,
	check: () => Promise<T | undefined>,
	timeoutMs = 60_000,
	everyMs = 300,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check().catch(() => undefined);
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, everyMs));
	}
}

/** POSTs `{}` to a workflow's production webhook until n8n serves it (activation registers it asynchronously). */
export async function callWebhook(n8nUrl: string, path: string): Promise<void> {
	await eventually('the webhook', async () =>
		(
			await fetch(`${n8nUrl}/webhook/${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{}',
			})
		).status === 200
			? true
			: undefined,
	);
}
