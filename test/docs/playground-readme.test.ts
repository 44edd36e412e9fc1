/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// The README's "Try it in n8n" promises what `npm start` prints: the same time ranges, and a sample
// of the ready line in the shape the playground writes it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(REPO, path), 'utf8');
const readme = read('README.md');
const tryIt = readme.slice(
	readme.indexOf('### Try it in n8n: `npm start`'),
	readme.indexOf('### Your first five minutes'),
);
/** What npm start prints about time: the playground's own lines and the installer's "This happens once" line. */
const printed =
	read('scripts/playground/playground.mjs') +
	/This happens once[^`]*/.exec(read('test/n8n-host/install.mjs'))![0];

/** "4–15 minutes", "10–30 s", "15 s to 1 min": the ranges a text promises. */
const ranges = (text: string) =>
	[
		...new Set(
			[...text.matchAll(/\b\d+–\d+ (?:minutes|min|s)\b|\b\d+ s to \d+ min\b/g)].map((m) =>
				m[0].replace(' minutes', ' min'),
			),
		),
	].sort();

describe('README "Try it in n8n" and what npm start prints', () => {
	it('promise the same time ranges (first install, first start, later starts)', () => {
		expect(ranges(printed)).toEqual(['10–30 s', '15 s to 1 min', '4–15 min']);
		expect(ranges(tryIt)).toEqual(ranges(printed));
	});

	it('shows the ready line as the playground writes it', () => {
		const template =
			/`n8n \$\{n8nVersion\} is running with the MediaGen nodes \(n8n ready in \$\{[^`]+\} s; all set up in \$\{elapsed\(started\)\}\)\.`/;
		expect(read('scripts/playground/playground.mjs')).toMatch(template);
		expect(tryIt).toMatch(
			/^n8n \d+\.\d+\.\d+ is running with the MediaGen nodes \(n8n ready in \d+\.\d s; all set up in \d+ s\)\.$/m,
		);
	});
});
