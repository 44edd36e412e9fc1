/** @type {import('jest').Config} */
const shared = {
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }] },
	setupFiles: ['<rootDir>/test/setup-env.ts'],
};

module.exports = {
	testTimeout: 60000,
	maxWorkers: 2,
	// A worker that ran the in-process n8n tests holds ~1 GB; after jest's end message its JS exits at
	// once, but the process took 0.3-0.4 s to go on this 2-core machine, more when busy, and jest
	// force-kills (and warns) after 0.5 s. A handle that really leaks still gets the warning.
	workerGracefulExitTimeout: 5000,
	projects: [
		{
			...shared,
			displayName: 'unit',
			roots: ['<rootDir>/test'],
			testMatch: ['**/*.test.ts'],
			testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/'],
		},
		{
			// Real n8n (test/n8n-host): one sandbox and one n8n server for the whole suite, started by the
			// global setup; test files run one after another (serial runner), with long timeouts.
			...shared,
			displayName: 'e2e',
			roots: ['<rootDir>/test/e2e'],
			testMatch: ['**/*.test.ts'],
			globalSetup: '<rootDir>/test/e2e/global-setup.ts',
			globalTeardown: '<rootDir>/test/e2e/global-teardown.ts',
			setupFilesAfterEnv: ['<rootDir>/test/e2e/timeouts.ts'],
			runner: '<rootDir>/test/e2e/serial-runner.js',
		},
	],
};
