/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// docs/editor.md says what the editor shows: its search table, the trigger's place, the nodes
// without a Resource dropdown and its screenshots agree with the code.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeType } from 'n8n-workflow';

import { PANEL_SEARCH_PHRASES, ranksAmongMediaGen } from '../fixtures/panel-search-phrases';
import { searchOurNodes } from '../helpers/panel-search';

const REPO = join(__dirname, '..', '..');
const page = readFileSync(join(REPO, 'docs', 'editor.md'), 'utf8');

/** The rows of the page's search table: phrase, nodes, ranks. */
function searchTable(): Array<{ phrase: string; nodes: string[]; ranks: number[] }> {
	return [...page.matchAll(/^\| ([^|]+) \| (MediaGen [^|]+) \| ([\d, ]+) \|$/gm)].map((m) => ({
		phrase: m[1].trim(),
		nodes: m[2].split(',').map((n) => n.trim()),
		ranks: m[3].split(',').map((r) => Number(r.trim())),
	}));
}

describe('docs/editor.md', () => {
	it('shows screenshots that exist', () => {
		const images = [...page.matchAll(/\]\((images\/[^)]+)\)/g)].map((m) => m[1]);
		expect(images.length).toBeGreaterThanOrEqual(6);
		for (const image of images)
			expect({ image, exists: existsSync(join(REPO, 'docs', image)) }).toEqual({
				image,
				exists: true,
			});
	});

	it('lists every phrase the editor test searches, with the ranks n8n’s ranking gives', () => {
		const rows = searchTable();
		expect(rows.map((r) => r.phrase).sort()).toEqual(
			PANEL_SEARCH_PHRASES.map((p) => p.phrase).sort(),
		);
		for (const row of rows) {
			expect(row.nodes).toEqual(PANEL_SEARCH_PHRASES.find((p) => p.phrase === row.phrase)!.nodes);
			expect({
				phrase: row.phrase,
				ranks: ranksAmongMediaGen(searchOurNodes(row.phrase), row.nodes),
			}).toEqual({ phrase: row.phrase, ranks: row.ranks });
		}
	});

	it('places the trigger where n8n lists it for "MediaGen trigger"', () => {
		const [, place, of] = /Searching "MediaGen trigger" lists it (\d+)\w\w of (\d+)/.exec(page)!;
		const names = searchOurNodes('MediaGen trigger');
		expect({ place: names.indexOf('MediaGen Trigger') + 1, of: names.length }).toEqual({
			place: Number(place),
			of: Number(of),
		});
	});

	it('names the nodes that have no Resource dropdown', () => {
		const named = /Nodes with a single resource \(([^)]+)\)/.exec(page)![1].split(', ');
		const nodesDir = join(REPO, 'nodes');
		const hidden = readdirSync(nodesDir)
			.filter((folder) => !folder.endsWith('Trigger'))
			.flatMap((folder) => {
				// every folder under nodes/ is loaded by name
				// eslint-disable-next-line @typescript-eslint/no-require-imports -- a path known only at run time
				const loaded = require(join(nodesDir, folder, `${folder}.node.ts`)) as Record<
					string,
					new () => INodeType
				>;
				const node = new loaded[folder]();
				return node.description.properties.find((p) => p.name === 'resource')?.type === 'hidden'
					? [node.description.displayName.replace(/^MediaGen /, '')]
					: [];
			});
		expect(named.sort()).toEqual(hidden.sort());
	});
});
