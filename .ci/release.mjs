#!/usr/bin/env node
// `npm run release -- <version>`: prepares a release on main. The Unreleased section of CHANGELOG.md
// becomes <version>, package.json and the lock file take the version; `npm run release:check` (no
// placeholders left), `npm run lint` (n8n-node lint, n8n-node build, n8n's scanner on the tarball)
// and the staged package (scripts/stage-package.mjs) must pass, then one commit and the tag <version>.
// Pushing the tag makes .github/workflows/publish.yml publish to npm with a provenance statement.
// `n8n-node release` does the same steps through release-it, but rewrites CHANGELOG.md with
// auto-changelog; this project keeps a hand-written Keep a Changelog file.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { releaseChangelog } from './changelog.cjs';

const ROOT = new URL('..', import.meta.url).pathname;
const CHANGELOG = join(ROOT, 'CHANGELOG.md');

const run = (cmd, args, options = {}) =>
	execFileSync(cmd, args, { cwd: ROOT, encoding: 'utf8', ...options });
function stop(message) {
	process.stderr.write(`release: ${message}\n`);
	process.exit(1);
}

const parts = (v) => v.split(/[.-]/).slice(0, 3).map(Number);
function isNewer(next, current) {
	const [a, b] = [parts(next), parts(current)];
	for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
	return next.includes('-') === false && current.includes('-');
}

const version = process.argv[2];
if (!version || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$/.test(version))
	stop('usage: npm run release -- <version>, e.g. 0.2.0');
const current = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
if (!isNewer(version, current)) stop(`${version} is not newer than the current ${current}`);
if (run('git', ['rev-parse', '--abbrev-ref', 'HEAD']).trim() !== 'main') stop('release from main');
if (run('git', ['status', '--porcelain']).trim()) stop('commit or stash your changes first');
if (run('git', ['tag', '--list', version]).trim()) stop(`the tag ${version} exists already`);
// what a person must set before a release (author, homepage, repository, provenance): scripts/release-check.mjs
try {
	run('node', ['scripts/release-check.mjs'], { stdio: 'inherit' });
} catch {
	stop('npm run release:check failed (above); nothing was changed');
}

try {
	const date = new Date().toISOString().slice(0, 10);
	writeFileSync(
		CHANGELOG,
		releaseChangelog(readFileSync(CHANGELOG, 'utf8'), version, current, date),
	);
} catch (error) {
	stop(error.message);
}
run('npm', ['version', version, '--no-git-tag-version'], { stdio: 'inherit' });
try {
	run('npm', ['run', 'lint'], { stdio: 'inherit' });
	// the folder publish.yml publishes: dist/, README, LICENSE, package.json without scripts or devDependencies
	run('node', ['scripts/stage-package.mjs', '--scan'], { stdio: 'inherit' });
} catch {
	run('git', ['checkout', '--', 'CHANGELOG.md', 'package.json', 'package-lock.json']);
	stop('npm run lint or the staged package failed; nothing was committed');
}
run('git', ['add', 'CHANGELOG.md', 'package.json', 'package-lock.json']);
run('git', ['commit', '-m', `Release ${version}`]);
run('git', ['tag', '-a', version, '-m', `n8n-nodes-mediagen ${version}`]);
process.stdout.write(
	`\nrelease: committed and tagged ${version}. Publish it by pushing both:\n  git push origin main ${version}\n` +
		'GitHub Actions (.github/workflows/publish.yml) then runs the checks and publishes to npm with provenance.\n',
);
