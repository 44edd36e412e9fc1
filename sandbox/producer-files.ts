/** Small real files for producer outputs: a one-page-per-page PDF for books, an HTML page for games and apps. */

function pdfText(text: string): string {
	return text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?');
}

/** A valid PDF with one page per entry of `pages`, each showing its line of text. */
export function makePdf(title: string, pages: string[]): Buffer {
	const objects: string[] = [];
	const pageIds = pages.map((_, i) => 4 + i * 2);
	objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
	objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
	objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
	pages.forEach((line, i) => {
		const stream = `BT /F1 14 Tf 40 760 Td (${pdfText(title)}) Tj 0 -24 Td (${pdfText(line)}) Tj ET`;
		objects[pageIds[i]] =
			`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[i] + 1} 0 R >>`;
		objects[pageIds[i] + 1] =
			`<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`;
	});
	let out = '%PDF-1.4\n';
	const offsets: number[] = [];
	for (let id = 1; id < objects.length; id++) {
		offsets[id] = Buffer.byteLength(out);
		out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
	}
	const xref = Buffer.byteLength(out);
	out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
	for (let id = 1; id < objects.length; id++)
		out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
	out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.from(out, 'latin1');
}

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page of a game or app build. */
export function makeHtml(
	kind: 'game' | 'app',
	id: string,
	version: number,
	prompt: string,
): Buffer {
	return Buffer.from(
		`<!doctype html>\n<html><head><meta charset="utf-8"><title>${kind} ${id} v${version}</title></head>` +
			`<body data-${kind}-id="${id}" data-version="${version}"><h1>${escapeHtml(prompt)}</h1><canvas id="stage" width="320" height="240"></canvas></body></html>\n`,
		'utf8',
	);
}
