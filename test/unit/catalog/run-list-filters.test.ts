/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { readFileSync } from 'node:fs';

import { runEndpoints } from '../../../src/catalog/runs';

/** The document's own words (test/fixtures/api-resources.md is a verbatim copy of its resource section). */
const document = readFileSync('test/fixtures/api-resources.md', 'utf8');

/** The backticked values of the document's line that starts with `prefix`. */
function documentValues(prefix: string): string[] {
	const line = document.split('\n').find((l) => l.startsWith(prefix));
	if (!line) throw new Error(`the document has no line starting ${prefix}`);
	return [...line.matchAll(/`([^`]+)`/g)]
		.map((m) => m[1])
		.filter((v) => v !== 'capability' && v !== 'status');
}

function offered(name: string): string[] {
	const list = runEndpoints.find((e) => e.operation === 'list')!;
	const field = list.fields.find((f) => f.name === name)!;
	return (field.options ?? []).map((o) => String(o.value)).filter((v) => v !== '');
}

describe('Run → List filters offer what the document lists, nothing invented', () => {
	it("offers exactly the document's values of capability (no workflow or training capability)", () => {
		const capabilities = documentValues('Values of `capability`:');
		expect(capabilities).toHaveLength(14);
		expect(offered('capability').sort()).toEqual(capabilities.sort());
	});

	it("offers exactly the document's run states", () => {
		// the Run's states: its table comes before the Batch's (which adds partial)
		expect(offered('status').sort()).toEqual(documentValues('| status | string | `queued`').sort());
	});
});
