/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// The README's Installation, "Until it is verified" and Compatibility sections against the
// repository: the package's name, the n8n lines the hosts pin, the order users are given the ways
// to install. What n8n itself does with the variables named there is checked against n8n's code in
// test/e2e/installation-n8n.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(REPO, path), 'utf8');
const readme = read('README.md');
const pkg = JSON.parse(read('package.json')) as { name: string };

/** The text of a `## ` or `### ` section, up to the next heading of the same or a higher level. */
function section(text: string, heading: string): string {
	const start = text.indexOf(`${heading}\n`);
	if (start < 0) throw new Error(`no "${heading}" in README.md`);
	const level = heading.split(' ')[0];
	const rest = text.slice(start + heading.length + 1);
	const next = rest.search(new RegExp(`^#{2,${level.length}} `, 'm'));
	return next < 0 ? rest : rest.slice(0, next);
}

const installation = section(readme, '## Installation');
const compatibility = section(readme, '## Compatibility');
const pinOf = (hostPackageJson: string) =>
	(JSON.parse(read(hostPackageJson)) as { dependencies: { n8n: string } }).dependencies.n8n;

describe('README "Installation"', () => {
	it('gives the ways to install in the order users meet them: Settings → Community Nodes, environment variables, queue mode, Docker, the tarball', () => {
		const steps = [...installation.matchAll(/^(\d)\. \*\*([^*]+)\*\*/gm)].map((m) => [m[1], m[2]]);
		expect(steps.map(([n]) => n)).toEqual(['1', '2', '3', '4', '5']);
		const titles = steps.map(([, title]) => title);
		expect(titles[0]).toMatch(/^Settings → Community Nodes → Install$/);
		expect(titles[1]).toMatch(/environment variables/);
		expect(titles[2]).toMatch(/^Queue mode/);
		expect(titles[3]).toMatch(/^Docker/);
		expect(titles[4]).toMatch(/tarball/);
		expect(installation).toContain(`enter\n   \`${pkg.name}\``);
	});

	it("the environment-variable install: the JSON parses, names this package with a version and a checksum, and the checksum command asks npm for that version's integrity", () => {
		expect(installation).toContain('N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV=true');
		const json = /^\s*N8N_COMMUNITY_PACKAGES='([^']+)'$/m.exec(installation)?.[1];
		expect(json).toBeDefined();
		const entries = JSON.parse(json!) as Array<Record<string, string>>;
		expect(entries).toHaveLength(1);
		expect(Object.keys(entries[0]).sort()).toEqual(['checksum', 'name', 'version']);
		expect(entries[0].name).toBe(pkg.name);
		expect(entries[0].version).toMatch(/^\d+\.\d+\.\d+$/);
		expect(entries[0].checksum).toMatch(/^sha512-/);
		expect(installation).toContain(`npm view ${pkg.name}@${entries[0].version} dist.integrity`);
	});

	it('the tarball way unpacks into the folder n8n loads community packages from, under the package name', () => {
		expect(installation).toContain(`~/.n8n/nodes/node_modules/${pkg.name} --strip-components=1`);
		expect(installation).toContain('npm pack');
	});

	it('says what to do while the package is not verified: the setting, and the checksum install', () => {
		const unverified = section(readme, '### Until it is verified');
		expect(unverified).toContain('N8N_UNVERIFIED_PACKAGES_ENABLED=false');
		expect(unverified).toContain('N8N_UNVERIFIED_PACKAGES_ENABLED=true');
		expect(unverified).toMatch(/by environment variables with its checksum/);
	});
});

describe('README "Compatibility"', () => {
	const rows = [
		...compatibility.matchAll(/^\| ([\d.]+)( \(pinned\))? \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$/gm),
	].map((m) => ({
		version: m[1],
		pinned: Boolean(m[2]),
		lastRun: m[5].trim(),
	}));

	it('names the n8n the test suites pin as the pinned line, and the older line test/n8n-host-2.8 installs', () => {
		expect(rows.filter((r) => r.pinned).map((r) => r.version)).toEqual([
			pinOf('test/n8n-host/package.json'),
		]);
		expect(rows.map((r) => r.version)).toContain(pinOf('test/n8n-host-2.8/package.json'));
	});

	it('states a 1.x line the package works on, with the Node setting it needs', () => {
		expect(rows.map((r) => r.version)).toEqual(
			expect.arrayContaining([expect.stringMatching(/^1\.123\.\d+$/)]),
		);
		expect(compatibility).toContain('N8N_EXPRESSION_ENGINE=legacy');
	});

	it('gives each line the date it last ran (not in the future), or says it runs on every CI run', () => {
		const today = new Date().toISOString().slice(0, 10);
		expect(rows.length).toBeGreaterThanOrEqual(3);
		for (const { lastRun } of rows) {
			if (lastRun === 'every CI run') continue;
			expect(lastRun).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
			expect(lastRun <= today).toBe(true);
		}
	});

	it('no page turns n8n 1.x users away', () => {
		const pages = [
			'README.md',
			...readdirSync(join(REPO, 'docs'))
				.filter((f) => f.endsWith('.md'))
				.map((f) => `docs/${f}`),
		];
		const turnedAway = pages.filter((page) =>
			/n8n 1\.x is not tested|`n8n-workflow` is 2\.x/.test(read(page)),
		);
		expect(turnedAway).toEqual([]);
	});
});
