// The quick loop (`npm run test:mutation:unit`, about 10 minutes): the code that decides about money
// and forged events, against test/unit only. A mutant that survives the whole suite survives this
// one too, so its survivors are a superset; the score is a lower bound of `npm run test:mutation`.
import base from './stryker.config.mjs';

export default {
	...base,
	mutate: [
		'src/transport/idempotency.ts',
		'src/transport/retry-policy.ts',
		'src/webhooks/signature.ts',
		'src/webhooks/receive.ts',
	],
	jest: { ...base.jest, config: { testMatch: ['<rootDir>/test/unit/**/*.test.ts'] } },
	incrementalFile: 'reports/mutation/unit/stryker-incremental.json',
	htmlReporter: { fileName: 'reports/mutation/unit/mutation.html' },
	jsonReporter: { fileName: 'reports/mutation/unit/mutation.json' },
};
