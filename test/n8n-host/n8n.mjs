// A real n8n for tests and `npm start`: start/stop a server, run CLI commands, set up an owner and
// a public-API key. Isolated: every run has its own user folder (sqlite DB, settings) and ports.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureN8nInstalled } from './install.mjs';

/** The owner setupOwner() creates. Fixed so humans can log into a test instance too. */
export const OWNER_EMAIL = 'owner@mediagen.test';
export const OWNER_PASSWORD = 'MediaGen-Test-1';
export const OWNER_FIRST_NAME = 'Test';
export const OWNER_LAST_NAME = 'Owner';
/** Fixed so credentials imported or created in one run decrypt in the next run of the same folder. */
export const ENCRYPTION_KEY = 'mediagen-test-encryption-key-not-secret';

/** A TCP port nobody listens on right now (on 127.0.0.1). */
export function freePort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

/** A fresh, empty N8N_USER_FOLDER under the OS temp dir. */
export function makeUserFolder(prefix = 'mediagen-n8n-') {
	return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * The environment n8n runs with here: isolated from ~/.n8n, quiet (no telemetry, banners or
 * version checks), local only, and with our extensions loaded from `extensionsDir`.
 */
export function n8nEnv({ port, brokerPort, userFolder, extensionsDir, env = {} }) {
	const base = {
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		DB_TYPE: 'sqlite',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_PORT: String(port),
		N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
		// The task-runner broker defaults to 5679 for every instance: two n8n processes would clash.
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		// Its registry fetch goes to the internet at startup.
		N8N_DISABLED_MODULES: 'mcp-registry',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '5',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		N8N_LOG_OUTPUT: 'console',
		NO_COLOR: '1',
	};
	if (extensionsDir) base.N8N_CUSTOM_EXTENSIONS = extensionsDir;
	// n8n 2.8 has no mcp-registry module and refuses to start when asked to disable an unknown one.
	if (process.env.MEDIAGEN_N8N_HOST) delete base.N8N_DISABLED_MODULES;
	// Anything from the parent that configures n8n would make runs depend on the shell they start in.
	// NODE_ENV=test (jest sets it) makes n8n exit at startup without a word.
	const inherited = Object.fromEntries(
		Object.entries(process.env).filter(
			([k]) => !/^(N8N_|DB_|EXECUTIONS_|QUEUE_|GENERIC_TIMEZONE$|NODE_ENV$|JEST_)/.test(k),
		),
	);
	return { ...inherited, ...base, ...alternateHostEnv(), ...env };
}

// n8n runs in its own process group (so stop() also ends its task runner); that group does not get
// the terminal's Ctrl-C, so we pass fatal signals on rather than leave orphans holding ports.
const liveGroups = new Set();
function killGroup(pid, signal) {
	try {
		process.kill(-pid, signal);
	} catch {}
}
let signalsHooked = false;
function hookSignals() {
	if (signalsHooked) return;
	signalsHooked = true;
	process.on('exit', () => liveGroups.forEach((pid) => killGroup(pid, 'SIGKILL')));
	for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
		process.once(sig, () => {
			// SIGTERM lets n8n close its database; the 'exit' hook above is the backstop.
			liveGroups.forEach((pid) => killGroup(pid, 'SIGTERM'));
			// Nobody else handles it: die of it, as we would have without this hook.
			if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
		});
	}
}

/**
 * MEDIAGEN_N8N_HOST=<folder>: use the n8n installed by hand in that folder, run by this Node, instead
 * of the pinned host (e.g. test/n8n-host-2.8: n8n 2.8.4 on Node 20). null when unset.
 * @returns {{nodeBin: string, n8nBin: string, version: string} | null}
 */
export function alternateHost() {
	const dir = process.env.MEDIAGEN_N8N_HOST;
	if (!dir) return null;
	const n8nDir = join(resolve(dir), 'node_modules', 'n8n');
	if (!existsSync(join(n8nDir, 'package.json')))
		throw new Error(`MEDIAGEN_N8N_HOST=${dir}: no n8n installed there (${n8nDir})`);
	const { version } = JSON.parse(readFileSync(join(n8nDir, 'package.json'), 'utf8'));
	return { nodeBin: process.execPath, n8nBin: join(n8nDir, 'bin', 'n8n'), version };
}

