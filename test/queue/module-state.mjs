// Module-scope state in what the nodes load: in queue mode every worker (and the main, for trigger
// webhooks) loads its own copy of each module, so anything kept at module level is per process.
// This lists every top-level mutable binding (let/var, or a const holding a Map/Set/WeakMap/array/
// object literal) in the files the node and credential entry points import, and compares the list
// with the known ones. Usage: `node test/queue/module-state.mjs` (exit 1 on an unknown one).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ts = createRequire(join(ROOT, 'package.json'))('typescript');

/** Known module-level state, and why it is fine with several processes. */
export const KNOWN = {
	'src/models/model-catalog.ts:cache':
		'per-process cache of GET /models (a promise per credential, 60 s TTL): each worker fetches its own copy; nothing depends on another process seeing it',
	'src/catalog/index.ts:byKey': 'read-only lookup built once from the static catalog',
	'src/node/description/param-names.ts:camelCased':
		'memo of a pure function of the static catalog (API field name → n8n parameter name): every process computes the same values',
	'src/catalog/workflows.ts:WORKFLOW_INPUT_FIELDS':
		'static catalog data (field lists of the five workflows), filled once at load and only read',
	'src/spend/cost.ts:plans':
		'WeakMap keyed by the PreparedCall objects of one execution: nothing outlives the execution or is shared between them',
	'src/waits/resume.ts:openedSecrets':
		'per-process cache of the signing secrets of paused executions this process opened (by sealed value, at most 100): another process opens its own from the execution data',
	'src/webhooks/trigger-secret.ts:openedHere':
		'per-process cache of the trigger signing secrets this process opened (by workflow, node and sealed value, at most 100): another process opens its own from the static data',
	'src/waits/resume.ts:resumingHere':
		'paused executions a delivery in this process claimed to resume (at most 1000): copies reaching this process do nothing; between processes the service decides (only one DELETE of the endpoint succeeds, docs/security.md)',
	'src/webhooks/seen-events.ts:seenHere':
		'event ids the trigger started in this process, by workflow and node (at most 1000 each, 200 places): a copy reaching this process while the first still downloads is a repeat, and every delivery writes them into the static data n8n saves (n8n saves it whole per request); another process knows what the static data holds (docs/security.md)',
	'src/webhooks/paused-endpoint.ts:keptAt':
		'when this process last asked n8n about each leftover paused-wait endpoint and kept it (only URLs of endpoints that still exist): orders the next cleanup; another process asks in its own order, and a probe never deletes what n8n says may still wait',
	'src/waits/wait-pace.ts:rememberedDurations':
		'per-process memory of how long runs of each kind (service, operation, model) took when this process last saw them finish (at most 200 kinds): paces the next wait; a process that never saw a kind starts cold, nothing depends on another process seeing it',
	'src/waits/resume.ts:pausedWaits':
		'per-process memory of each paused execution this process answers deliveries for (what it waits for, the finished runs its verified deliveries carried; at most 100, dropped when it resumes): another process rebuilds its own and reads from the service what it has not seen',
	'src/waits/resume.ts:latestReads':
		'the latest read of each paused execution this process answers deliveries for (dropped when it resumes, at most 100): deliveries arriving at the same process share one; another process reads for itself',
};

function entryPoints() {
	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
	return [...pkg.n8n.nodes, ...pkg.n8n.credentials].map((p) =>
		p.replace(/^dist\//, '').replace(/\.js$/, '.ts'),
	);
}

function resolveImport(from, spec) {
	if (!spec.startsWith('.')) return undefined; // n8n-workflow, node:crypto
	const base = resolve(dirname(from), spec);
	for (const c of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(c)) return c;
	return undefined;
}

const MUTABLE_INIT = new Set([
	ts.SyntaxKind.ArrayLiteralExpression,
	ts.SyntaxKind.ObjectLiteralExpression,
]);
function isMutableInit(init) {
	if (!init) return false;
	if (MUTABLE_INIT.has(init.kind)) return true;
	if (ts.isNewExpression(init))
		return ['Map', 'Set', 'WeakMap', 'WeakSet', 'Array', 'OpenedSecrets'].includes(
			init.expression.getText(),
		);
	if (ts.isAsExpression(init) || ts.isSatisfiesExpression?.(init))
		return isMutableInit(init.expression);
	return false;
}

export function findModuleState() {
	const seen = new Set();
	const queue = entryPoints().map((p) => join(ROOT, p));
	const found = [];
	while (queue.length) {
		const file = queue.pop();
		if (seen.has(file)) continue;
		seen.add(file);
		const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
		for (const stmt of sf.statements) {
			if (
				(ts.isImportDeclaration(stmt) || ts.isExportDeclaration(stmt)) &&
				stmt.moduleSpecifier &&
				ts.isStringLiteral(stmt.moduleSpecifier)
			) {
				const target = resolveImport(file, stmt.moduleSpecifier.text);
				if (target) queue.push(target);
			}
			if (!ts.isVariableStatement(stmt)) continue;
			const isConst = (stmt.declarationList.flags & ts.NodeFlags.Const) !== 0;
			for (const decl of stmt.declarationList.declarations) {
				if (isConst && !isMutableInit(decl.initializer)) continue;
				// `as const` literals are read-only data
				if (
					decl.initializer &&
					ts.isAsExpression(decl.initializer) &&
					decl.initializer.type.getText() === 'const'
				)
					continue;
				// exported or not, a const object/array literal of plain data is only state if something writes to it
				const name = decl.name.getText();
				// a const collection is state only if this module writes to it (nothing exports a writer)
				if (isConst) {
					const writes = new RegExp(
						`\\b${name}(\\.[\\w$]+|\\[[^\\]]+\\])+\\s*(=[^=]|\\+\\+|--|\\+=)|\\b${name}\\.(push|pop|shift|unshift|splice|sort|reverse|set|add|delete|clear)\\(|\\bdelete\\s+${name}[.[]|Object\\.assign\\(\\s*${name}\\b`,
					);
					if (!writes.test(sf.getFullText())) continue;
				}
				found.push({
					key: `${relative(ROOT, file)}:${name}`,
					kind: isConst ? decl.initializer.getText().slice(0, 40) : 'let/var',
				});
			}
		}
	}
	return { files: seen.size, found };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const { files, found } = findModuleState();
	const unknown = found.filter((f) => !KNOWN[f.key]);
	for (const f of found)
		console.log(
			`${KNOWN[f.key] ? 'known  ' : 'UNKNOWN'} ${f.key} (${f.kind})${KNOWN[f.key] ? ` — ${KNOWN[f.key]}` : ''}`,
		);
	console.log(
		`${files} files imported by the nodes and credentials; ${found.length} module-level mutable bindings, ${unknown.length} unknown`,
	);
	process.exit(unknown.length ? 1 : 0);
}
