// The jest config StrykerJS runs for every mutant (stryker.config.mjs): the in-process `unit`
// project of ../../jest.config.js on its own. The `e2e` project starts real n8n and is far too slow.
const path = require('node:path');

const { projects, ...root } = require('../../jest.config.js');

const unit = projects.find((project) => project.displayName === 'unit');
if (!unit) throw new Error('jest.config.js has no project named "unit"');

/** @type {import('jest').Config} */
module.exports = {
	...root,
	...unit,
	rootDir: path.join(__dirname, '..', '..'),
	// Stryker runs each mutant with --findRelatedTests: every folder between a test and src/ must be a
	// root, or jest loses the chain test → nodes/ → src/node/ → src/transport/ and skips the test.
	roots: ['test', 'src', 'nodes', 'credentials', 'sandbox'].map((dir) => `<rootDir>/${dir}`),
};
