/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// An option's parameter name is written once, in the module that defines it: every other module
// uses the definition (`option.name`), so renaming or following an option is one place.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { ALL_OPTIONS } from '../../../src/node/description/run-options';
import { ADDITIONAL_FIELDS } from '../../../src/node/description/fields';
import { MODEL_PARAM } from '../../../src/node/description/model';
import { waitMode } from '../../../src/waits/wait-options';
import { AUTHENTICATION } from '../../../src/credentials/authentication';
import { events, TRIGGER_OPTIONS } from '../../../src/webhooks/trigger-options';

const ROOT = join(__dirname, '..', '..', '..');
const SHIPPED = ['src', 'nodes', 'credentials'];

function tsFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return tsFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** The places a name stands as a string literal ('x', "x" or `x`), by file. */
function literalsOf(names: string[], files: string[]): Map<string, string[]> {
	const found = new Map<string, string[]>(names.map((name) => [name, []]));
	for (const file of files) {
		// comments are prose: only code counts
		const code = readFileSync(file, 'utf8')
			.replace(/\/\*[\s\S]*?\*\//g, '')
			.replace(/^\s*\/\/.*$/gm, '');
		for (const name of names)
			if (new RegExp(`(['"\`])${name}\\1`).test(code)) found.get(name)!.push(relative(ROOT, file));
	}
	return found;
}

const files = SHIPPED.flatMap((dir) => tsFiles(join(ROOT, dir)));
/**
 * Names the API spells the same way: there they are the service's fields, not the node's
 * parameters — the catalog's API fields (a batch's `concurrency`), a problem document's `limit`
 * (src/outputs/error-item.ts), a run's `model` in a simplified item, a batch body's `concurrency`,
 * and n8n's OAuth2 credential field `authentication`.
 */
const API_NAMES: Record<string, string[]> = {
	limit: [join('src', 'outputs', 'error-item.ts')],
	model: [join('src', 'outputs', 'simplify.ts')],
	concurrency: [join('src', 'runs', 'batches.ts')],
	// a cache key of the model list
	models: [join('src', 'models', 'model-catalog.ts')],
	// n8n's own OAuth2 field of the credential (header or body), not the nodes' Authentication
	authentication: [join('credentials', 'MediaGenOAuth2Api.credentials.ts')],
};
const apiName = (name: string, file: string) =>
	file.startsWith(join('src', 'catalog')) || (API_NAMES[name] ?? []).includes(file);

describe('option names: each written in its defining module only', () => {
	// the Options collection is named 'options', n8n's own word for a choice list: not checked
	const names = [
		...ALL_OPTIONS.map((option) => option.name),
		...TRIGGER_OPTIONS.map((option) => option.name),
		waitMode.name,
		events.name,
		AUTHENTICATION,
		ADDITIONAL_FIELDS,
		MODEL_PARAM,
	];
	const places = literalsOf(names, files);

	it('reads the shipped code (the check has something to check)', () => {
		expect(files.length).toBeGreaterThan(100);
		expect(places.get('maxCredits')!.length).toBeGreaterThan(0);
	});

	it.each(names)('%s stands as a string in one module', (name) => {
		const where = places.get(name)!.filter((file) => !apiName(name, file));
		expect(where).toHaveLength(1);
	});

	it('the rule flags a second module', () => {
		const twice = literalsOf(
			['maxCredits'],
			[join(ROOT, 'src', 'spend', 'spend-options.ts'), __filename],
		);
		expect(twice.get('maxCredits')).toHaveLength(2);
	});
});
