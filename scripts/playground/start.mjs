// Runs a real n8n with this repo's built nodes loaded, for trying them by hand:
//   node scripts/playground/start.mjs [--extensions <dir>] [--port <n>] [--fresh]
// Installs n8n on first use, keeps its data in test/n8n-host/.runtime/user (--fresh starts empty),
// creates the owner and prints how to log in. Ctrl-C stops it.
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { HOST_DIR, RUNTIME_DIR, N8N_UNAVAILABLE } from '../../test/n8n-host/install.mjs';
import {
	OWNER_EMAIL,
	OWNER_PASSWORD,
	createApiKey,
	freePort,
	setupOwner,
	startN8n,
} from '../../test/n8n-host/n8n.mjs';

const { values } = parseArgs({
	options: {
		extensions: { type: 'string', default: join(HOST_DIR, '..', '..', 'dist') },
		port: { type: 'string' },
		fresh: { type: 'boolean', default: false },
		'api-key': { type: 'boolean', default: false },
	},
});

async function portToUse() {
	if (values.port) return Number(values.port);
	const ok = await new Promise((res) => {
		import('node:net').then(({ createServer }) => {
			const s = createServer()
				.once('error', () => res(false))
				.listen(5678, '127.0.0.1', () => s.close(() => res(true)));
		});
	});
	return ok ? 5678 : freePort();
}

const extensionsDir = resolve(values.extensions);
if (!existsSync(extensionsDir)) {
	console.error(
		`${extensionsDir} does not exist: build the package first (npm run build), or pass --extensions <dir>.`,
	);
	process.exit(1);
}
const userFolder = join(RUNTIME_DIR, 'user');
if (values.fresh) rmSync(userFolder, { recursive: true, force: true });

let n8n;
try {
	console.log(`Starting n8n with the nodes in ${extensionsDir} ...`);
	n8n = await startN8n({
		port: await portToUse(),
		extensionsDir,
		userFolder,
		log: (line) => /migration/i.test(line) || console.log(line),
	});
} catch (e) {
	console.error(`\nCould not start n8n [${e.code ?? 'ERROR'}]: ${e.message}`);
	process.exit(e.code === N8N_UNAVAILABLE ? 2 : 1);
}
await setupOwner(n8n.url);
const lines = [
	'',
	`n8n is running: ${n8n.url}  (ready in ${(n8n.startupMs / 1000).toFixed(1)} s)`,
	`  log in as ${OWNER_EMAIL} / ${OWNER_PASSWORD}`,
	`  our nodes are listed under the type prefix CUSTOM.* (search "MediaGen" in the node panel)`,
	`  data: ${userFolder} (kept between runs; --fresh to start empty)`,
];
if (values['api-key'])
	lines.push(`  public API key (X-N8N-API-KEY): ${await createApiKey(n8n.url)}`);
lines.push('Ctrl-C to stop.', '');
console.log(lines.join('\n'));

for (const sig of ['SIGINT', 'SIGTERM']) {
	process.on(sig, async () => {
		console.log('\nStopping n8n ...');
		await n8n.stop();
		process.exit(0);
	});
}
