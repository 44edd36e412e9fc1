// Markdown tables of StrykerJS JSON reports: scores per folder and per file, then every surviving
// and uncovered mutant with its line. Usage: node test/mutation/summary.mjs [report.json ...]
// (default: reports/mutation/mutation.json). Several reports (runs over parts of the code) are merged.
import { readFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

const reports = process.argv.slice(2);
if (reports.length === 0) reports.push('reports/mutation/mutation.json');

const COUNTED = ['Killed', 'Timeout', 'Survived', 'NoCoverage'];
const files = new Map();
for (const report of reports) {
	const { files: reported } = JSON.parse(readFileSync(report, 'utf8'));
	for (const [path, file] of Object.entries(reported))
		files.set(relative(process.cwd(), path) || path, file);
}

function tally(mutants) {
	const count = {
		Killed: 0,
		Survived: 0,
		NoCoverage: 0,
		Timeout: 0,
		CompileError: 0,
		RuntimeError: 0,
		Ignored: 0,
	};
	for (const m of mutants) count[m.status] = (count[m.status] ?? 0) + 1;
	const detected = count.Killed + count.Timeout;
	const valid = COUNTED.reduce((sum, status) => sum + count[status], 0);
	const covered = valid - count.NoCoverage;
	return {
		...count,
		score: valid ? ((100 * detected) / valid).toFixed(1) : 'n/a',
		coveredScore: covered ? ((100 * detected) / covered).toFixed(1) : 'n/a',
	};
}

const header =
	'| | killed | survived | no coverage | timeout | compile error | score | score of covered |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |';
const row = (name, t) =>
	`| ${name} | ${t.Killed} | ${t.Survived} | ${t.NoCoverage} | ${t.Timeout} | ${t.CompileError} | ${t.score} % | ${t.coveredScore} % |`;

const all = [...files.entries()].sort(([a], [b]) => a.localeCompare(b));
const byFolder = new Map();
for (const [path, file] of all) {
	const folder = dirname(path);
	byFolder.set(folder, [...(byFolder.get(folder) ?? []), ...file.mutants]);
}

console.log('### Per folder\n');
console.log(header);
for (const [folder, mutants] of byFolder) console.log(row(folder, tally(mutants)));
console.log(row('**all**', tally(all.flatMap(([, file]) => file.mutants))));

console.log('\n### Per file\n');
console.log(header);
for (const [path, file] of all) console.log(row(path, tally(file.mutants)));

console.log('\n### Surviving and uncovered mutants\n');
for (const [path, file] of all) {
	const lines = file.source.split('\n');
	const left = file.mutants
		.filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
		.sort((a, b) => a.location.start.line - b.location.start.line);
	if (left.length === 0) continue;
	console.log(`- **${path}**`);
	for (const m of left) {
		const { start, end } = m.location;
		const original =
			start.line === end.line
				? lines[start.line - 1].slice(start.column - 1, end.column - 1)
				: `${lines[start.line - 1].slice(start.column - 1)} …`;
		const shorten = (text) =>
			(text.length > 90 ? `${text.slice(0, 87)}…` : text).replace(/\s+/g, ' ');
		console.log(
			`  - ${m.status === 'NoCoverage' ? 'no coverage' : 'survived'} L${start.line} ${m.mutatorName}: \`${shorten(original)}\` → \`${shorten(m.replacement ?? '')}\``,
		);
	}
}
