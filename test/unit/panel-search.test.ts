/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// The node panel's search as n8n 2.41.1's editor ranks it, run on our nodes' names and codex aliases:
// a quick check of every alias edit (the real editor is test/e2e/editor.test.ts, which measured the
// same ranks). n8n-editor-ui bundles @n8n/utils' sublimeSearch (names weigh 1.3, aliases 1; the
// best-scoring string of a node counts) and first drops a last word that begins "trigger"
// ("MediaGen trigger" is searched as "mediagen": searchNodes in nodeCreator.utils.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { sublimeSearch } from '@n8n/utils/search/sublime-search';
import type { INodeType } from 'n8n-workflow';

import { foundWhereUsersLook, PANEL_SEARCH_PHRASES, ranksAmongMediaGen } from '../fixtures/panel-search-phrases';

const NODES = join(__dirname, '..', '..', 'nodes');

interface PanelItem {
	key: string;
	properties: { displayName: string; codex: { alias: string[] } };
}

/** Our nodes as the panel searches them: action nodes first, then the trigger (n8n's merged list). */
function panelItems(): PanelItem[] {
	const folders = readdirSync(NODES).sort();
	return [...folders.filter((f) => !f.endsWith('Trigger')), ...folders.filter((f) => f.endsWith('Trigger'))].map((folder) => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- every folder under nodes/ is loaded by name
		const module = require(join(NODES, folder, `${folder}.node.ts`)) as Record<string, new () => INodeType>;
		const { alias } = JSON.parse(readFileSync(join(NODES, folder, `${folder}.node.json`), 'utf8')) as { alias: string[] };
		return { key: folder, properties: { displayName: new module[folder]().description.displayName, codex: { alias } } };
	});
}

/** The editor's query: a last word that begins "trigger" is dropped when there are several words. */
function panelQuery(term: string): string {
	const words = term.split(' ');
	const last = words[words.length - 1].toLowerCase();
	return (words.length > 1 && 'trigger'.startsWith(last) ? words.slice(0, -1).filter(Boolean).join(' ').trimEnd() : term).toLowerCase();
}

const ITEMS = panelItems();
const search = (term: string) => sublimeSearch(panelQuery(term), ITEMS).map((r) => (r.item as PanelItem).properties.displayName);

describe('the node panel finds the node for what users type (n8n 2.41.1 ranking)', () => {
	it.each(PANEL_SEARCH_PHRASES.map((p) => [p.phrase, p.nodes] as const))('"%s" → %j first or second among the MediaGen results', (phrase, nodes) => {
		const names = search(phrase);
		expect({ phrase, ranks: ranksAmongMediaGen(names, nodes), found: foundWhereUsersLook(ranksAmongMediaGen(names, nodes)) }).toEqual({
			phrase,
			ranks: expect.any(Array),
			found: true,
		});
	});

	it('searches "MediaGen trigger" as "MediaGen": n8n drops the last word, so every MediaGen node matches it', () => {
		expect(panelQuery('MediaGen trigger')).toBe('mediagen');
		expect(panelQuery('MediaGen Trig')).toBe('mediagen');
		expect(search('MediaGen trigger')).toEqual(search('MediaGen'));
		expect(search('MediaGen trigger')).toContain('MediaGen Trigger');
	});
});
