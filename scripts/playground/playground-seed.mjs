// What `npm start` puts into its n8n: an API key, the `MediaGen API (sandbox)` credential, the
// `OpenAI` credential the agent example's chat model uses, and the example workflows — created once,
// updated when an example file changes. A module of its own so the end-to-end suite can run the very
// same seeding against its n8n and check what a playground user gets.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { createApiKey, publicApi } from '../../test/n8n-host/n8n.mjs';
import {
	builtNodeNames,
	createMediaGenCredential,
	createOpenAiCredential,
	forExtensions,
	loadExamples,
	missingNodes,
} from '../../test/n8n-host/examples.mjs';

// The sandbox's ready-made full-access key (sandbox/options.ts SANDBOX_API_KEY).
export const SANDBOX_API_KEY = 'mg_sandbox_full_access_key';
export const CREDENTIAL_NAME = 'MediaGen API (sandbox)';
export const OPENAI_CREDENTIAL_NAME = 'OpenAI';

const hash = (value) =>
	createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
const isTrigger = (workflow) =>
	workflow.nodes.some((n) => /^n8n-nodes-mediagen\..*Trigger$/.test(n.type));

/** A public-API key that still works (kept in the state), or a new one. */
async function apiKeyFor(url, state) {
	if (state.apiKey) {
		try {
			await publicApi(url, state.apiKey, '/workflows?limit=1');
			return state.apiKey;
		} catch {}
	}
	return createApiKey(url, { label: 'mediagen playground' });
}

/**
 * Seeds the playground's n8n at `url`. `state` is what an earlier seeding kept (`{}` at first) and is
 * updated in place; `openAi` is `{ baseUrl, key }` for the OpenAI credential (the local scripted chat
 * model, or OpenAI with the user's key). Every example is left inactive: trigger examples start only
 * when the user activates them (examples/README.md says why). Returns one report row per example
 * file: `{ file, id, name, fresh?, updated?, trigger?, skipped? }`.
 */
export async function seedPlayground({ url, state, sandboxBaseUrl, openAi, examplesDir, distDir }) {
	state.workflows ??= {};
	state.apiKey = await apiKeyFor(url, state);
	if (!state.credential || state.credential.baseUrl !== sandboxBaseUrl) {
		const created = await createMediaGenCredential(url, state.apiKey, {
			name: CREDENTIAL_NAME,
			baseUrl: sandboxBaseUrl,
			key: SANDBOX_API_KEY,
		});
		state.credential = { ...created, baseUrl: sandboxBaseUrl };
		state.workflows = {}; // point every example at the new credential
	}
	const keyHash = hash(openAi.key);
	if (
		!state.openAi ||
		state.openAi.baseUrl !== openAi.baseUrl ||
		state.openAi.keyHash !== keyHash
	) {
		const created = await createOpenAiCredential(url, state.apiKey, {
			name: OPENAI_CREDENTIAL_NAME,
			baseUrl: openAi.baseUrl,
			key: openAi.key,
		});
		state.openAi = { ...created, baseUrl: openAi.baseUrl, keyHash };
	}
	const built = builtNodeNames(distDir);
	const report = [];
	for (const { file, slug, workflow } of loadExamples(examplesDir)) {
		const missing = missingNodes(workflow, built);
		if (missing.length) {
			report.push({ file, skipped: `needs ${missing.join(', ')} (not in this build)` });
			continue;
		}
		const body = forExtensions(workflow, state.credential, { openAiCredential: state.openAi });
		const digest = hash(body);
		const known = state.workflows[slug];
		const row = { file, name: body.name, trigger: isTrigger(workflow) };
		if (known?.hash === digest) {
			report.push({ ...row, id: known.id });
		} else {
			let id;
			if (known) {
				try {
					await publicApi(url, state.apiKey, `/workflows/${known.id}`, { method: 'PUT', body });
					id = known.id;
				} catch {}
			}
			id ??= (await publicApi(url, state.apiKey, '/workflows', { method: 'POST', body })).id;
			state.workflows[slug] = { id, hash: digest };
			report.push({ ...row, id, fresh: !known, updated: !!known });
		}
		// Playgrounds seeded before trigger examples were inactive by default had them activated on
		// every start: switch them off once; after that, activating is the user's choice.
		if (row.trigger && !state.triggersLeftToTheUser) {
			const current = await publicApi(url, state.apiKey, `/workflows/${state.workflows[slug].id}`);
			if (current.active)
				await publicApi(url, state.apiKey, `/workflows/${current.id}/deactivate`, {
					method: 'POST',
				});
		}
	}
	state.triggersLeftToTheUser = true;
	return report;
}

/** The example files' folder and the build the playground loads, in this repository. */
export const playgroundPaths = (repo) => ({
	examplesDir: join(repo, 'examples'),
	distDir: join(repo, 'dist'),
});
