/** The first cells of the document's parameter table (the fixture is a verbatim copy). */
export function documentParameterRows(markdown: string): string[] {
	return markdown
		.split('\n')
		.filter((line) => line.startsWith('| ') && !line.startsWith('| Parameter') && !line.startsWith('|---'))
		.map((line) => line.split('|')[1].trim());
}
