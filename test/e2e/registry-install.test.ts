/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// The README's installs by name, through n8n's own installer: the staged package (what npm would
// publish, scripts/stage-package.mjs) published to a local registry that answers for
// registry.npmjs.org (test/registry/), then (1) Settings → Community Nodes' route installs it by
// name, (2) N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV / N8N_COMMUNITY_PACKAGES with its version and the
// checksum `npm view … dist.integrity` prints install it when n8n starts, and (3) a wrong checksum
// installs nothing. After each install a workflow with the installed node makes its image.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { SANDBOX_API_KEY } from '../../sandbox/options';
import { eventually, publicApi, startOwnN8n, type OwnN8n } from './own-n8n-client';
import { describeWithN8n, readE2eState, REPO } from './state';

const PACKAGE = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
	name: string;
	n8n: { nodes: string[]; credentials: string[] };
};

interface Registry {
	env: Record<string, string>;
	published: Array<{ name: string; version: string; integrity: string }>;
	child: ChildProcess;
}

async function startRegistry(dir: string, publish: string[]): Promise<Registry> {
	const child = spawn(
		process.execPath,
		[
			join(REPO, 'test', 'registry', 'registry.mjs'),
			'--dir',
			dir,
			...publish.flatMap((folder) => ['--publish', folder]),
		],
		{
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	const ready = await new Promise<Omit<Registry, 'child'>>((resolve, reject) => {
		createInterface({ input: child.stdout! }).on(
			'line',
			(line) => line.startsWith('{') && resolve(JSON.parse(line)),
		);
		child.once('exit', (code) =>
			reject(new Error(`the local registry exited with code ${code} before it was ready`)),
		);
	});
	return { ...ready, child };
}

const typeNameOf = (file: string) => {
	const base = file
		.split('/')
		.pop()!
		.replace(/\.(node|credentials)\.js$/, '');
	return base[0].toLowerCase() + base.slice(1);
};

/** The owner's session of own-n8n.mjs is bound to the browser id test/n8n-host/n8n.mjs signs in with. */
const BROWSER_ID = 'mediagen-n8n-host';

/** n8n's internal REST API as the editor calls it (Settings → Community Nodes uses /rest/community-packages). */
async function rest<T>(
	n8n: OwnN8n,
	path: string,
	init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
	const res = await fetch(`${n8n.url}${path}`, {
		method: init.method ?? 'GET',
		headers: {
			cookie: n8n.cookie!,
			'browser-id': BROWSER_ID,
			...(init.body ? { 'content-type': 'application/json' } : {}),
		},
		body: init.body ? JSON.stringify(init.body) : undefined,
	});
	return { status: res.status, body: (await res.json()) as T };
}

/** The package's node types n8n serves to the editor. */
async function installedTypes(n8n: OwnN8n): Promise<string[]> {
	const res = await fetch(`${n8n.url}/types/nodes.json`, { headers: { cookie: n8n.cookie! } });
	return ((await res.json()) as Array<{ name: string }>)
		.map((t) => t.name)
		.filter((name) => name.startsWith(`${PACKAGE.name}.`))
		.sort();
}

/** A webhook → MediaGen Image (the installed node) workflow, published; answers with the node's first item. */
async function imageFromInstalledNode(
	n8n: OwnN8n,
	sandboxBaseUrl: string,
	path: string,
): Promise<Record<string, unknown>> {
	const credential = await publicApi<{ id: string; name: string }>(
		n8n,
		n8n.apiKey!,
		'/credentials',
		'POST',
		{
			name: 'MediaGen API (sandbox)',
			type: 'mediaGenApi',
			data: { baseUrl: sandboxBaseUrl, apiKey: SANDBOX_API_KEY, allowedHttpRequestDomains: 'all' },
		},
	);
	const workflow = await publicApi<{ id: string }>(n8n, n8n.apiKey!, '/workflows', 'POST', {
		name: 'MediaGen installed from the registry',
		nodes: [
			{
				id: 'hook',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: path,
				parameters: {
					httpMethod: 'POST',
					path,
					responseMode: 'lastNode',
					responseData: 'firstEntryJson',
				},
			},
			{
				id: 'image',
				name: 'Generate Image',
				type: `${PACKAGE.name}.mediaGenImage`,
				typeVersion: 2,
				position: [240, 0],
				parameters: {
					resource: 'image',
					operation: 'generate',
					model: { __rl: true, mode: 'id', value: 'image.aurora-2' },
					prompt: 'a lighthouse at dusk',
					aspectRatio: '16:9',
					count: 1,
					waitForCompletion: true,
					simplify: true,
					options: {},
				},
				credentials: { mediaGenApi: credential },
			},
		],
		connections: { Webhook: { main: [[{ node: 'Generate Image', type: 'main', index: 0 }]] } },
		settings: {},
	});
	await publicApi(n8n, n8n.apiKey!, `/workflows/${workflow.id}/activate`, 'POST');
	// activation registers the webhook asynchronously: 404 until then
	const res = await eventually('the webhook of the published workflow', async () => {
		const answer = await fetch(`${n8n.url}/webhook/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{}',
		});
		return answer.status === 404 ? undefined : answer;
	});
	expect(res.status).toBe(200);
	return (await res.json()) as Record<string, unknown>;
}

const describeOnPinned = process.env.MEDIAGEN_N8N_HOST ? describe.skip : describeWithN8n;

describeOnPinned(
	"installed by name through n8n's own installer, from a local registry that answers for registry.npmjs.org",
	() => {
		const state = readE2eState();
		let work: string;
		let registry: Registry;
		let published: Registry['published'][number];
		const running: OwnN8n[] = [];
		const start = async (env: Record<string, string> = {}) => {
			const n8n = await startOwnN8n(mkdtempSync(join(work, 'user-')), undefined, {
				setup: true,
				env: { ...registry.env, ...env },
			});
			running.push(n8n);
			return n8n;
		};
		const expectedNodes = () => {
			const nodes = PACKAGE.n8n.nodes.map((file) => `${PACKAGE.name}.${typeNameOf(file)}`);
			return [
				...nodes,
				...nodes.filter((name) => !name.endsWith('Trigger')).map((name) => `${name}Tool`),
			].sort();
		};

		beforeAll(async () => {
			work = mkdtempSync(join(tmpdir(), 'mediagen-registry-'));
			// dist/ is built by the e2e global setup; the staged folder is what publish.yml publishes
			execFileSync(
				process.execPath,
				[join(REPO, 'scripts', 'stage-package.mjs'), '--out', join(work, 'staged')],
				{ cwd: REPO, stdio: 'pipe' },
			);
			registry = await startRegistry(join(work, 'registry'), [join(work, 'staged')]);
			published = registry.published[0];
			expect(published).toMatchObject({
				name: PACKAGE.name,
				integrity: expect.stringMatching(/^sha512-/),
			});
		});
		afterAll(async () => {
			for (const n8n of running) await n8n.stop();
			registry?.child.kill('SIGTERM');
			rmSync(work, { recursive: true, force: true });
		});

		it('Settings → Community Nodes installs n8n-nodes-mediagen by name: its 13 nodes (12 also as AI tools) and 2 credentials load, and a workflow with the installed node makes its image', async () => {
			const n8n = await start();
			const installed = await rest<{
				data: {
					packageName: string;
					installedVersion: string;
					installedNodes: Array<{ type: string }>;
				};
			}>(n8n, '/rest/community-packages', {
				method: 'POST',
				body: { name: PACKAGE.name },
			});
			expect(installed.status).toBe(200);
			expect(installed.body.data).toMatchObject({
				packageName: PACKAGE.name,
				installedVersion: published.version,
			});
			expect(installed.body.data.installedNodes).toHaveLength(PACKAGE.n8n.nodes.length);
			expect(await installedTypes(n8n)).toEqual(expectedNodes());
			const credentials = await fetch(`${n8n.url}/types/credentials.json`, {
				headers: { cookie: n8n.cookie! },
			});
			expect(((await credentials.json()) as Array<{ name: string }>).map((c) => c.name)).toEqual(
				expect.arrayContaining(PACKAGE.n8n.credentials.map(typeNameOf)),
			);

			const item = await imageFromInstalledNode(n8n, state.sandbox.baseUrl, 'installed-by-name');
			expect(item).toMatchObject({
				status: 'completed',
				prompt: 'a lighthouse at dusk',
				run_id: expect.any(String),
				output_url: expect.stringMatching(/^https?:\/\//),
			});
		});

		it('N8N_COMMUNITY_PACKAGES with the version and the dist.integrity `npm view` prints installs it when n8n starts; Settings → Community Nodes then cannot change packages; a workflow makes its image', async () => {
			// the README's command, against the registry n8n sees as registry.npmjs.org
			const integrity = execFileSync(
				'npm',
				[
					'view',
					`${PACKAGE.name}@${published.version}`,
					'dist.integrity',
					'--registry=https://registry.npmjs.org/',
				],
				{
					env: { ...process.env, ...registry.env },
					encoding: 'utf8',
				},
			).trim();
			expect(integrity).toBe(published.integrity);
			const n8n = await start({
				N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
				N8N_COMMUNITY_PACKAGES: JSON.stringify([
					{ name: PACKAGE.name, version: published.version, checksum: integrity },
				]),
			});
			expect(await installedTypes(n8n)).toEqual(expectedNodes());
			const refused = await rest<{ message: string }>(n8n, '/rest/community-packages', {
				method: 'POST',
				body: { name: 'n8n-nodes-other' },
			});
			expect(refused.status).toBe(400);
			expect(refused.body.message).toMatch(/managed via environment variables/);

			const item = await imageFromInstalledNode(n8n, state.sandbox.baseUrl, 'installed-by-env');
			expect(item).toMatchObject({ status: 'completed', run_id: expect.any(String) });
		});

		it('with a checksum that is not the registry one, n8n installs nothing', async () => {
			const wrong = `sha512-${Buffer.alloc(64, 1).toString('base64')}`;
			const n8n = await start({
				N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
				N8N_COMMUNITY_PACKAGES: JSON.stringify([
					{ name: PACKAGE.name, version: published.version, checksum: wrong },
				]),
			});
			expect(await installedTypes(n8n)).toEqual([]);
			const listed = await rest<{ data: unknown[] }>(n8n, '/rest/community-packages');
			expect(listed.body.data).toEqual([]);
		});
	},
);
