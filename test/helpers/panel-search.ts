/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// The node panel's search as n8n 2.41.1's editor ranks it, on our nodes' names and codex aliases.
// n8n-editor-ui bundles @n8n/utils' sublimeSearch (names weigh 1.3, aliases 1; a node's best-scoring
// string counts; ties keep n8n's order: action nodes, then triggers) and first drops a last word
// that begins "trigger" ("MediaGen trigger" is searched as "mediagen": searchNodes in
// nodeCreator.utils.ts). The real editor gave the same ranks (test/e2e/editor.test.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { sublimeSearch } from '@n8n/utils/search/sublime-search';
import type { INodeType } from 'n8n-workflow';

const NODES = join(__dirname, '..', '..', 'nodes');

interface PanelItem {
	key: string;
	properties: { displayName: string; codex: { alias: string[] } };
}

/** Our nodes as the panel searches them: action nodes first, then the trigger (n8n's merged list). */
function panelItems(): PanelItem[] {
	const folders = readdirSync(NODES).sort();
	return [
		...folders.filter((f) => !f.endsWith('Trigger')),
		...folders.filter((f) => f.endsWith('Trigger')),
	].map((folder) => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- every folder under nodes/ is loaded by name
		const module = require(join(NODES, folder, `${folder}.node.ts`)) as Record<
			string,
			new () => INodeType
		>;
		const { alias } = JSON.parse(
			readFileSync(join(NODES, folder, `${folder}.node.json`), 'utf8'),
		) as { alias: string[] };
		return {
			key: folder,
			properties: { displayName: new module[folder]().description.displayName, codex: { alias } },
		};
	});
}

/** The editor's query: a last word that begins "trigger" is dropped when there are several words. */
export function panelQuery(term: string): string {
	const words = term.split(' ');
	const last = words[words.length - 1].toLowerCase();
	return (
		words.length > 1 && 'trigger'.startsWith(last)
			? words.slice(0, -1).filter(Boolean).join(' ').trimEnd()
			: term
	).toLowerCase();
}

let items: PanelItem[] | undefined;

/** The names of our nodes the panel lists for `term`, in its order. */
export function searchOurNodes(term: string): string[] {
	items ??= panelItems();
	return sublimeSearch(panelQuery(term), items).map(
		(r) => (r.item as PanelItem).properties.displayName,
	);
}