/**
 * What the n8n of MEDIAGEN_N8N_HOST needs in its environment: the `mediagen.env` object of that
 * folder's package.json (e.g. test/n8n-host-1.123: N8N_EXPRESSION_ENGINE=legacy on Node 20).
 */
export function alternateHostEnv() {
	const dir = process.env.MEDIAGEN_N8N_HOST;
	if (!dir) return {};
	const manifest = join(resolve(dir), 'package.json');
	return existsSync(manifest)
		? (JSON.parse(readFileSync(manifest, 'utf8')).mediagen?.env ?? {})
		: {};
}

async function readyRuntime(log) {
	const alternate = alternateHost();
	if (alternate) return alternate;
	const { nodeBin, n8nBin } = await ensureN8nInstalled({ log });
	return { nodeBin, n8nBin };
}

/**
 * Starts `n8n start` and resolves once /healthz/readiness answers 200 (workflows published
 * beforehand are active by then).
 * @param {object} [opts]
 * @param {number} [opts.port] default: a free port
 * @param {string} [opts.extensionsDir] folder with compiled *.node.js / *.credentials.js (N8N_CUSTOM_EXTENSIONS)
 * @param {string} [opts.userFolder] default: a fresh temp folder
 * @param {Record<string,string>} [opts.env] extra/overriding env for n8n
 * @param {(line: string) => void} [opts.log] gets installer progress and every n8n output line
 * @param {number} [opts.timeoutMs] readiness timeout, default 120 000
 * @param {string[]} [opts.args] the n8n command, default ['start'] (startN8nWorker passes ['worker'])
 * @returns {Promise<{url: string, port: number, userFolder: string, extensionsDir?: string,
 *   pid: number, stop: () => Promise<void>, logs: () => string}>}
 */
export async function startN8n({
	port,
	extensionsDir,
	userFolder,
	env,
	log,
	timeoutMs = 120_000,
	args = ['start'],
} = {}) {
	const { nodeBin, n8nBin } = await readyRuntime(log ?? ((m) => console.log(m)));
	port ??= await freePort();
	userFolder ??= makeUserFolder();
	mkdirSync(userFolder, { recursive: true });
	const brokerPort = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const started = Date.now();
	const child = spawn(nodeBin, [n8nBin, ...args], {
		cwd: userFolder,
		env: n8nEnv({ port, brokerPort, userFolder, extensionsDir, env }),
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true, // own process group, so stop() also ends the task runner it spawns
	});
	const lines = [];
	let partial = '';
	const onData = (chunk) => {
		const text = partial + chunk.toString();
		const parts = text.split('\n');
		partial = parts.pop();
		for (const line of parts) {
			if (lines.length > 20_000) lines.shift();
			lines.push(line);
			log?.(line);
		}
	};
	child.stdout.on('data', onData);
	child.stderr.on('data', onData);
	const logs = () => [...lines, partial].join('\n');

	let exited = false;
	const exitPromise = new Promise((resolve) =>
		child.on('exit', (code, signal) => {
			exited = true;
			resolve({ code, signal });
		}),
	);
	// If the test process dies without stop(), n8n must not outlive it.
	hookSignals();
	liveGroups.add(child.pid);

	let stopping;
	const stop = () =>
		(stopping ??= (async () => {
			if (!exited) {
				killGroup(child.pid, 'SIGTERM');
				const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), 15_000);
				await exitPromise;
				clearTimeout(timer);
			}
			// The task runner may linger a moment after the main process.
			killGroup(child.pid, 'SIGKILL');
			liveGroups.delete(child.pid);
		})());

	while (true) {
		if (exited) {
			const { code, signal } = await exitPromise;
			throw new Error(
				`n8n exited (${code ?? signal}) before it was ready. Output:\n${logs().slice(-4000)}`,
			);
		}
		if (Date.now() - started > timeoutMs) {
			await stop();
			throw new Error(`n8n was not ready after ${timeoutMs} ms. Output:\n${logs().slice(-4000)}`);
		}
		try {
			const res = await fetch(`${url}/healthz/readiness`, { signal: AbortSignal.timeout(2000) });
			// n8n 2.8 answers readiness a few seconds before its REST routes (owner setup, login) exist.
			if (res.status === 200) {
				// Workers serve health checks only, no REST API.
				if (args[0] !== 'start') break;
				const rest = await fetch(`${url}/rest/settings`, { signal: AbortSignal.timeout(2000) });
				if (rest.status === 200) break;
			}
		} catch {}
		await new Promise((r) => setTimeout(r, 250));
	}
	return {
		url,
		port,
		userFolder,
		extensionsDir,
		pid: child.pid,
		startupMs: Date.now() - started,
		stop,
		logs,
	};
}

