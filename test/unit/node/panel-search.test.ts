// The node panel's search as n8n 2.41.1 ranks it (test/helpers/panel-search.ts), on every phrase
// users type: a quick check of each alias edit (the real editor: test/e2e/editor.test.ts).
import {
	foundWhereUsersLook,
	PANEL_SEARCH_PHRASES,
	ranksAmongMediaGen,
} from '../../fixtures/panel-search-phrases';
import { panelQuery, searchOurNodes as search } from '../../helpers/panel-search';

describe('the node panel finds the node for what users type (n8n 2.41.1 ranking)', () => {
	it.each(PANEL_SEARCH_PHRASES.map((p) => [p.phrase, p.nodes] as const))(
		'"%s" → %j first or second among the MediaGen results',
		(phrase, nodes) => {
			const names = search(phrase);
			expect({
				phrase,
				ranks: ranksAmongMediaGen(names, nodes),
				found: foundWhereUsersLook(ranksAmongMediaGen(names, nodes)),
			}).toEqual({
				phrase,
				ranks: expect.any(Array),
				found: true,
			});
		},
	);

	it('searches "MediaGen trigger" as "MediaGen": n8n drops the last word, so every MediaGen node matches it', () => {
		expect(panelQuery('MediaGen trigger')).toBe('mediagen');
		expect(panelQuery('MediaGen Trig')).toBe('mediagen');
		expect(search('MediaGen trigger')).toEqual(search('MediaGen'));
		expect(search('MediaGen trigger')).toContain('MediaGen Trigger');
	});
});
