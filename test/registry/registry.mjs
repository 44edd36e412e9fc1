// A local npm registry that answers for registry.npmjs.org, for the e2e test that installs the
// packed package by name through n8n's own installer (test/e2e/registry-install.test.ts):
//   node test/registry/registry.mjs --dir <work folder> --publish <package folder> [--publish …]
// installs verdaccio here once (package.json: verdaccio 6.8.0, node-fetch overridden to 2.7.0),
// makes a CA and a certificate for registry.npmjs.org and 127.0.0.1 (openssl), starts verdaccio on
// https://127.0.0.1:<free port> with no uplink (only what is published here exists), signs up a
// user, publishes each folder, prints one JSON line {port, ca, env, published: [{name, version,
// integrity}]} and runs until SIGTERM. `env` is what n8n needs to reach it as registry.npmjs.org:
// NODE_OPTIONS preloading answer-for-npmjs.cjs, NODE_EXTRA_CA_CERTS and npm's cafile, MEDIAGEN_REGISTRY_PORT.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const HERE = new URL('.', import.meta.url).pathname;
const VERDACCIO = join(HERE, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
const USER = { name: 'mediagen', password: 'mediagen-registry-1' };

export function ensureVerdaccio(log = () => {}) {
	if (existsSync(VERDACCIO)) return;
	log('installing verdaccio 6.8.0 into test/registry (once, ~10 s) ...');
	execFileSync(
		'npm',
		['install', '--no-audit', '--no-fund', '--ignore-scripts', '--package-lock=false'],
		{ cwd: HERE, stdio: 'pipe' },
	);
}

const freePort = () =>
	new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});

function makeCertificates(dir) {
	const ssl = (...args) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
	ssl(
		'req',
		'-x509',
		'-newkey',
		'rsa:2048',
		'-nodes',
		'-keyout',
		'ca.key',
		'-out',
		'ca.pem',
		'-days',
		'2',
		'-subj',
		'/CN=mediagen test registry CA',
	);
	ssl(
		'req',
		'-newkey',
		'rsa:2048',
		'-nodes',
		'-keyout',
		'registry.key',
		'-out',
		'registry.csr',
		'-subj',
		'/CN=registry.npmjs.org',
	);
	writeFileSync(
		join(dir, 'san.ext'),
		'subjectAltName=DNS:registry.npmjs.org,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n',
	);
	ssl(
		'x509',
		'-req',
		'-in',
		'registry.csr',
		'-CA',
		'ca.pem',
		'-CAkey',
		'ca.key',
		'-CAcreateserial',
		'-out',
		'registry.pem',
		'-days',
		'2',
		'-extfile',
		'san.ext',
	);
	return {
		ca: join(dir, 'ca.pem'),
		key: join(dir, 'registry.key'),
		cert: join(dir, 'registry.pem'),
	};
}

/** One HTTPS request to the registry, trusting the test CA. */
function call(port, ca, method, path, body, token) {
	return new Promise((resolve, reject) => {
		const data = body === undefined ? undefined : JSON.stringify(body);
		const req = request(
			{
				host: '127.0.0.1',
				port,
				servername: 'registry.npmjs.org',
				method,
				path,
				ca: readFileSync(ca),
				headers: {
					accept: 'application/json',
					...(data ? { 'content-type': 'application/json' } : {}),
					...(token ? { authorization: `Bearer ${token}` } : {}),
				},
			},
			(res) => {
				let text = '';
				res.on('data', (chunk) => (text += chunk));
				res.on('end', () =>
					resolve({ status: res.statusCode, body: text ? JSON.parse(text) : undefined }),
				);
			},
		);
		req.on('error', reject);
		req.end(data);
	});
}

