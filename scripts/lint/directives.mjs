// What `eslint-disable` comments may say, so that passing `n8n-node lint` means what it should.
// - Shipped code (what tsconfig.json compiles: nodes/, credentials/, src/) carries none at all: it
//   passes every rule of n8n's default config as it is. n8n's scanner ignores such comments anyway.
// - Dev-only TypeScript (tests, the sandbox, the benchmark, tool configs) runs in Node and never
//   ships. A file-level `/* eslint-disable … -- reason */` may switch off only the rules that encode
//   n8n Cloud's runtime restrictions (imports, globals, literal secrets, eval-like calls, plain Error,
//   console); every other rule stays on. Line-level disables need a reason too.
// See CONTRIBUTING.md, "Linting".
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;
const SHIPPED_DIRS = ['nodes', 'credentials', 'src'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'build', 'coverage']);
export const CLOUD_RUNTIME_RULES = new Set([
	'@n8n/community-nodes/no-restricted-imports',
	'@n8n/community-nodes/no-restricted-globals',
	'@n8n/community-nodes/no-hardcoded-secrets',
	'@n8n/community-nodes/no-dangerous-functions',
	'@n8n/community-nodes/require-node-api-error',
	'no-console',
]);

/** Every ESLint configuration comment (`/* eslint… *\/`, `// eslint-disable…`) in a source text. */
export function eslintComments(text) {
	const found = [];
	const pattern =
		/\/\*\s*(eslint(?:-disable|-enable)?(?:-next-line|-line)?|global)\s([\s\S]*?)\*\/|\/\/\s*(eslint-disable(?:-next-line|-line)?|eslint-enable)\b(.*)$/gm;
	for (const match of text.matchAll(pattern)) {
		const kind = match[1] ?? match[3];
		const [rules, reason] = (match[2] ?? match[4] ?? '').split(/\s--\s/);
		found.push({
			kind,
			rules: rules
				.split(',')
				.map((r) => r.trim())
				.filter(Boolean),
			reason: (reason ?? '').trim(),
			line: text.slice(0, match.index).split('\n').length,
		});
	}
	return found;
}

/** Problems with one file's comments; `shipped` = the file is compiled into the package. */
export function directiveProblems(text, shipped) {
	const problems = [];
	for (const comment of eslintComments(text)) {
		const where = `line ${comment.line}: ${comment.kind} ${comment.rules.join(', ')}`;
		if (shipped) {
			problems.push(`${where}: shipped code passes n8n's rules without lint comments`);
			continue;
		}
		if (!comment.reason && comment.kind !== 'eslint-enable')
			problems.push(`${where}: give the reason after " -- "`);
		if (comment.kind === 'eslint-disable') {
			if (comment.rules.length === 0)
				problems.push(`${where}: name the rules (all-rule disables are not allowed)`);
			const other = comment.rules.filter((rule) => !CLOUD_RUNTIME_RULES.has(rule));
			if (other.length)
				problems.push(
					`${where}: a file-level disable may only name n8n Cloud runtime rules, not ${other.join(', ')}`,
				);
		} else if (comment.kind === 'eslint' || comment.kind === 'global') {
			problems.push(
				`${where}: rule configuration belongs in no file (the config is n8n's default)`,
			);
		}
	}
	return problems;
}

function* typeScriptFiles(dir) {
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		if (entry.name.startsWith('.') || SKIPPED_DIRS.has(entry.name)) continue;
		const path = join(dir, entry.name);
		if (entry.isDirectory()) yield* typeScriptFiles(path);
		else if (entry.name.endsWith('.ts')) yield path;
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	let failures = 0;
	let devFilesWithDisables = 0;
	for (const path of typeScriptFiles(ROOT)) {
		const file = relative(ROOT, path);
		const shipped = SHIPPED_DIRS.some((dir) => file.startsWith(`${dir}/`));
		const text = readFileSync(path, 'utf8');
		const problems = directiveProblems(text, shipped);
		if (!shipped && eslintComments(text).some((c) => c.kind === 'eslint-disable'))
			devFilesWithDisables++;
		for (const problem of problems) process.stdout.write(`${file} ${problem}\n`);
		failures += problems.length;
	}
	process.stdout.write(
		failures
			? `lint comments: ${failures} problem(s)\n`
			: `lint comments: none in shipped code; ${devFilesWithDisables} dev-only files switch off n8n Cloud runtime rules, with a reason\n`,
	);
	process.exit(failures ? 1 : 0);
}
