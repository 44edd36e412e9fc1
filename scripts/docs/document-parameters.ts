/** The document's parameter table (the fixture is a verbatim copy), one entry per row. */
function tableRows(markdown: string): string[][] {
	return markdown
		.split('\n')
		.filter(
			(line) =>
				line.startsWith('| ') && !line.startsWith('| Parameter') && !line.startsWith('|---'),
		)
		.map((line) =>
			line
				.split('|')
				.slice(1, -1)
				.map((cell) => cell.trim()),
		);
}

/** The first cells of the document's parameter table. */
export function documentParameterRows(markdown: string): string[] {
	return tableRows(markdown).map(([parameter]) => parameter);
}

/** The names a row of the document's parameter table gives (`resolution / resolutions`, `a, b`). */
export function documentNames(cell: string): string[] {
	return cell
		.split(/[,/]/)
		.map((n) => n.trim())
		.filter(Boolean);
}

/** Values the document enumerates for a parameter, and the model limit that lists them where it names one. */
export interface DocumentEnumeration {
	values: string[];
	listKey?: string;
}

/** Only a part that is nothing but backticked values ("`a`, `b` or `c`", maybe "where the model lists `key`") enumerates. */
const ENUMERATION = /^(`[^`]+`(?:(?:, | or )`[^`]+`)*)(?: where the model lists `([^`]+)`)?$/;
const LIST_KEY = /where the model lists `([^`]+)`/;

/**
 * The parameters whose "Type / allowed values" cell enumerates their values. A row naming several
 * parameters gives one `;`-separated part to each (`control_mode, control_scale` → `canny`, … ; number);
 * a part that says more than the values ("some models also accept `auto`") enumerates nothing.
 */
export function documentEnumerations(markdown: string): Map<string, DocumentEnumeration> {
	const found = new Map<string, DocumentEnumeration>();
	for (const [parameter, type, meaning] of tableRows(markdown)) {
		const names = documentNames(parameter);
		const parts = type.split(';').map((p) => p.trim());
		const paired =
			names.length === parts.length
				? names.map((name, i) => [name, parts[i]])
				: names.length === 1
					? [[names[0], type]]
					: [];
		for (const [name, part] of paired) {
			const match = ENUMERATION.exec(part);
			if (!match) continue;
			const values = [...match[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
			const listKey = match[2] ?? LIST_KEY.exec(meaning ?? '')?.[1];
			found.set(name, { values, ...(listKey ? { listKey } : {}) });
		}
	}
	return found;
}
