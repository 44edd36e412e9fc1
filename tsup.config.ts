import { readdirSync } from 'node:fs';
import { cp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { defineConfig } from 'tsup';

// The published build: one CommonJS bundle per node and credential, with src/ inlined, so the
// package has no runtime dependencies besides n8n-workflow (a peer that n8n provides).
// Every folder under nodes/ is a node: adding one needs no edit here.
const nodeNames = readdirSync('nodes', { withFileTypes: true })
	.filter((d) => d.isDirectory())
	.map((d) => d.name);

/** Codex files and icons (light and dark) go beside the compiled files: n8n reads them there. */
async function copyNodeAssets(): Promise<void> {
	const icons = (await readdir('icons')).filter((f) => f.endsWith('.svg'));
	const copyIcons = (dir: string) => Promise.all(icons.map((f) => cp(join('icons', f), join(dir, f))));
	for (const name of nodeNames) {
		const from = join('nodes', name);
		for (const file of await readdir(from)) {
			if (file.endsWith('.node.json') || file.endsWith('.svg')) await cp(join(from, file), join('dist', 'nodes', name, file));
		}
		await copyIcons(join('dist', 'nodes', name));
	}
	await copyIcons(join('dist', 'credentials'));
}

export default defineConfig({
	entry: {
		...Object.fromEntries(nodeNames.map((n) => [`nodes/${n}/${n}.node`, `nodes/${n}/${n}.node.ts`])),
		'credentials/MediaGenApi.credentials': 'credentials/MediaGenApi.credentials.ts',
		'credentials/MediaGenOAuth2Api.credentials': 'credentials/MediaGenOAuth2Api.credentials.ts',
	},
	outDir: 'dist',
	format: ['cjs'],
	target: 'node20',
	platform: 'node',
	external: ['n8n-workflow'],
	clean: true,
	splitting: false,
	sourcemap: false,
	dts: false,
	onSuccess: copyNodeAssets,
});
