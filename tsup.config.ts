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

/**
 * Codex files go beside the compiled nodes; icons go to dist/icons, where the nodes' and
 * credentials' relative `file:` paths point (as they do to icons/ in the source tree).
 */
async function copyNodeAssets(): Promise<void> {
	for (const name of nodeNames) {
		for (const file of await readdir(join('nodes', name))) {
			if (file.endsWith('.node.json')) await cp(join('nodes', name, file), join('dist', 'nodes', name, file));
		}
	}
	await cp('icons', join('dist', 'icons'), { recursive: true });
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
