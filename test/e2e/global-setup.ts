/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// Global setup of the e2e project: builds the package, makes sure real n8n is installed
// (test/n8n-host), starts ONE sandbox (in this process) and ONE n8n server with our nodes for all
// e2e test files, creates the owner, credentials and the example workflows, and writes what the
// tests need to a JSON file (path in MEDIAGEN_E2E_STATE).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { startSandbox } from '../../sandbox/server';
import { startFakeOpenAiChat } from '../helpers/fake-openai-chat';
import { useNpmChromium } from './chromium';
import { ARTIFACTS, HOST_DIR, REPO, STATE_ENV, type E2eState } from './state';

// ts-jest compiles this file to CommonJS, which would turn import() into require(); the host's
// modules are ESM, so import them for real.
/** the host's modules are untyped JavaScript */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
type HostModule = any;
const importEsm = new Function('specifier', 'return import(specifier)') as (
	specifier: string,
) => Promise<HostModule>;
const hostModule = (file: string) => importEsm(pathToFileURL(join(HOST_DIR, file)).href);

const NARROW_SCOPES = ['models:read', 'runs:read'];
/** CI sets it: a suite that cannot reach real n8n fails instead of turning into describe.skip. */
const REQUIRE_N8N_ENV = 'MEDIAGEN_REQUIRE_N8N';

