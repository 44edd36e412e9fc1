/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// What the README's Installation and "Until it is verified" sections say n8n does, read in the code
// of the n8n the suite pins (test/n8n-host): the variables exist, the JSON has n8n's shape, the
// checksum is the registry's dist.integrity, a checksum lets an unverified package in, the
// environment list is applied by `n8n start` only, and workers reinstall what the database lists.
// The README's own consistency (order, package name, pinned line) is test/docs/installation.test.ts.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { describeWithN8n, HOST_DIR, REPO } from './state';

const N8N = join(HOST_DIR, 'node_modules', 'n8n');
const CONFIG = join(HOST_DIR, 'node_modules', '@n8n', 'config', 'dist');
const dist = (path: string) => readFileSync(join(N8N, 'dist', path), 'utf8');
const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
const installText = readme.slice(
	readme.indexOf('## Installation\n'),
	readme.indexOf('## Quick start\n'),
);

function jsFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return jsFiles(path);
		return name.endsWith('.js') ? [path] : [];
	});
}

/** Every variable n8n reads through its config decorators: `Env)('N8N_…'`. */
function declaredVariables(): Set<string> {
	const files = [
		...jsFiles(CONFIG),
		...jsFiles(join(N8N, 'dist', 'modules', 'community-packages')),
	];
	const names = files.flatMap((file) =>
		[...readFileSync(file, 'utf8').matchAll(/Env\)\('([A-Z0-9_]+)'/g)].map((m) => m[1]),
	);
	return new Set(names);
}

// The pinned n8n's code; another line (MEDIAGEN_N8N_HOST) may not have the pinned one installed.
const describeOnPinned = process.env.MEDIAGEN_N8N_HOST ? describe.skip : describeWithN8n;

