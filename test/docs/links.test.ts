/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// Every relative link and image of the README and the docs pages resolves: the file exists, and an
// anchor names a heading of it as GitHub writes anchors. The README points to docs/ for details, so a
// moved or renamed section must not leave a reader at a dead link.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const REPO = join(__dirname, '..', '..');

/** The pages a reader follows links from. */
function pages(): string[] {
	const docs = readdirSync(join(REPO, 'docs'))
		.filter((f) => f.endsWith('.md'))
		.map((f) => join(REPO, 'docs', f));
	return [
		join(REPO, 'README.md'),
		join(REPO, 'CONTRIBUTING.md'),
		join(REPO, 'examples', 'README.md'),
		join(REPO, 'sandbox', 'README.md'),
		...docs,
	];
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
export function anchorsOf(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const anchors = new Set<string>();
	const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
	for (const match of withoutCode.matchAll(/^#{1,6} (.+)$/gm)) {
		const base = match[1]
			.trim()
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/\s/g, '-');
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	return anchors;
}

/** Relative link targets of a markdown page (links and images), code blocks and spans left out. */
function linksOf(markdown: string): string[] {
	const text = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
	return [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
		.map((m) => m[1])
		.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('links of the README and the docs pages', () => {
	const cases = pages()
		.filter((page) => existsSync(page))
		.flatMap((page) =>
			linksOf(readFileSync(page, 'utf8')).map((target) => [relative(REPO, page), target] as const),
		);

	it('finds the links it checks', () => {
		expect(cases.length).toBeGreaterThan(20);
	});

	it.each(cases)('%s → %s resolves', (page, target) => {
		const [path, anchor] = target.split('#');
		const file = path
			? join(dirname(join(REPO, page)), decodeURIComponent(path))
			: join(REPO, page);
		expect(existsSync(file)).toBe(true);
		if (anchor) {
			expect(statSync(file).isFile()).toBe(true);
			expect([...anchorsOf(readFileSync(file, 'utf8'))]).toContain(anchor);
		}
	});
});
