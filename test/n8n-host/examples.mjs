// The example workflows (examples/*.json) as the playground and the e2e tests load them into a
// running n8n: node types mapped from the installed-package prefix to the one N8N_CUSTOM_EXTENSIONS
// gives, MediaGen nodes pointed at one credential, created through the public API.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { publicApi } from './n8n.mjs';

/** The type prefix users get from the installed package, and the one a custom-extensions folder gives. */
export const PACKAGE_PREFIX = 'n8n-nodes-mediagen.';
export const EXTENSIONS_PREFIX = 'CUSTOM.';
export const CREDENTIAL_TYPE = 'mediaGenApi';
/** n8n's OpenAI chat model node (the agent example's model) and the credential type it takes. */
export const OPENAI_CHAT_MODEL_TYPE = '@n8n/n8n-nodes-langchain.lmChatOpenAi';
export const OPENAI_CREDENTIAL_TYPE = 'openAiApi';

/** examples/*.json, sorted by file name → [{ file, slug, workflow }] */
export function loadExamples(examplesDir) {
	return readdirSync(examplesDir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => ({
			file,
			slug: basename(file, '.json'),
			workflow: JSON.parse(readFileSync(join(examplesDir, file), 'utf8')),
		}));
}

/** n8n node names (`mediaGenImage`, ...) built into `<extensionsDir>/nodes/<Folder>/<Folder>.node.js`. */
export function builtNodeNames(extensionsDir) {
	const nodesDir = join(extensionsDir, 'nodes');
	if (!existsSync(nodesDir)) return new Set();
	return new Set(
		readdirSync(nodesDir)
			.filter((d) => existsSync(join(nodesDir, d, `${d}.node.js`)))
			.map((d) => d[0].toLowerCase() + d.slice(1)),
	);
}

/**
 * Our node names a workflow uses that the build lacks (an example for a node not built yet). An
 * agent's tool is the node's `…Tool` variant, which n8n derives from the built node.
 */
export function missingNodes(workflow, built) {
	const names = workflow.nodes
		.filter((n) => n.type.startsWith(PACKAGE_PREFIX))
		.map((n) => n.type.slice(PACKAGE_PREFIX.length).replace(/Tool$/, ''));
	return [...new Set(names)].filter((name) => !built.has(name));
}

/**
 * The workflow as n8n with our extensions loaded needs it: CUSTOM.* node types and every MediaGen
 * node using `credential` ({ id, name }), OpenAI chat model nodes `openAiCredential` when given —
 * only the fields the public API accepts.
 */
export function forExtensions(workflow, credential, { name, openAiCredential } = {}) {
	const nodes = workflow.nodes.map((node) => {
		if (node.type === OPENAI_CHAT_MODEL_TYPE && openAiCredential) {
			return {
				...node,
				credentials: {
					[OPENAI_CREDENTIAL_TYPE]: { id: openAiCredential.id, name: openAiCredential.name },
				},
			};
		}
		if (!node.type.startsWith(PACKAGE_PREFIX)) return node;
		const mapped = { ...node, type: EXTENSIONS_PREFIX + node.type.slice(PACKAGE_PREFIX.length) };
		if (credential)
			mapped.credentials = { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } };
		return mapped;
	});
	return {
		name: name ?? workflow.name,
		nodes,
		connections: workflow.connections,
		settings: workflow.settings ?? { executionOrder: 'v1' },
	};
}

/** Creates the `MediaGen API` credential through the public API → { id, name }. */
export async function createMediaGenCredential(
	url,
	apiKey,
	{ name = 'MediaGen API (sandbox)', baseUrl, key },
) {
	const created = await publicApi(url, apiKey, '/credentials', {
		method: 'POST',
		// allowedHttpRequestDomains: n8n 2.8's schema check otherwise demands allowedDomains (an `if`
		// on an absent property holds); 'all' is n8n's default anyway.
		body: {
			name,
			type: CREDENTIAL_TYPE,
			data: { baseUrl, apiKey: key, allowedHttpRequestDomains: 'all' },
		},
	});
	return { id: created.id, name: created.name };
}

/** Creates an `OpenAI` credential (API key and Base URL, e.g. an OpenAI-compatible server) through the public API → { id, name }. */
export async function createOpenAiCredential(
	url,
	apiKey,
	{ name = 'OpenAI', baseUrl = 'https://api.openai.com/v1', key },
) {
	const created = await publicApi(url, apiKey, '/credentials', {
		method: 'POST',
		body: {
			name,
			type: OPENAI_CREDENTIAL_TYPE,
			data: { apiKey: key, url: baseUrl, header: false },
		},
	});
	return { id: created.id, name: created.name };
}

/** Creates a workflow through the public API → its id. */
export async function createWorkflow(url, apiKey, workflow) {
	const created = await publicApi(url, apiKey, '/workflows', { method: 'POST', body: workflow });
	return created.id;
}
