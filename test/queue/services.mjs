// Throwaway Redis, PostgreSQL and MediaGen sandbox processes for the queue-mode test. Each runs on a
// free 127.0.0.1 port with its data in a temp dir; stop() ends it (by its own PID) and removes the dir.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../n8n-host/n8n.mjs';

const children = new Set();
process.on('exit', () => children.forEach((c) => c.kill('SIGKILL')));

function which(bin) {
	return (
		spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' }).stdout.trim() || undefined
	);
}

/** The PostgreSQL server binaries (Debian puts them in /usr/lib/postgresql/<major>/bin, off PATH). */
function postgresBinDir() {
	const root = '/usr/lib/postgresql';
	if (existsSync(root)) {
		const majors = readdirSync(root)
			.filter((d) => existsSync(join(root, d, 'bin', 'initdb')))
			.sort((a, b) => Number(b) - Number(a));
		if (majors.length) return join(root, majors[0], 'bin');
	}
	const initdb = which('initdb');
	return initdb ? join(initdb, '..') : undefined;
}

/** apt-get installs what is missing (Debian packages redis-server, postgresql). */
export function ensurePackages(log = console.log) {
	const missing = [];
	if (!which('redis-server')) missing.push('redis-server');
	if (!postgresBinDir()) missing.push('postgresql');
	if (missing.length === 0) return [];
	log(`installing ${missing.join(', ')} with apt-get`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	let r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
		env,
		encoding: 'utf8',
	});
	if (r.status !== 0) {
		spawnSync('apt-get', ['update'], { env, encoding: 'utf8' });
		r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
			env,
			encoding: 'utf8',
		});
	}
	if (r.status !== 0)
		throw new Error(
			`apt-get install ${missing.join(' ')} failed:\n${(r.stderr || r.stdout).slice(-2000)}`,
		);
	return missing;
}

function waitForPort(port, timeoutMs = 20_000) {
	const started = Date.now();
	return new Promise((resolve, reject) => {
		const attempt = () => {
			const socket = createConnection({ port, host: '127.0.0.1' });
			socket.once('connect', () => {
				socket.destroy();
				resolve();
			});
			socket.once('error', () => {
				socket.destroy();
				if (Date.now() - started > timeoutMs)
					reject(new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`));
				else setTimeout(attempt, 100);
			});
		};
		attempt();
	});
}

function track(child, name, lines) {
	children.add(child);
	const onData = (d) => {
		for (const line of d.toString().split('\n')) if (line) lines.push(`[${name}] ${line}`);
		if (lines.length > 5000) lines.splice(0, lines.length - 5000);
	};
	child.stdout?.on('data', onData);
	child.stderr?.on('data', onData);
	const exited = new Promise((resolve) => child.on('exit', resolve));
	return {
		exited,
		stop: async () => {
			if (child.exitCode === null && child.signalCode === null) {
				child.kill('SIGTERM');
				const t = setTimeout(() => child.kill('SIGKILL'), 5000);
				await exited;
				clearTimeout(t);
			}
			children.delete(child);
		},
	};
}

/** redis-server on a free port, no persistence. */
export async function startRedis() {
	const port = await freePort();
	const dir = mkdtempSync(join(tmpdir(), 'mediagen-redis-'));
	const lines = [];
	const child = spawn(
		'redis-server',
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--daemonize',
			'no',
			'--dir',
			dir,
		],
		{
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	const t = track(child, 'redis', lines);
	await waitForPort(port);
	return {
		port,
		pid: child.pid,
		logs: () => lines.join('\n'),
		stop: async () => {
			await t.stop();
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

/**
 * A PostgreSQL cluster in a temp dir, run as the `postgres` user (PostgreSQL refuses root), trust
 * auth on 127.0.0.1 only, with an empty database `n8n`.
 */
export async function startPostgres({ database = 'n8n' } = {}) {
	const bin = postgresBinDir();
	if (!bin) throw new Error('PostgreSQL server binaries not found');
	const port = await freePort();
	const dir = mkdtempSync(join(tmpdir(), 'mediagen-pg-'));
	chmodSync(dir, 0o755);
	const data = join(dir, 'data');
	const asPostgres = (cmd, args) =>
		process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
	execFileSync('chown', ['postgres:postgres', dir]);
	const [c1, a1] = asPostgres(join(bin, 'initdb'), [
		'-D',
		data,
		'-A',
		'trust',
		'-U',
		'postgres',
		'--no-sync',
		'-E',
		'UTF8',
		'--locale=C',
	]);
	execFileSync(c1, a1, { stdio: 'pipe' });
	const lines = [];
	const [c2, a2] = asPostgres(join(bin, 'postgres'), [
		'-D',
		data,
		'-p',
		String(port),
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		`unix_socket_directories=${dir}`,
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
		'-c',
		'max_connections=200',
	]);
	const child = spawn(c2, a2, { stdio: ['ignore', 'pipe', 'pipe'] });
	const t = track(child, 'postgres', lines);
	await waitForPort(port);
	// the server accepts TCP a moment before it accepts logins
	const started = Date.now();
	while (true) {
		const [c3, a3] = asPostgres(join(bin, 'psql'), [
			'-h',
			'127.0.0.1',
			'-p',
			String(port),
			'-U',
			'postgres',
			'-c',
			`CREATE DATABASE ${database}`,
		]);
		const r = spawnSync(c3, a3, { encoding: 'utf8' });
		if (r.status === 0) break;
		if (Date.now() - started > 20_000) throw new Error(`CREATE DATABASE failed: ${r.stderr}`);
		await new Promise((res) => setTimeout(res, 200));
	}
	return {
		port,
		database,
		user: 'postgres',
		pid: child.pid,
		logs: () => lines.join('\n'),
		/** n8n's env for this database */
		n8nEnv: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(port),
			DB_POSTGRESDB_DATABASE: database,
			DB_POSTGRESDB_USER: 'postgres',
			DB_POSTGRESDB_PASSWORD: '',
		},
		stop: async () => {
			await t.stop();
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

/** The MediaGen sandbox (build/sandbox/cli.js, from `npm run build:dev`) as its own process. */
export async function startSandboxProcess({ cwd, latencyMs = 1500, extraArgs = [] } = {}) {
	const port = await freePort();
	const lines = [];
	const child = spawn(
		process.execPath,
		['build/sandbox/cli.js', '--port', String(port), '--latency', String(latencyMs), ...extraArgs],
		{
			cwd,
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	const t = track(child, 'sandbox', lines);
	await waitForPort(port);
	const origin = `http://127.0.0.1:${port}`;
	const admin = async (path, init) => {
		const res = await fetch(`${origin}/_sandbox${path}`, init);
		if (!res.ok) throw new Error(`sandbox ${path}: HTTP ${res.status}`);
		return res.json();
	};
	return {
		port,
		origin,
		baseUrl: `${origin}/v1`,
		pid: child.pid,
		admin,
		logs: () => lines.join('\n'),
		stop: t.stop,
	};
}
