// The one change `npm run release` makes to CHANGELOG.md, apart from the side effects, so that a unit
// test (test/unit/project/release-changelog.test.ts) can hold it. CommonJS: jest requires it as it is.

/**
 * CHANGELOG.md with the Unreleased entries moved under `version`, and the links updated: the first
 * release (no earlier version heading) links to its tag, later ones compare with `previous`.
 */
function releaseChangelog(text, version, previous, date) {
	const unreleased = text.match(/^## \[Unreleased\]\n([\s\S]*?)(?=^## \[|^\[Unreleased\]: )/m);
	if (!unreleased || !/^- /m.test(unreleased[1]))
		throw new Error('CHANGELOG.md has no entries under "## [Unreleased]"');
	const repository = text.match(/^\[Unreleased\]: (\S+?)\/(?:compare|commits)\//m)?.[1];
	if (!repository)
		throw new Error(
			'CHANGELOG.md has no "[Unreleased]: <repository>/compare/..." (or ".../commits/...") link',
		);
	const firstRelease = !/^## \[\d/m.test(text);
	const versionLink = firstRelease
		? `${repository}/releases/tag/${version}`
		: `${repository}/compare/${previous}...${version}`;
	const body = unreleased[1].replace(/\n+$/, '\n');
	return text
		.replace(unreleased[0], `## [Unreleased]\n\n## [${version}] - ${date}\n${body}\n`)
		.replace(
			/^\[Unreleased\]: .*$/m,
			`[Unreleased]: ${repository}/compare/${version}...HEAD\n[${version}]: ${versionLink}`,
		);
}

module.exports = { releaseChangelog };
