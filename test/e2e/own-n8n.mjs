// Starts an n8n of a test's own (a test file cannot import the host's ESM modules), prints one JSON
// line {url, apiKey?} once it is ready, and stops it on SIGTERM:
//   node test/e2e/own-n8n.mjs --user-folder <dir> [--extensions <dist>] [--port <n>] [--setup] [--env KEY=VALUE ...]
// --setup creates the owner and a public API key (first start of a user folder); without
// --extensions, n8n loads only what its user folder holds (an installed package); --env sets n8n's
// environment (e.g. N8N_SSRF_PROTECTION_ENABLED=true).
// With --cli <arg> ... it runs that n8n command on the user folder instead (e.g. --cli import:workflow
// --cli --input=<file>) and prints one JSON line {code, stdout, stderr}.
import { parseArgs } from 'node:util';

import { createApiKey, n8nCli, setupOwner, startN8n } from '../n8n-host/n8n.mjs';

const { values } = parseArgs({
	options: {
		'user-folder': { type: 'string' },
		extensions: { type: 'string' },
		port: { type: 'string' },
		setup: { type: 'boolean', default: false },
		env: { type: 'string', multiple: true, default: [] },
		cli: { type: 'string', multiple: true },
	},
});
const env = Object.fromEntries(
	values.env.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
if (values.cli) {
	const { code, stdout, stderr } = await n8nCli(values.cli, {
		userFolder: values['user-folder'],
		extensionsDir: values.extensions,
		env,
		log: () => {},
	});
	process.stdout.write(
		`${JSON.stringify({ code, stdout: stdout.slice(-4000), stderr: stderr.slice(-4000) })}\n`,
	);
	process.exit(0);
}
const n8n = await startN8n({
	userFolder: values['user-folder'],
	extensionsDir: values.extensions,
	port: values.port ? Number(values.port) : undefined,
	env,
});
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
