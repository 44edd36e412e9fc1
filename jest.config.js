/** @type {import('jest').Config} */
const shared = {
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }] },
	setupFiles: ['<rootDir>/test/setup-env.ts'],
};

module.exports = {
	testTimeout: 60000,
	maxWorkers: 2,
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