/**
 * Starts an `n8n worker` (queue mode: pass the same DB_* / QUEUE_BULL_* env as the main). Its health
 * server listens on `port` (QUEUE_HEALTH_CHECK_PORT), and it is ready once /healthz/readiness answers,
 * i.e. it is connected to Redis and the database and takes jobs. Same result as startN8n; `url` is
 * the health server. `pid` is the worker's own process (SIGKILL it to simulate a crash).
 * @param {Parameters<typeof startN8n>[0] & {concurrency?: number}} [opts]
 */
export async function startN8nWorker({ env = {}, concurrency, ...opts } = {}) {
	const port = opts.port ?? (await freePort());
	return startN8n({
		...opts,
		port,
		args: ['worker', ...(concurrency ? [`--concurrency=${concurrency}`] : [])],
		env: {
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(port),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			...env,
		},
	});
}

/**
 * Runs the n8n CLI (`import:credentials --input=f.json`, `import:workflow --input=w.json`,
 * `publish:workflow --id=..`, `execute --id=..`, ...) against `userFolder`'s database.
 * Works while a server on the same folder is running (it gets its own broker port).
 * @param {string[]} args
 * @param {{userFolder: string, extensionsDir?: string, env?: Record<string,string>, timeoutMs?: number, log?: (m: string) => void}} opts
 * @returns {Promise<{code: number|null, signal: string|null, stdout: string, stderr: string}>}
 */
export async function n8nCli(
	args,
	{ userFolder, extensionsDir, env, timeoutMs = 300_000, log } = {},
) {
	if (!userFolder) throw new Error('n8nCli needs { userFolder } (the same one the server uses)');
	const { nodeBin, n8nBin } = await readyRuntime(log ?? ((m) => console.log(m)));
	mkdirSync(userFolder, { recursive: true });
	const [port, brokerPort] = [await freePort(), await freePort()];
	hookSignals();
	return new Promise((resolve, reject) => {
		const child = spawn(nodeBin, [n8nBin, ...args], {
			cwd: userFolder,
			env: n8nEnv({ port, brokerPort, userFolder, extensionsDir, env }),
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		liveGroups.add(child.pid);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), timeoutMs);
		child.on('error', (e) => {
			clearTimeout(timer);
			liveGroups.delete(child.pid);
			reject(e);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			// The CLI may leave its task runner behind in the group.
			killGroup(child.pid, 'SIGKILL');
			liveGroups.delete(child.pid);
			resolve({ code, signal, stdout, stderr });
		});
	});
}

// `n8n execute` prints log lines around the run data; on success the JSON is the rest of stdout, on
// failure it is logged (pretty-printed, so its first and last lines are a bare "{" and "}") and an
// error text follows.
function parseRunData(text) {
	const lines = text.split('\n');
	const first = lines.indexOf('{');
	if (first !== -1) {
		const last = lines.indexOf('}', first);
		if (last !== -1) {
			try {
				return JSON.parse(lines.slice(first, last + 1).join('\n'));
			} catch {}
		}
	}
	const brace = text.indexOf('{');
	if (brace === -1) return undefined;
	try {
		return JSON.parse(text.slice(brace));
	} catch {
		return undefined;
	}
}

/**
 * `n8n execute --id=<id> --rawOutput` → the execution (IRun) as parsed JSON: `status`,
 * `data.resultData.runData[nodeName][0].data.main[0]` (items), `data.resultData.error` on failure.
 * A failed run resolves too (check `status`); rejects only when no run data came out.
 * Output is captured whole; never pipe `n8n execute` into `head`: the broken pipe kills the run.
 * @param {string} id workflow id
 * @param {{userFolder: string, extensionsDir?: string, env?: Record<string,string>}} opts
 */
