/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// The Chromium the editor suite (editor.test.ts) drives, and what a machine without one is told.
// Where it comes from, in order: CHROMIUM_PATH (and only that, when set); the system's
// /usr/bin/chromium or `chromium` on PATH (Debian's, as .ci/run installs it); else, on Linux, the
// Chromium the devDependency @sparticuz/chromium carries inside its npm package, unpacked once by
// the e2e global setup (useNpmChromium), which then sets CHROMIUM_PATH for the test files.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The command the skip message names: Debian's Chromium, as .ci/run installs it. */
export const INSTALL_CHROMIUM = 'apt-get install -y --no-install-recommends chromium';
/** CI sets it: no Chromium fails the editor suite instead of skipping it (as MEDIAGEN_REQUIRE_N8N does for n8n). */
export const REQUIRE_CHROMIUM_ENV = 'MEDIAGEN_REQUIRE_CHROMIUM';
/** The npm package that carries a Chromium (Linux x64 and arm64). */
export const NPM_CHROMIUM = '@sparticuz/chromium';

const isExecutable = (path: string) => {
	try {
		accessSync(path, constants.X_OK);
		return true;
	} catch {
		return false;
	}
};

/**
 * The Chromium the editor suite drives: CHROMIUM_PATH when set (and only that), else
 * /usr/bin/chromium, else `chromium` on PATH. `missing` says where it looked.
 */
export function findChromium(
	env: NodeJS.ProcessEnv = process.env,
): { path: string } | { missing: string } {
	if (env.CHROMIUM_PATH) {
		return isExecutable(env.CHROMIUM_PATH)
			? { path: env.CHROMIUM_PATH }
			: { missing: `CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file` };
	}
	const candidates = [
		'/usr/bin/chromium',
		...(env.PATH ?? '')
			.split(delimiter)
			.filter(Boolean)
			.map((dir) => join(dir, 'chromium')),
	];
	const found = candidates.find(isExecutable);
	return found
		? { path: found }
		: {
				missing: `neither /usr/bin/chromium nor \`chromium\` on PATH exists, CHROMIUM_PATH is not set, and no ${NPM_CHROMIUM} could be unpacked`,
			};
}

/** Why the editor suite cannot run here, and what to do: the skip message (or the error under MEDIAGEN_REQUIRE_CHROMIUM=1). */
export const noChromiumMessage = (missing: string) =>
	`No Chromium for the editor end-to-end suite (test/e2e/editor.test.ts): ${missing}. ` +
	`Install one with \`${INSTALL_CHROMIUM}\` (as root; Debian/Ubuntu), or set CHROMIUM_PATH to a Chromium or Chrome binary. ` +
	`${REQUIRE_CHROMIUM_ENV}=1 (set by .ci/run's test stage) makes this an error instead of a skip.`;

/**
 * When no Chromium is found and CHROMIUM_PATH is not set: unpacks the one @sparticuz/chromium
 * carries (Linux only; into the system's temporary folder, once per machine) and sets CHROMIUM_PATH
 * to it. Returns what it did, for the setup's log; never throws (the suite then skips or fails as
 * findChromium says).
 */
export async function useNpmChromium(say: (message: string) => void): Promise<void> {
	if (process.env.CHROMIUM_PATH || !('missing' in findChromium())) return;
	if (process.platform !== 'linux')
		return say(`no system Chromium, and ${NPM_CHROMIUM} carries one for Linux only`);
	let entry: string;
	try {
		entry = require.resolve(NPM_CHROMIUM);
	} catch {
		return say(
			`no system Chromium, and ${NPM_CHROMIUM} is not installed (npm install installs it)`,
		);
	}
	try {
		// ESM-only package: imported for real (ts-jest would turn import() into require())
		const importEsm = new Function('specifier', 'return import(specifier)') as (
			specifier: string,
		) => Promise<{ default: { executablePath(): Promise<string> } }>;
		const started = Date.now();
		const path = await (await importEsm(pathToFileURL(entry).href)).default.executablePath();
		process.env.CHROMIUM_PATH = path;
		say(
			`the editor suite uses ${NPM_CHROMIUM}'s Chromium (${path}, ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
		);
	} catch (error) {
		say(`${NPM_CHROMIUM} could not unpack its Chromium: ${(error as Error).message}`);
	}
}
