// Mutation testing (StrykerJS) of the code that spends money or guards secrets: `npm run test:mutation`.
// Not part of `npm test` nor CI: a full run takes tens of minutes on 2 cores. See docs/mutation-testing.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	mutate: [
		'src/transport/**/*.ts',
		'src/runs/**/*.ts',
		'src/webhooks/**/*.ts',
		'src/media/**/*.ts',
	],
	testRunner: 'jest',
	jest: {
		projectType: 'custom',
		// the `unit` project alone (in-process tests against the local sandbox); not the real-n8n e2e
		configFile: 'test/mutation/jest.config.js',
		// (default) only the test files that import the mutated file, also for mutants run at import time
		enableFindRelatedTests: true,
	},
	// each mutant runs only the tests that reached it in the first (coverage) run
	coverageAnalysis: 'perTest',
	// A mutant of a module-level constant runs at import, so no single test covers it and Stryker would
	// run every related test file for it (7+ minutes each here). They are listed as ignored; the ones
	// in idempotency, retry policy and signature code are checked by hand (docs/mutation-testing.md).
	// Set it to false to run them too.
	ignoreStatic: true,
	// a mutant that does not type-check is not worth a test run (and cannot ship)
	checkers: ['typescript'],
	tsconfigFile: 'tsconfig.json',
	// 2 cores, shared with other engineers' test runs
	concurrency: 2,
	timeoutMS: 10_000,
	timeoutFactor: 2,
	dryRunTimeoutMinutes: 30,
	// reuse the results of mutants whose code and tests did not change since the last run
	incremental: true,
	incrementalFile: 'reports/mutation/stryker-incremental.json',
	reporters: ['progress-append-only', 'clear-text', 'html', 'json'],
	htmlReporter: { fileName: 'reports/mutation/mutation.html' },
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
	// the sandbox copy needs neither real n8n installations nor build output
	ignorePatterns: [
		'dist',
		'build',
		'coverage',
		'reports',
		'test/n8n-host',
		'test/n8n-host-2.8',
		'test/e2e',
		'test/queue',
		'test/artifacts',
		'.n8n-playground',
		'.pack',
	],
	tempDirName: '.stryker-tmp',
	cleanTempDir: true,
	thresholds: { high: 90, low: 75, break: null },
};
