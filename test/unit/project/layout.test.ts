/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// CONTRIBUTING.md's layout table is the map of the house: every room it names exists, and every room
// of the tree is on it. A folder of src/ is a concern a newcomer finds by its name.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..', '..');
const contributing = readFileSync(join(REPO, 'CONTRIBUTING.md'), 'utf8');
const section = contributing.slice(
	contributing.indexOf('## Layout'),
	contributing.indexOf('<!-- end of the layout section -->'),
);

/** The paths in the first cell of each row of the layout table. */
function tablePaths(markdown: string): string[] {
	return markdown
		.split('\n')
		.filter((line) => line.startsWith('| `'))
		.flatMap((line) => [...line.split('|')[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
}

/** Top-level folders git tracks (the tree as a clean clone has it). */
function trackedTopFolders(): string[] {
	const files = execFileSync('git', ['ls-files'], { cwd: REPO, encoding: 'utf8' })
		.split('\n')
		.filter(Boolean);
	return [...new Set(files.filter((f) => f.includes('/')).map((f) => f.split('/')[0]))].sort();
}

const srcRooms = readdirSync(join(REPO, 'src'), { withFileTypes: true })
	.filter((entry) => entry.isDirectory())
	.map((entry) => entry.name);

function filesUnder(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
	);
}

describe('CONTRIBUTING.md layout table and the tree', () => {
	const paths = tablePaths(section);

	it('reads the table (the checks below have something to check)', () => {
		expect(paths.length).toBeGreaterThan(20);
	});

	it('every path the table names exists', () => {
		// a suffix such as `.node.json` names a kind of file, not a path
		const concrete = paths.filter(
			(p) => !p.includes('<') && !p.includes('*') && (p.includes('/') || !p.startsWith('.')),
		);
		expect(concrete.filter((p) => !existsSync(join(REPO, p)))).toEqual([]);
	});

	it('every folder of src/ has its row: a room named by its concern', () => {
		expect(srcRooms.length).toBeGreaterThan(8);
		expect(srcRooms.filter((room) => !paths.includes(`src/${room}/`))).toEqual([]);
	});

	it('every top-level folder of the repository has its row', () => {
		const named = new Set(paths.map((p) => p.split('/')[0]));
		expect(trackedTopFolders().filter((folder) => !named.has(folder))).toEqual([]);
	});

	it('src/node/ is n8n glue only: at most 15 files', () => {
		expect(filesUnder(join(REPO, 'src', 'node')).length).toBeLessThanOrEqual(15);
	});

	it('the rule finds a missing room', () => {
		expect(tablePaths('| `src/ghost/` | a room nobody built | yes |')).toEqual(['src/ghost/']);
		expect(existsSync(join(REPO, 'src/ghost/'))).toBe(false);
	});
});
