// Starts an n8n of a test's own (a test file cannot import the host's ESM modules), prints one JSON
// line {url, apiKey?} once it is ready, and stops it on SIGTERM:
//   node test/e2e/own-n8n.mjs --user-folder <dir> [--extensions <dist>] [--port <n>] [--setup]
// --setup creates the owner and a public API key (first start of a user folder); without
// --extensions, n8n loads only what its user folder holds (an installed package).
import { parseArgs } from 'node:util';

import { createApiKey, setupOwner, startN8n } from '../n8n-host/n8n.mjs';

const { values } = parseArgs({
	options: { 'user-folder': { type: 'string' }, extensions: { type: 'string' }, port: { type: 'string' }, setup: { type: 'boolean', default: false } },
});
const n8n = await startN8n({ userFolder: values['user-folder'], extensionsDir: values.extensions, port: values.port ? Number(values.port) : undefined });
let apiKey;
let cookie;
if (values.setup) {
	({ cookie } = await setupOwner(n8n.url));
	apiKey = await createApiKey(n8n.url, { label: 'own n8n' });
}
process.stdout.write(`${JSON.stringify({ url: n8n.url, port: n8n.port, apiKey, cookie })}\n`);
const stop = async () => {
	await n8n.stop();
	process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
