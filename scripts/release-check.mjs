#!/usr/bin/env node
// `npm run release:check [-- --root <repository>]`: what a person must set before the first release
// (CONTRIBUTING.md, "Releasing"). Fails while a placeholder remains: the author's email, the
// homepage and the repository in package.json, and the repository's address in what users read
// (the nodes' and credentials' documentation links, shown in n8n; README.md; CHANGELOG.md's links);
// also when the publish workflow would publish without a provenance statement. What cannot be
// checked from a clone (the npm side) is printed as a reminder. `npm run release` and
// .github/workflows/publish.yml run it; CI does not (the placeholders are expected until then).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The values the repository was set up with; none may be published. */
export const PLACEHOLDERS = {
	authorEmail: 'maintainers@n8n-nodes-mediagen.dev',
	repository: 'github.com/n8n-nodes-mediagen/n8n-nodes-mediagen',
};

/** Where users read the repository's address. */
const USER_FACING = ['nodes', 'credentials', 'src', 'README.md', 'CHANGELOG.md'];

/** What the npm side needs, which no file here shows. */
export const MANUAL_STEPS = [
	'npm: the package name n8n-nodes-mediagen is free or yours (`npm view n8n-nodes-mediagen` answers 404 before the first release)',
	'npm: a Trusted Publisher for this repository and the workflow publish.yml (package settings on npmjs.com; needs the package to exist, so the first publish may use a token), or a granular access token with publish rights as the repository secret NPM_TOKEN',
	'GitHub: the repository is public (npm refuses provenance from a private repository) and Actions may run publish.yml on tags',
];

function files(root, entry) {
	const path = join(root, entry);
	if (!existsSync(path)) return [];
	if (!statSync(path).isDirectory()) return [path];
	return readdirSync(path).flatMap((name) =>
		name === 'node_modules' ? [] : files(root, join(entry, name)),
	);
}

/** GitHub owner/name in an address, or undefined. */
const githubRepository = (url) =>
	/github\.com[/:]([^/\s#]+\/[^/\s#.]+?)(?:\.git)?(?:[/#].*)?$/.exec(url ?? '')?.[1];

/** Everything that still needs a person, as sentences; [] when the package may be released. */
export function releaseProblems(root) {
	const problems = [];
	const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	const author =
		typeof manifest.author === 'string' ? { name: manifest.author } : (manifest.author ?? {});
	if (!author.name) problems.push('package.json author.name: not set');
	if (!author.email)
		problems.push(
			'package.json author.email: not set (n8n asks community packages for an author email)',
		);
	else if (author.email === PLACEHOLDERS.authorEmail)
		problems.push(`package.json author.email: still the placeholder ${PLACEHOLDERS.authorEmail}`);

	const repositoryUrl =
		typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
	for (const [field, value] of [
		['homepage', manifest.homepage],
		['repository.url', repositoryUrl],
	]) {
		if (!value) problems.push(`package.json ${field}: not set`);
		else if (value.includes(PLACEHOLDERS.repository))
			problems.push(`package.json ${field}: still the placeholder ${value}`);
	}
	const [home, repo] = [githubRepository(manifest.homepage), githubRepository(repositoryUrl)];
	if (home && repo && home !== repo)
		problems.push(
			`package.json homepage (${home}) and repository.url (${repo}) name different repositories`,
		);

	const stale = USER_FACING.flatMap((entry) => files(root, entry)).filter((file) =>
		readFileSync(file, 'utf8').includes(PLACEHOLDERS.repository),
	);
	if (stale.length) {
		const shown = stale.slice(0, 5).map((file) => relative(root, file));
		problems.push(
			`${stale.length} file(s) users read still link the placeholder repository ${PLACEHOLDERS.repository}: ${shown.join(', ')}${stale.length > shown.length ? ', …' : ''}`,
		);
	}

	const workflow = join(root, '.github', 'workflows', 'publish.yml');
	const publish = existsSync(workflow) ? readFileSync(workflow, 'utf8') : '';
	if (!/^\s*id-token: write\s*$/m.test(publish))
		problems.push(
			'.github/workflows/publish.yml: no `id-token: write` permission (npm cannot sign a provenance statement without it)',
		);
	if (!/npm publish\b[^\n]*--provenance/.test(publish))
		problems.push(
			'.github/workflows/publish.yml: `npm publish` without `--provenance` (n8n requires provenance of verified community nodes)',
		);
	return problems;
}

const isMain = process.argv[1] && resolve(process.argv[1]) === new URL(import.meta.url).pathname;
if (isMain) {
	const i = process.argv.indexOf('--root');
	const root = resolve(i > 0 ? process.argv[i + 1] : new URL('..', import.meta.url).pathname);
	const problems = releaseProblems(root);
	const manual = `Set on the npm and GitHub side (not checkable from here):\n${MANUAL_STEPS.map((s) => `  - ${s}`).join('\n')}\n`;
	if (problems.length) {
		process.stderr.write(
			`release-check: ${problems.length} thing(s) to set before releasing (CONTRIBUTING.md, "Releasing"):\n${problems.map((p) => `  - ${p}`).join('\n')}\n${manual}`,
		);
		process.exit(1);
	}
	process.stdout.write(
		`release-check: no placeholders left; publish.yml publishes with provenance.\n${manual}`,
	);
}
