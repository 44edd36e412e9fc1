/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { readFileSync } from 'node:fs';

import type { FieldSpec } from '../../src/catalog';
import {
	documentEnumerations,
	documentNames,
	documentParameterRows,
} from '../../scripts/docs/document-parameters';
import {
	NOT_SENT,
	parameterFields,
	parameterTableMarkdown,
	parameterUses,
} from '../../scripts/docs/parameter-table';

const fixture = readFileSync('test/fixtures/generation-parameters.md', 'utf8');
const rows = documentParameterRows(fixture);
const enumerations = documentEnumerations(fixture);

/** What a field offers: its fixed options, or the model limit its choices are loaded from. */
function offer(field: FieldSpec): { values?: string[]; fromModel?: string[] } {
	if (field.limit?.kind === 'oneOf' && !field.options) return { fromModel: field.limit.keys };
	return { values: (field.options ?? []).map((o) => String(o.value)).filter((v) => v !== '') };
}

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
		for (const near of ['mode', 'image_url_list', 'durationSeconds', 'resolution_name'])
			expect(parameterUses().has(near) && !documented.has(near)).toBe(false);
	});

	it('reads the allowed values of every parameter whose "Type / allowed values" cell enumerates them', () => {
		expect([...enumerations.keys()].sort()).toEqual([
			'control_mode',
			'edit_precision',
			'extend_output',
			'modes',
			'quality',
			'task',
			'tiling_mode',
		]);
		expect(enumerations.get('quality')).toEqual({
			values: ['low', 'medium', 'high'],
			listKey: 'qualities',
		});
		expect(enumerations.get('edit_precision')).toEqual({
			values: ['regular', 'high'],
			listKey: 'edit_precisions',
		});
		expect(enumerations.get('modes')).toEqual({ values: ['precise', 'creative'] });
	});

	it.each([...enumerations])(
		'offers for %s exactly the values the document enumerates, or the model list the document names',
		(name, documented) => {
			const fields = parameterFields().get(name) ?? [];
			expect(fields.length).toBeGreaterThan(0);
			for (const field of fields) {
				const offered = offer(field);
				if (offered.fromModel) {
					// loaded from the model: from the list the document names (`modes` is the parameter's own limit key, document: Limits)
					expect(offered.fromModel).toContain(documented.listKey ?? name);
				} else {
					expect({ name, values: offered.values!.sort() }).toEqual({
						name,
						values: [...documented.values].sort(),
					});
				}
			}
		},
	);

	it('is what docs/parameters.md says (run `npm run docs` when this fails)', () => {
		expect(readFileSync('docs/parameters.md', 'utf8')).toBe(parameterTableMarkdown(rows));
	});
});