export default async function globalSetup(): Promise<void> {
	const started = Date.now();
	const say = (m: string) => process.stderr.write(`[e2e] ${m}\n`);
	const stateFile = join(tmpdir(), `mediagen-e2e-${process.pid}.json`);
	process.env[STATE_ENV] = stateFile;
	mkdirSync(ARTIFACTS, { recursive: true });

	const install = await hostModule('install.mjs');
	const host = await hostModule('n8n.mjs');
	let n8nVersion: string;
	try {
		// MEDIAGEN_N8N_HOST=test/n8n-host-2.8 runs the suite on another n8n line (see that folder's README)
		({ version: n8nVersion } =
			host.alternateHost() ?? (await install.ensureN8nInstalled({ log: (m: string) => say(m) })));
	} catch (e) {
		const error = e as Error & { code?: string };
		if (error.code !== install.N8N_UNAVAILABLE) throw error;
		if (process.env[REQUIRE_N8N_ENV] === '1') {
			throw new Error(
				`n8n cannot be installed here (${error.message}), and ${REQUIRE_N8N_ENV}=1 (set by .ci/run's test stage) requires the end-to-end tests in real n8n to run: failing instead of skipping them.`,
			);
		}
		const reason = `n8n cannot be installed here (${error.message}); the end-to-end tests in real n8n are SKIPPED (${REQUIRE_N8N_ENV}=1 makes this an error, as in CI).`;
		say(`\n${'!'.repeat(100)}\n${reason}\n${'!'.repeat(100)}\n`);
		writeFileSync(stateFile, JSON.stringify({ skip: reason }));
		return;
	}

	// the editor suite's browser: the system's, else the one the npm package @sparticuz/chromium carries
	await useNpmChromium(say);

	say('building the package (dist/) ...');
	execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO, stdio: 'pipe' });
	const extensionsDir = join(REPO, 'dist');

	// pictures show their prompt, as in the playground: the examples test reads which text made which picture
	const sandbox = await startSandbox({ latencyMs: 300, captionPictures: true });
	// the agent example's chat model: scripted by the tests (PUT /_fake/script)
	const fakeOpenAi = await startFakeOpenAiChat();
	const examples = await hostModule('examples.mjs');
	const userFolder: string = host.makeUserFolder('mediagen-e2e-n8n-');
	say(`starting n8n ${n8nVersion} (user folder ${userFolder}) ...`);
	const n8nLog: string[] = [];
	const n8n = await host.startN8n({
		extensionsDir,
		userFolder,
		log: (line: string) => n8nLog.push(line),
	});
	(globalThis as Record<string, unknown>).__MEDIAGEN_E2E__ = {
		n8n,
		sandbox,
		fakeOpenAi,
		userFolder,
		stateFile,
	};
	say(`n8n ready on ${n8n.url} in ${(n8n.startupMs / 1000).toFixed(1)} s`);

	const owner = await host.setupOwner(n8n.url);
	const apiKey: string = await host.createApiKey(n8n.url, { label: 'mediagen e2e' });
	const full = await examples.createMediaGenCredential(n8n.url, apiKey, {
		name: 'MediaGen API (sandbox)',
		baseUrl: sandbox.baseUrl,
		key: 'mg_sandbox_full_access_key',
	});
	const narrow = await examples.createMediaGenCredential(n8n.url, apiKey, {
		name: 'MediaGen API (narrow key)',
		baseUrl: sandbox.baseUrl,
		key: sandbox.state.createApiKey(NARROW_SCOPES, 'e2e narrow key'),
	});

	const openAi = await examples.createOpenAiCredential(n8n.url, apiKey, {
		name: 'OpenAI (fake chat API)',
		baseUrl: fakeOpenAi.baseUrl,
		key: 'sk-fake-e2e',
	});

	const built = examples.builtNodeNames(extensionsDir);
	const ids: Record<string, string> = {};
	const skippedExamples: Record<string, string> = {};
	let narrowKeyWorkflowId = '';
	for (const { slug, workflow } of examples.loadExamples(join(REPO, 'examples'))) {
		const missing: string[] = examples.missingNodes(workflow, built);
		if (missing.length) {
			skippedExamples[slug] = `needs ${missing.join(', ')}, not in this build`;
			continue;
		}
		ids[slug] = await examples.createWorkflow(
			n8n.url,
			apiKey,
			examples.forExtensions(workflow, full, { openAiCredential: openAi }),
		);
		if (slug.startsWith('04-')) {
			narrowKeyWorkflowId = await examples.createWorkflow(
				n8n.url,
				apiKey,
				examples.forExtensions(workflow, narrow, { name: `${workflow.name} (narrow key)` }),
			);
		}
	}
	// The editor test edits (and n8n autosaves) its own workflow. Its prompt is plain text: while a
	// parameter holds an expression the editor cannot resolve yet ({{ $json.prompt }} before a run
	// in the editor), n8n does not reload the dependent Aspect Ratio list when the model changes.
	const editorWorkflowId: string = await examples.createWorkflow(n8n.url, apiKey, {
		name: 'MediaGen: editor test',
		nodes: [
			{
				id: 'e2e-editor-1',
				name: 'Run',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'e2e-editor-2',
				name: 'Generate Image',
				type: `${examples.EXTENSIONS_PREFIX}mediaGenImage`,
				typeVersion: 1,
				position: [220, 0],
				parameters: {
					resource: 'image',
					operation: 'generate',
					model: 'image.aurora-2',
					prompt: 'a red fox in snow',
					aspectRatio: '',
					count: 1,
				},
				credentials: { [examples.CREDENTIAL_TYPE]: full },
			},
		],
		connections: { Run: { main: [[{ node: 'Generate Image', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	});
	if (Object.keys(skippedExamples).length)
		say(`examples not loaded: ${JSON.stringify(skippedExamples)}`);

	const state: E2eState = {
		n8nVersion,
		n8nUrl: n8n.url,
		userFolder,
		extensionsDir,
		owner: { email: owner.email, password: owner.password },
		apiKey,
		sandbox: { origin: sandbox.origin, baseUrl: sandbox.baseUrl },
		fakeOpenAi: { origin: fakeOpenAi.origin, baseUrl: fakeOpenAi.baseUrl },
		credentials: { full, narrow, openAi },
		examples: ids,
		skippedExamples,
		narrowKeyWorkflowId,
		editorWorkflowId,
		startupMs: n8n.startupMs,
	};
	writeFileSync(stateFile, JSON.stringify(state, null, 2));
	say(`setup done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
