import { defineConfig } from 'tsup';

// Dev-only build of the sandbox service and the playground's local chat model (never part of the
// published package: files = ["dist"]).
export default defineConfig({
	entry: {
		'sandbox/cli': 'sandbox/cli.ts',
		'playground/chat-model': 'test/helpers/fake-openai-chat.ts',
		'tools/update-readme': 'scripts/docs/update-readme.ts',
		'bench/run': 'bench/run.ts',
		'bench/paused-wait': 'bench/paused-wait.ts',
	},
	outDir: 'build',
	format: ['cjs'],
	target: 'node20',
	platform: 'node',
	external: ['express', 'n8n-workflow', 'n8n-core', '@n8n/di', 'axios', 'autocannon'],
	clean: false,
	splitting: false,
});
