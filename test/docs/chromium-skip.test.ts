/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// The editor suite's Chromium: where it is looked for, the message a machine without one gets, and
// that the README, docs/testing.md and .ci/run name the same install command and CI's switch.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	findChromium,
	INSTALL_CHROMIUM,
	noChromiumMessage,
	NPM_CHROMIUM,
	REQUIRE_CHROMIUM_ENV,
} from '../e2e/chromium';

const REPO = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(REPO, path), 'utf8');

describe('the Chromium the editor suite drives', () => {
	let dir: string;
	beforeAll(() => {
		dir = mkdtempSync(join(tmpdir(), 'mediagen-chromium-'));
		writeFileSync(join(dir, 'chromium'), '#!/bin/sh\n');
		chmodSync(join(dir, 'chromium'), 0o755);
		writeFileSync(join(dir, 'not-executable'), '');
	});
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it('is CHROMIUM_PATH when that is an executable file, and nothing else when it is set but missing', () => {
		expect(findChromium({ CHROMIUM_PATH: join(dir, 'chromium'), PATH: '' })).toEqual({
			path: join(dir, 'chromium'),
		});
		expect(findChromium({ CHROMIUM_PATH: join(dir, 'missing'), PATH: dir })).toEqual({
			missing: `CHROMIUM_PATH=${join(dir, 'missing')} is not an executable file`,
		});
		expect(findChromium({ CHROMIUM_PATH: join(dir, 'not-executable'), PATH: dir })).toHaveProperty(
			'missing',
		);
	});

	it('else /usr/bin/chromium, else `chromium` on PATH; else it says where it looked', () => {
		const system = existsSync('/usr/bin/chromium');
		expect(findChromium({ PATH: `/nonexistent:${dir}` })).toEqual({
			path: system ? '/usr/bin/chromium' : join(dir, 'chromium'),
		});
		if (!system)
			expect(findChromium({ PATH: '/nonexistent' })).toEqual({
				missing: expect.stringContaining('/usr/bin/chromium'),
			});
	});

	it('the message names the command that installs one and the variable that makes it an error', () => {
		const message = noChromiumMessage('nothing here');
		expect(message).toContain('`apt-get install -y --no-install-recommends chromium`');
		expect(message).toContain(`${REQUIRE_CHROMIUM_ENV}=1`);
		expect(message).toContain('CHROMIUM_PATH');
	});

	it('the npm package that carries a Chromium is a devDependency, and the README and docs/testing.md name it', () => {
		const manifest = JSON.parse(read('package.json')) as {
			devDependencies: Record<string, string>;
		};
		expect(manifest.devDependencies).toHaveProperty([NPM_CHROMIUM]);
		expect(read('README.md')).toContain(`\`${NPM_CHROMIUM}\``);
		expect(read('docs/testing.md')).toContain(`\`${NPM_CHROMIUM}\``);
	});

	it('the README, docs/testing.md and .ci/run name the same command; CI requires Chromium as it requires n8n', () => {
		expect(read('README.md')).toContain(`\`${INSTALL_CHROMIUM}\``);
		expect(read('docs/testing.md')).toContain(`\`${INSTALL_CHROMIUM}\``);
		const ci = read('.ci/run');
		expect(ci).toContain(INSTALL_CHROMIUM);
		expect(ci).toMatch(
			new RegExp(`^\\s*MEDIAGEN_REQUIRE_N8N=1 ${REQUIRE_CHROMIUM_ENV}=1 npm test$`, 'm'),
		);
	});
});
