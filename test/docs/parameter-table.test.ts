/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { readFileSync } from 'node:fs';

import { documentParameterRows } from '../tools/document-parameters';
import { documentNames, NOT_SENT, parameterTableMarkdown, parameterUses } from '../tools/parameter-table';

const fixture = readFileSync('test/fixtures/generation-parameters.md', 'utf8');
const rows = documentParameterRows(fixture);

describe("the package against the document's generation parameters", () => {
	it('reads the whole table of the document (fixture copied verbatim)', () => {
		expect(rows).toHaveLength(33);
		expect(rows[0]).toBe('model');
		expect(rows.at(-1)).toBe('quote_token');
	});

	it('sends every parameter the document names, under that name, except the ones it says why not', () => {
		const uses = parameterUses();
		const names = rows.flatMap(documentNames);
		const unsent = names.filter((name) => !uses.has(name));
		expect(unsent.sort()).toEqual(Object.keys(NOT_SENT).sort());
	});

	it('sends no parameter under a name the document spells otherwise (e.g. mode for modes)', () => {
		const documented = new Set(rows.flatMap(documentNames));
		for (const near of ['mode', 'image_url_list', 'durationSeconds', 'resolution_name']) expect(parameterUses().has(near) && !documented.has(near)).toBe(false);
	});

	it('is what docs/parameters.md says (run `npm run docs` when this fails)', () => {
		expect(readFileSync('docs/parameters.md', 'utf8')).toBe(parameterTableMarkdown(rows));
	});
});
