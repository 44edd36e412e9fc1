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

/** Our node names a workflow uses that the build lacks (an example for a node not built yet). */
export function missingNodes(workflow, built) {
  return [...new Set(workflow.nodes.filter((n) => n.type.startsWith(PACKAGE_PREFIX)).map((n) => n.type.slice(PACKAGE_PREFIX.length)))].filter(
    (name) => !built.has(name),
  );
}

/**
 * The workflow as n8n with our extensions loaded needs it: CUSTOM.* node types and every MediaGen
 * node using `credential` ({ id, name }) — only the fields the public API accepts.
 */
export function forExtensions(workflow, credential, { name } = {}) {
  const nodes = workflow.nodes.map((node) => {
    if (!node.type.startsWith(PACKAGE_PREFIX)) return node;
    const mapped = { ...node, type: EXTENSIONS_PREFIX + node.type.slice(PACKAGE_PREFIX.length) };
    if (credential) mapped.credentials = { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } };
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
export async function createMediaGenCredential(url, apiKey, { name = 'MediaGen API (sandbox)', baseUrl, key }) {
  const created = await publicApi(url, apiKey, '/credentials', {
    method: 'POST',
    // allowedHttpRequestDomains: n8n 2.8's schema check otherwise demands allowedDomains (an `if`
    // on an absent property holds); 'all' is n8n's default anyway.
    body: { name, type: CREDENTIAL_TYPE, data: { baseUrl, apiKey: key, allowedHttpRequestDomains: 'all' } },
  });
  return { id: created.id, name: created.name };
}

/** Creates a workflow through the public API → its id. */
export async function createWorkflow(url, apiKey, workflow) {
  const created = await publicApi(url, apiKey, '/workflows', { method: 'POST', body: workflow });
  return created.id;
}
