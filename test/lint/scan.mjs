// n8n's package scanner, offline: the same ESLint checks @n8n/scan-community-package runs on a
// published package, here on the source tree and on the unpacked `npm pack` tarball.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = new URL('../..', import.meta.url).pathname;
let failed = false;

async function scan(label, dir, patterns) {
	const result = await analyzePackage(dir, patterns);
	if (result.passed) {
		process.stdout.write(`scanner: ${label} passed${result.message ? ` (${result.message})` : ''}\n`);
	} else {
		failed = true;
		process.stdout.write(`scanner: ${label} FAILED: ${result.message}\n${result.details ?? ''}\n`);
	}
}

await scan('source', root, SOURCE_FILE_PATTERNS);

const work = mkdtempSync(join(tmpdir(), 'mediagen-pack-'));
try {
	execFileSync('npm', ['pack', '--pack-destination', work, '--silent'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
	const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
	execFileSync('tar', ['-xzf', join(work, tarball), '-C', work]);
	const packageDir = join(work, 'package');
	const files = execFileSync('find', ['.', '-type', 'f'], { cwd: packageDir, encoding: 'utf8' }).trim().split('\n').sort();
	const unexpected = files.filter((f) => !/^\.\/(dist\/|README\.md$|LICENSE$|package\.json$)/.test(f));
	if (unexpected.length) {
		failed = true;
		process.stdout.write(`pack: files outside dist/, README, LICENSE, package.json: ${unexpected.join(', ')}\n`);
	} else {
		process.stdout.write(`pack: ${files.length} files, only dist/, README.md, LICENSE, package.json\n`);
	}
	await scan('packed tarball', packageDir, ['**/*.js', 'package.json']);
} finally {
	rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
