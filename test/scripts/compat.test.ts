/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// scripts/compat.mjs (`npm run test:compat`): its lines are folders that pin an n8n, and its
// summary counts what jest reported per file. The runs themselves take minutes per line (an n8n
// install and the e2e core): their output is in CHANGELOG.md and the README's Compatibility table.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..');
const SCRIPT = join(REPO, 'scripts', 'compat.mjs');

/** Calls an export of the ESM script in a Node of its own (jest's runtime cannot import it). */
function call(expression: string): unknown {
	const code = `import(${JSON.stringify(SCRIPT)}).then((m) => process.stdout.write(JSON.stringify(${expression})))`;
	return JSON.parse(
		execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' }),
	);
}

describe('npm run test:compat', () => {
	it('each line other than the pinned one is a folder whose package.json pins an n8n; the pinned one is test/n8n-host', () => {
		const lines = call('m.LINES') as Record<string, { folder: string | null }>;
		expect(lines.pinned.folder).toBeNull();
		expect(Object.keys(lines)).toEqual(expect.arrayContaining(['1.123', 'pinned']));
		for (const { folder } of Object.values(lines).filter((l) => l.folder)) {
			const manifest = JSON.parse(readFileSync(join(REPO, folder!, 'package.json'), 'utf8')) as {
				dependencies: { n8n: string };
			};
			expect(manifest.dependencies.n8n).toMatch(/^\d+\.\d+\.\d+$/);
		}
		const oldest = JSON.parse(
			readFileSync(join(REPO, lines['1.123'].folder!, 'package.json'), 'utf8'),
		) as {
			dependencies: { n8n: string };
			overrides: Record<string, string>;
			mediagen: { env: Record<string, string> };
		};
		expect(oldest.dependencies.n8n).toMatch(/^1\.123\./);
		expect(oldest.overrides.xlsx).toBe('0.18.5');
		expect(oldest.mediagen.env).toEqual({ N8N_EXPRESSION_ENGINE: 'legacy' });
	});

	it('runs the core e2e files on each line, each of which exists; the paused wait suite only where the line can pause', () => {
		const core = call('m.CORE') as string[];
		expect(core).toEqual(
			expect.arrayContaining(['examples', 'wait-mode-this-n8n', 'trigger', 'installed-package']),
		);
		const ofLine = call(
			'Object.fromEntries(Object.keys(m.LINES).map((line) => [line, m.coreOf(line)]))',
		) as Record<string, string[]>;
		expect(ofLine['1.123']).toEqual(core);
		expect(ofLine.pinned).toEqual([...core, 'paused-wait']);
		for (const file of Object.values(ofLine).flat())
			expect(existsSync(join(REPO, 'test', 'e2e', `${file}.test.ts`))).toBe(true);
	});

	it("summarizes jest's report per file: passed, failed (a file that failed before its tests counts one), skipped and the first failure", () => {
		const report = {
			testResults: [
				{
					name: '/r/test/e2e/examples.test.ts',
					status: 'failed',
					message: '',
					assertionResults: [
						{ status: 'passed', title: 'a' },
						{ status: 'failed', title: 'b fails' },
						{ status: 'failed', title: 'c' },
						{ status: 'pending', title: 'd' },
					],
				},
				{
					name: '/r/test/e2e/trigger.test.ts',
					status: 'failed',
					message: '\n  ● Test suite failed to run\nn8n exited',
					assertionResults: [],
				},
				{
					name: '/r/test/e2e/paused-wait.test.ts',
					status: 'passed',
					message: '',
					assertionResults: [{ status: 'passed', title: 'x' }],
				},
			],
		};
		expect(call(`m.summarize(${JSON.stringify(report)})`)).toEqual([
			{ file: 'examples.test.ts', passed: 1, failed: 2, skipped: 1, firstFailure: 'b fails' },
			{
				file: 'trigger.test.ts',
				passed: 0,
				failed: 1,
				skipped: 0,
				firstFailure: '  ● Test suite failed to run',
			},
			{ file: 'paused-wait.test.ts', passed: 1, failed: 0, skipped: 0 },
		]);
	});
});
