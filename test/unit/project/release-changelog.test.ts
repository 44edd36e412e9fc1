/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- .ci/ holds plain CommonJS tools for Node, without type declarations
const { releaseChangelog } = require('../../../.ci/changelog.cjs') as {
	releaseChangelog: (text: string, version: string, previous: string, date: string) => string;
};

const REPO = join(__dirname, '..', '..', '..');
const REPOSITORY = 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen';
const packageVersion = () =>
	(JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

const header = '# Changelog\n\nIntro.\n\n';

describe('npm run release: the changelog', () => {
	it('the first release is possible today: nothing released yet (version 0.0.0, no version heading, no tag link), entries under Unreleased', () => {
		const text = readFileSync(join(REPO, 'CHANGELOG.md'), 'utf8');
		expect(packageVersion()).toBe('0.0.0');
		expect(text).not.toMatch(/^## \[\d/m);
		expect(text).toMatch(/^\[Unreleased\]: \S+\/commits\/main$/m);
		const released = releaseChangelog(text, '0.1.0', packageVersion(), '2026-12-01');
		expect(released).toMatch(
			/^## \[Unreleased\]\n\n## \[0\.1\.0\] - 2026-12-01\n\nThe first release/m,
		);
		expect(released).toContain(
			`[Unreleased]: ${REPOSITORY}/compare/0.1.0...HEAD\n[0.1.0]: ${REPOSITORY}/releases/tag/0.1.0\n`,
		);
		expect(released).not.toContain('/commits/main');
	});

	it('a first release links its tag; the next one compares with the previous version', () => {
		const unreleased = `${header}## [Unreleased]\n\n### Added\n- One thing.\n\n[Unreleased]: ${REPOSITORY}/commits/main\n`;
		const first = releaseChangelog(unreleased, '0.1.0', '0.0.0', '2026-12-01');
		expect(first).toBe(
			`${header}## [Unreleased]\n\n## [0.1.0] - 2026-12-01\n\n### Added\n- One thing.\n\n` +
				`[Unreleased]: ${REPOSITORY}/compare/0.1.0...HEAD\n[0.1.0]: ${REPOSITORY}/releases/tag/0.1.0\n`,
		);
		const withNext = first.replace(
			'## [Unreleased]\n\n',
			'## [Unreleased]\n\n### Fixed\n- Another.\n\n',
		);
		expect(releaseChangelog(withNext, '0.2.0', '0.1.0', '2026-12-24')).toBe(
			`${header}## [Unreleased]\n\n## [0.2.0] - 2026-12-24\n\n### Fixed\n- Another.\n\n## [0.1.0] - 2026-12-01\n\n### Added\n- One thing.\n\n` +
				`[Unreleased]: ${REPOSITORY}/compare/0.2.0...HEAD\n[0.2.0]: ${REPOSITORY}/compare/0.1.0...0.2.0\n[0.1.0]: ${REPOSITORY}/releases/tag/0.1.0\n`,
		);
	});

	it('refuses an empty Unreleased section and a changelog without the Unreleased link', () => {
		expect(() =>
			releaseChangelog(
				`${header}## [Unreleased]\n\n[Unreleased]: ${REPOSITORY}/commits/main\n`,
				'0.1.0',
				'0.0.0',
				'd',
			),
		).toThrow('no entries under "## [Unreleased]"');
		expect(() =>
			releaseChangelog(
				`${header}## [Unreleased]\n\n- One.\n\n## [0.1.0] - d\n\n- Zero.\n`,
				'0.2.0',
				'0.1.0',
				'd',
			),
		).toThrow('"[Unreleased]: <repository>/compare/');
	});
});
