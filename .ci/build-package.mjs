#!/usr/bin/env node
// `npm run build`: the published build is n8n's own `n8n-node build` (tsc with tsconfig.json, then the
// static files copied), run on a copy of exactly what ships. Run in the repository itself, its
// static-file step (`**/*.{png,svg}`, ignoring only the top-level dist/ and node_modules/) would also
// copy the ~1,900 images of the n8n that test/n8n-host installs, and the editor test's screenshots in
// test/artifacts/, into dist/ (measured: see CONTRIBUTING.md, "Build").
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const SHIPPED_SOURCES = ['package.json', 'tsconfig.json', 'nodes', 'credentials', 'src', 'icons'];
const N8N_NODE = join(ROOT, 'node_modules', '@n8n', 'node-cli', 'bin', 'n8n-node.mjs');

/** n8n-node draws spinners; keep the lines a log reader needs. */
function readable(output) {
	return output
		.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
		.split(/\r?\n/)
		.map((line) => line.replace(/^.*[◒◐◓◑].*?(?=[◇■▲]|$)/u, '').trimEnd())
		.filter((line) => line && line !== '│')
		.join('\n');
}

const stage = await mkdtemp(join(tmpdir(), 'mediagen-build-'));
try {
	for (const entry of SHIPPED_SOURCES)
		await cp(join(ROOT, entry), join(stage, entry), { recursive: true });
	await symlink(join(ROOT, 'node_modules'), join(stage, 'node_modules'), 'dir');

	const run = spawnSync(process.execPath, [N8N_NODE, 'build'], {
		cwd: stage,
		encoding: 'utf8',
		env: { ...process.env, CI: 'true' },
	});
	process.stdout.write(`${readable(`${run.stdout}\n${run.stderr}`)}\n`);
	if (run.status !== 0) process.exit(run.status ?? 1);

	await rm(join(ROOT, 'dist'), { recursive: true, force: true });
	await cp(join(stage, 'dist'), join(ROOT, 'dist'), { recursive: true });
} finally {
	await rm(stage, { recursive: true, force: true });
}