describeOnPinned("the README's installation sections against the code of the pinned n8n", () => {
	const version = () =>
		(JSON.parse(readFileSync(join(N8N, 'package.json'), 'utf8')) as { version: string }).version;

	it('is the n8n the README calls pinned', () => {
		expect(existsSync(join(N8N, 'dist'))).toBe(true);
		expect(readme).toContain(`| ${version()} (pinned) |`);
	});

	it('every N8N_ variable the Installation sections name is one n8n reads', () => {
		const named = [
			...new Set([...installText.matchAll(/\bN8N_[A-Z0-9_]+/g)].map((m) => m[0])),
		].sort();
		expect(named).toEqual(
			expect.arrayContaining([
				'N8N_COMMUNITY_PACKAGES',
				'N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV',
				'N8N_REINSTALL_MISSING_PACKAGES',
				'N8N_UNVERIFIED_PACKAGES_ENABLED',
			]),
		);
		const declared = declaredVariables();
		// N8N_USER_FOLDER is read by n8n-core's instance settings, not a config decorator
		expect(named.filter((name) => !declared.has(name) && name !== 'N8N_USER_FOLDER')).toEqual([]);
	});

	it("the README's N8N_COMMUNITY_PACKAGES entry has exactly the fields n8n's schema allows (a strict object), and a checksum needs a version", () => {
		const loader = dist(
			'instance-settings-loader/loaders/community-packages.instance-settings-loader.js',
		);
		const schema =
			/const envPackageSchema = zod_1\.z\s*\.object\(\{([^}]+)\}\)\s*\.strict\(\)/.exec(loader);
		expect(schema).not.toBeNull();
		const fields = [...schema![1].matchAll(/(\w+): zod_1/g)].map((m) => m[1]).sort();
		const entry = (
			JSON.parse(/N8N_COMMUNITY_PACKAGES='([^']+)'/.exec(installText)![1]) as Array<
				Record<string, string>
			>
		)[0];
		expect(Object.keys(entry).sort()).toEqual(fields);
		expect(loader).toContain('checksum requires a version');
	});

	it("the checksum is compared with the registry's dist.integrity of that version (what `npm view … dist.integrity` prints)", () => {
		const npmUtils = dist('modules/community-packages/npm-utils.js');
		expect(npmUtils).toMatch(
			/const integrity = metadata\?\.dist\?\.integrity;\s*if \(integrity !== expectedIntegrity\)/,
		);
		expect(installText).toMatch(/npm view n8n-nodes-mediagen@[\d.]+ dist\.integrity/);
	});

	it('with unverified packages disabled, n8n refuses an install without a checksum with the message the README quotes, and lets one with a checksum in', () => {
		const service = dist('modules/community-packages/community-packages.service.js');
		const refusal =
			/if \(!this\.config\.unverifiedEnabled && !checksumProvided\) \{\s*throw new n8n_workflow_1\.UnexpectedError\('([^']+)'\)/.exec(
				service,
			);
		expect(refusal).not.toBeNull();
		expect(readme).toContain(`("${refusal![1]}")`);
		// the default the README gives for this n8n
		expect(
			readFileSync(
				join(N8N, 'dist', 'modules', 'community-packages', 'community-packages.config.js'),
				'utf8',
			),
		).toContain('this.unverifiedEnabled = true;');
		expect(readme).toContain('`N8N_UNVERIFIED_PACKAGES_ENABLED=true` (the default in n8n 2.41)');
		expect(version()).toMatch(/^2\.41\./);
	});

	it('the environment list is applied by `n8n start` only; workers and webhook processes reinstall what the database lists when N8N_REINSTALL_MISSING_PACKAGES is set', () => {
		const commands = readdirSync(join(N8N, 'dist', 'commands')).filter((f) => f.endsWith('.js'));
		const applying = commands.filter((f) =>
			dist(`commands/${f}`).includes('InstanceSettingsLoaderService'),
		);
		expect(applying).toEqual(['start.js']);
		expect(installText).toContain('`N8N_COMMUNITY_PACKAGES` is applied by `n8n start` only.');
		for (const command of ['worker.js', 'webhook.js'])
			expect(dist(`commands/${command}`)).toContain('this.needsCommunityPackages = true;');
		const service = dist('modules/community-packages/community-packages.service.js');
		expect(service).toMatch(
			/async init\(\) \{\s*await this\.ensurePackageJson\(\);\s*await this\.checkForMissingPackages\(\);/,
		);
		expect(service).toMatch(
			/const \{ reinstallMissing \} = this\.config;\s*if \(reinstallMissing\)/,
		);
	});

	it("a reinstall of a missing package takes its checksum only from n8n's verified list, so an unverified package is reinstalled only while unverified packages are enabled", () => {
		const service = dist('modules/community-packages/community-packages.service.js');
		const reinstall = service.slice(
			service.indexOf('async checkForMissingPackages()'),
			service.indexOf('async installPackage('),
		);
		expect(reinstall).toMatch(/const vettedPackage = vettedPackages\.find\(/);
		expect(reinstall).toMatch(/checksum = vettedPackage\.checksum;/);
		expect(reinstall).toContain(
			'await this.installPackage(missingPackage.packageName, missingPackage.version, checksum);',
		);
		expect(readme).toContain(
			'`N8N_REINSTALL_MISSING_PACKAGES` (queue-mode workers, Docker) reinstalls it only while unverified\npackages are enabled',
		);
	});

	it('n8n warns that the default of N8N_UNVERIFIED_PACKAGES_ENABLED changes, and its 3.0 check says unverified packages then stop loading', () => {
		expect(dist('deprecation/deprecation.service.js')).toMatch(
			/envVar: 'N8N_UNVERIFIED_PACKAGES_ENABLED',\s*message: 'The default for this variable will change to `false`/,
		);
		expect(dist('modules/breaking-changes/rules/v3/unverified-packages.rule.js')).toContain(
			'Installed community packages that are not verified by n8n will stop loading unless the variable is explicitly set to true.',
		);
	});
});