export async function startRegistry(dir, { log = () => {} } = {}) {
	ensureVerdaccio(log);
	mkdirSync(dir, { recursive: true });
	const certificates = makeCertificates(dir);
	const port = await freePort();
	const config = join(dir, 'config.yaml');
	writeFileSync(
		config,
		[
			`storage: ${join(dir, 'storage')}`,
			'auth:',
			'  htpasswd:',
			`    file: ${join(dir, 'htpasswd')}`,
			'uplinks: {}',
			'packages:',
			"  '**':",
			'    access: $all',
			'    publish: $authenticated',
			'https:',
			`  key: ${certificates.key}`,
			`  cert: ${certificates.cert}`,
			'server:',
			'  keepAliveTimeout: 5',
			'log: { type: stdout, format: pretty, level: warn }',
			'',
		].join('\n'),
	);
	const child = spawn(
		process.execPath,
		[VERDACCIO, '--config', config, '--listen', `https://127.0.0.1:${port}`],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let output = '';
	child.stdout.on('data', (chunk) => (output += chunk));
	child.stderr.on('data', (chunk) => (output += chunk));
	const exited = new Promise((resolve) => child.once('exit', resolve));
	for (const deadline = Date.now() + 30_000; ; ) {
		const ping = await call(port, certificates.ca, 'GET', '/-/ping').catch(() => undefined);
		if (ping?.status === 200) break;
		if (child.exitCode !== null || Date.now() > deadline)
			throw new Error(`verdaccio did not start:\n${output.slice(-2000)}`);
		await new Promise((r) => setTimeout(r, 200));
	}
	const signup = await call(port, certificates.ca, 'PUT', `/-/user/org.couchdb.user:${USER.name}`, {
		name: USER.name,
		password: USER.password,
	});
	if (!signup.body?.token)
		throw new Error(
			`verdaccio refused the user: HTTP ${signup.status} ${JSON.stringify(signup.body)}`,
		);
	const token = signup.body.token;
	const env = {
		NODE_OPTIONS: `--require ${join(HERE, 'answer-for-npmjs.cjs')}`,
		NODE_EXTRA_CA_CERTS: certificates.ca,
		// npm trusts only its own `cafile` when one is configured (this machine's global npmrc sets the
		// system bundle), not NODE_EXTRA_CA_CERTS; it talks to nothing but this registry here
		npm_config_cafile: certificates.ca,
		MEDIAGEN_REGISTRY_PORT: String(port),
	};

	/** Publishes a package folder; returns its name, version and the integrity the registry serves. */
	async function publish(folder) {
		const { name, version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
		const registry = `https://127.0.0.1:${port}/`;
		execFileSync(
			'npm',
			[
				'publish',
				folder,
				`--registry=${registry}`,
				`--//127.0.0.1:${port}/:_authToken=${token}`,
				'--ignore-scripts',
				'--provenance=false',
				'--access=public',
				'--tag=latest',
			],
			{
				env: {
					...process.env,
					NODE_EXTRA_CA_CERTS: certificates.ca,
					npm_config_cafile: certificates.ca,
				},
				stdio: 'pipe',
			},
		);
		const metadata = await call(
			port,
			certificates.ca,
			'GET',
			`/${encodeURIComponent(name)}/${version}`,
		);
		return { name, version, integrity: metadata.body?.dist?.integrity };
	}

	return {
		port,
		ca: certificates.ca,
		env,
		publish,
		logs: () => output,
		stop: async () => {
			child.kill('SIGTERM');
			await exited;
		},
	};
}

const isMain = process.argv[1] && new URL(import.meta.url).pathname === process.argv[1];
if (isMain) {
	const { values } = parseArgs({
		options: { dir: { type: 'string' }, publish: { type: 'string', multiple: true, default: [] } },
	});
	const registry = await startRegistry(values.dir, { log: (m) => process.stderr.write(`${m}\n`) });
	const published = [];
	for (const folder of values.publish) published.push(await registry.publish(folder));
	process.stdout.write(
		`${JSON.stringify({ port: registry.port, ca: registry.ca, env: registry.env, published })}\n`,
	);
	const stop = async () => {
		await registry.stop();
		process.exit(0);
	};
	process.on('SIGTERM', stop);
	process.on('SIGINT', stop);
}
