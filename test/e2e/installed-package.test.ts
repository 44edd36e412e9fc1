/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// The README's install path, as written there: `npm pack`, the tarball unpacked into
// <n8n folder>/nodes/node_modules/n8n-nodes-mediagen, n8n started without N8N_CUSTOM_EXTENSIONS.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startOwnN8n, type OwnN8n } from './own-n8n-client';
import { describeWithN8n, REPO } from './state';

const PACKAGE = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
	name: string;
	n8n: { nodes: string[]; credentials: string[] };
};
/** dist/nodes/MediaGenImage/MediaGenImage.node.js → mediaGenImage (the type name n8n gives the class) */
const typeNameOf = (file: string) => {
	const base = file
		.split('/')
		.pop()!
		.replace(/\.(node|credentials)\.js$/, '');
	return base[0].toLowerCase() + base.slice(1);
};

describeWithN8n(
	'installed as the README says: the npm pack tarball unpacked into ~/.n8n/nodes/node_modules',
	() => {
		let work: string;
		let n8n: OwnN8n | undefined;

		beforeAll(async () => {
			work = mkdtempSync(join(tmpdir(), 'mediagen-installed-'));
			// dist/ is built by the e2e global setup
			const tarball = execFileSync('npm', ['pack', '--pack-destination', work, '--silent'], {
				cwd: REPO,
				encoding: 'utf8',
			})
				.trim()
				.split('\n')
				.pop()!;
			const userFolder = join(work, 'user');
			const packageDir = join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE.name);
			mkdirSync(packageDir, { recursive: true });
			execFileSync('tar', ['-xzf', join(work, tarball), '-C', packageDir, '--strip-components=1']);
			n8n = await startOwnN8n(userFolder, undefined, { setup: true });
		});
		afterAll(async () => {
			await n8n?.stop();
			rmSync(work, { recursive: true, force: true });
		});

		const types = async (file: string) => {
			const res = await fetch(`${n8n!.url}/types/${file}`, { headers: { cookie: n8n!.cookie! } });
			expect(res.status).toBe(200);
			return ((await res.json()) as Array<{ name: string }>).map((t) => t.name);
		};

		it('n8n loads every node of package.json as n8n-nodes-mediagen.<name>, each action node also as an AI tool (<name>Tool)', async () => {
			const nodes = await types('nodes.json');
			const expected = PACKAGE.n8n.nodes.map((file) => `${PACKAGE.name}.${typeNameOf(file)}`);
			expect(expected).toHaveLength(14);
			const actions = expected.filter((name) => !name.endsWith('Trigger'));
			expect(nodes.filter((name) => name.startsWith(`${PACKAGE.name}.`)).sort()).toEqual(
				[...expected, ...actions.map((name) => `${name}Tool`)].sort(),
			);
		});

		it('and both credentials', async () => {
			const credentials = await types('credentials.json');
			expect(credentials).toEqual(expect.arrayContaining(PACKAGE.n8n.credentials.map(typeNameOf)));
		});
	},
);