export async function executeWorkflow(id, opts) {
	const result = await n8nCli(['execute', `--id=${id}`, '--rawOutput'], opts);
	const run = parseRunData(result.stdout) ?? parseRunData(result.stderr);
	if (!run) {
		throw new Error(
			`n8n execute --id=${id} printed no run data (exit ${result.code}).\nstdout:\n${result.stdout.slice(-4000)}\nstderr:\n${result.stderr.slice(-4000)}`,
		);
	}
	return run;
}

// --- REST (the editor's internal API) -------------------------------------------------------------

// The auth cookie is bound to this header's value; send the same one on every call.
const BROWSER_ID = 'mediagen-n8n-host';

async function rest(url, path, { method = 'GET', body, cookie } = {}) {
	const res = await fetch(`${url}${path}`, {
		method,
		headers: {
			'content-type': 'application/json',
			'browser-id': BROWSER_ID,
			...(cookie ? { cookie } : {}),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	let json;
	try {
		json = JSON.parse(text);
	} catch {}
	const setCookie = res.headers.getSetCookie?.() ?? [];
	const auth = setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith('n8n-auth='));
	return { status: res.status, json, text, cookie: auth };
}

function restError(what, r) {
	return new Error(`${what}: HTTP ${r.status} ${r.text.slice(0, 500)}`);
}

/** Logs in; resolves to the `cookie` header value to send on /rest calls. */
export async function login(url, { email = OWNER_EMAIL, password = OWNER_PASSWORD } = {}) {
	const r = await rest(url, '/rest/login', {
		method: 'POST',
		body: { emailOrLdapLoginId: email, password },
	});
	if (r.status !== 200 || !r.cookie) throw restError('login', r);
	return r.cookie;
}

/**
 * Creates the instance owner (OWNER_EMAIL / OWNER_PASSWORD); if one exists already, logs in.
 * @returns {Promise<{cookie: string, email: string, password: string}>}
 */
export async function setupOwner(url, { email = OWNER_EMAIL, password = OWNER_PASSWORD } = {}) {
	const r = await rest(url, '/rest/owner/setup', {
		method: 'POST',
		body: { email, password, firstName: OWNER_FIRST_NAME, lastName: OWNER_LAST_NAME },
	});
	if (r.status === 200 && r.cookie) return { cookie: r.cookie, email, password };
	if (r.status === 400 && /already/i.test(r.text))
		return { cookie: await login(url, { email, password }), email, password };
	throw restError('owner setup', r);
}

/**
 * Logs in as the owner and creates a public-API key (send it as `X-N8N-API-KEY` to /api/v1/...).
 * @param {string} url
 * @param {{email?: string, password?: string, label?: string, scopes?: string[]}} [opts]
 *   scopes default to every scope the owner may grant.
 * @returns {Promise<string>} the raw key
 */
export async function createApiKey(
	url,
	{ email = OWNER_EMAIL, password = OWNER_PASSWORD, label, scopes } = {},
) {
	const cookie = await login(url, { email, password });
	if (!scopes) {
		const r = await rest(url, '/rest/api-keys/scopes', { cookie });
		if (r.status !== 200) throw restError('api key scopes', r);
		scopes = r.json.data;
	}
	const r = await rest(url, '/rest/api-keys', {
		method: 'POST',
		cookie,
		body: { label: label ?? `mediagen-test-${Date.now()}`, scopes, expiresAt: null },
	});
	if (r.status !== 200 || !r.json?.data?.rawApiKey) throw restError('create api key', r);
	return r.json.data.rawApiKey;
}

/** fetch() against the public API with the key; resolves to the parsed JSON (throws on non-2xx). */
export async function publicApi(url, apiKey, path, { method = 'GET', body } = {}) {
	const res = await fetch(`${url}/api/v1${path}`, {
		method,
		headers: {
			'X-N8N-API-KEY': apiKey,
			accept: 'application/json',
			...(body ? { 'content-type': 'application/json' } : {}),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	if (!res.ok)
		throw new Error(`${method} /api/v1${path}: HTTP ${res.status} ${text.slice(0, 500)}`);
	return text ? JSON.parse(text) : null;
}
