import { buildScanConfig } from '@n8n/scan-community-package/scanner/scanner.mjs';
import tseslint from 'typescript-eslint';

// n8n's own checks (the community-nodes plugin and the n8n-nodes-base rule sets, exactly as n8n's
// package scanner configures them) on everything that ships: package.json, nodes/, credentials/
// and the shared runtime in src/. The sandbox (sandbox/) and dev tools never ship: they get TypeScript rules only.
const shipped = ['package.json', 'nodes/**/*.ts', 'credentials/**/*.ts', 'src/**/*.ts'];
const devOnly = ['sandbox/**/*.ts'];

const scanConfig = await buildScanConfig();

export default [
	{ ignores: ['dist/**', 'build/**', 'node_modules/**', 'coverage/**', 'reports/**', '.stryker-tmp/**', 'test/**', 'bench/**', 'examples/**', '**/*.mjs', '**/*.js', 'tsup*.ts'] },
	...tseslint.configs.recommended.map((c) => ({ ...c, files: ['**/*.ts'] })),
	...scanConfig.map((c) => ({ ...c, files: c.files ?? shipped, ignores: [...(c.ignores ?? []), ...devOnly] })),
	{
		files: ['**/*.ts'],
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
		},
	},
];
