// `npm start`: the playground. A real n8n with this repo's built nodes, a local MediaGen sandbox,
// a `MediaGen API` credential pointing at it, a local scripted chat model for the AI agent example
// and the example workflows, ready to click through.
//   node scripts/playground/playground.mjs [--port 5678] [--sandbox-port 4010] [--chat-port 4011] [--fresh] [--verbose]
// Expects the package built (`npm start` does `npm run build && npm run build:dev` first).
// n8n's data lives in .n8n-playground/ (git-ignored) and survives restarts; --fresh starts empty.
// Ctrl-C stops n8n and the sandbox.
import { spawn } from 'node:child_process';
import {
	appendFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
	HOST_DIR,
	N8N_UNAVAILABLE,
	ensureN8nInstalled,
	isN8nInstalled,
} from '../../test/n8n-host/install.mjs';
import {
	OWNER_EMAIL,
	OWNER_PASSWORD,
	freePort,
	setupOwner,
	startN8n,
} from '../../test/n8n-host/n8n.mjs';
import {
	CREDENTIAL_NAME,
	OPENAI_CREDENTIAL_NAME,
	SANDBOX_API_KEY,
	playgroundPaths,
	seedPlayground,
} from './playground-seed.mjs';

const REPO = resolve(HOST_DIR, '..', '..');
const DIST = join(REPO, 'dist');
const SANDBOX_CLI = join(REPO, 'build', 'sandbox', 'cli.js');
// test/helpers/fake-openai-chat.ts, bundled by `npm run build:dev`
const CHAT_MODEL = join(REPO, 'build', 'playground', 'chat-model.js');
const PLAYGROUND = join(REPO, '.n8n-playground');
const USER_FOLDER = join(PLAYGROUND, 'n8n');
const STATE_FILE = join(PLAYGROUND, 'playground.json');
const N8N_LOG = join(PLAYGROUND, 'n8n.log');
// The AI agent example's chat model: with OPENAI_API_KEY (and OPENAI_BASE_URL for any
// OpenAI-compatible server) the real one; otherwise a local scripted model that calls the MediaGen
// tool once and answers with the link, so the example runs without a key.
const OPENAI_KEY = process.env.OPENAI_API_KEY ?? '';
const OPENAI_BASE_URL = process.env.OPENAI_BASE_URL || 'https://api.openai.com/v1';
const LOCAL_CHAT_KEY = 'sk-playground-local-model';
// How long video, lip sync, 3D and producer runs take in the playground: long enough that a paused
// Wait Mode shows ("Waiting" in the executions list) and resumes; images and audio stay at 1.5 s.
const LONG_RUN_MS = 25_000;

const { values } = parseArgs({
	options: {
		port: { type: 'string', default: '5678' },
		'sandbox-port': { type: 'string', default: '4010' },
		'chat-port': { type: 'string', default: '4011' },
		fresh: { type: 'boolean', default: false },
		verbose: { type: 'boolean', default: false },
		help: { type: 'boolean', default: false },
	},
});
if (values.help) {
	console.log(
		'npm start -- [--port 5678] [--sandbox-port 4010] [--chat-port 4011] [--fresh] [--verbose]',
	);
	process.exit(0);
}

const say = (line = '') => console.log(line);
const fail = (message, code = 1) => {
	console.error(`\n${message}`);
	process.exit(code);
};

function portIsFree(port) {
	return new Promise((res) => {
		const s = createServer()
			.once('error', () => res(false))
			.listen(port, '127.0.0.1', () => s.close(() => res(true)));
	});
}

async function isSandbox(origin) {
	try {
		const res = await fetch(`${origin}/_sandbox/state`, { signal: AbortSignal.timeout(1500) });
		return res.ok;
	} catch {
		return false;
	}
}

/** Starts `build/sandbox/cli.js`, or reuses a sandbox already listening on that port. */
async function startSandbox(port) {
	const origin = `http://127.0.0.1:${port}`;
	if (!(await portIsFree(port))) {
		if (await isSandbox(origin)) {
			say(`Using the MediaGen sandbox already running on ${origin}.`);
			await fetch(`${origin}/_sandbox/options`, {
				method: 'PATCH',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ longRunLatencyMs: LONG_RUN_MS, captionPictures: true }),
			});
			return { origin, stop: async () => {} };
		}
		fail(
			`Port ${port} is taken by something that is not the MediaGen sandbox: stop it, or pass --sandbox-port <n>.`,
		);
	}
	const args = [
		SANDBOX_CLI,
		'--port',
		String(port),
		'--long-latency',
		String(LONG_RUN_MS),
		'--caption-pictures',
	];
	const child = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	child.stdout.on('data', (d) => (output += d));
	child.stderr.on('data', (d) => (output += d));
	const exited = new Promise((res) => child.once('exit', res));
	process.on('exit', () => child.kill('SIGKILL'));
	const started = Date.now();
	while (!(await isSandbox(origin))) {
		if (child.exitCode !== null || Date.now() - started > 20_000)
			fail(`The sandbox did not start:\n${output}`);
		await new Promise((r) => setTimeout(r, 100));
	}
	return {
		origin,
		stop: async () => {
			if (child.exitCode === null) child.kill('SIGTERM');
			await exited;
		},
	};
}

function readState() {
	try {
		return JSON.parse(readFileSync(STATE_FILE, 'utf8'));
	} catch {
		return { workflows: {} };
	}
}

/** The agent example's chat model: OpenAI with the user's key, or the local scripted one on `port`. */
async function startChatModel(port) {
	if (OPENAI_KEY)
		return { baseUrl: OPENAI_BASE_URL, key: OPENAI_KEY, local: false, stop: async () => {} };
	const { startFakeOpenAiChat } = createRequire(import.meta.url)(CHAT_MODEL);
	const model = await startFakeOpenAiChat({ port: (await portIsFree(port)) ? port : 0 });
	return { baseUrl: model.baseUrl, key: LOCAL_CHAT_KEY, local: true, stop: () => model.close() };
}

async function main() {
	const started = Date.now();
	const elapsed = (since) => `${Math.round((Date.now() - since) / 1000)} s`;
	if (
		!existsSync(join(DIST, 'credentials', 'MediaGenApi.credentials.js')) ||
		!existsSync(SANDBOX_CLI) ||
		!existsSync(CHAT_MODEL)
	) {
		fail(
			'The package is not built: run `npm start` (it builds first), or `npm run build && npm run build:dev`.',
		);
	}
	if (values.fresh) rmSync(PLAYGROUND, { recursive: true, force: true });
	mkdirSync(PLAYGROUND, { recursive: true });

	if (!isN8nInstalled()) {
		say('First run: installing n8n into test/n8n-host: 4–15 minutes and 2.4 GB, only once.');
		say(
			'Progress is printed every 10 s; the full npm output goes to test/n8n-host/.runtime/install.log.',
		);
	}
	let n8nVersion;
	try {
		n8nVersion = (await ensureN8nInstalled({ log: (m) => say(`  ${m}`) })).version;
	} catch (e) {
		fail(
			`Could not install n8n [${e.code ?? 'ERROR'}]: ${e.message}`,
			e.code === N8N_UNAVAILABLE ? 2 : 1,
		);
	}

	const sandbox = await startSandbox(Number(values['sandbox-port']));
	const sandboxBaseUrl = `${sandbox.origin}/v1`;
	say(`MediaGen sandbox: ${sandboxBaseUrl}`);
	const chatModel = await startChatModel(Number(values['chat-port']));

	let port = Number(values.port);
	if (!(await portIsFree(port))) {
		const taken = port;
		port = await freePort();
		say(`Port ${taken} is taken; n8n gets port ${port} instead.`);
	}
	const firstStart = !existsSync(join(USER_FOLDER, '.n8n', 'database.sqlite'));
	say(
		`Starting n8n ${n8nVersion}${firstStart ? ' (the first start creates its database: 15 s to 1 min)' : ' (10–30 s)'} ...`,
	);
	writeFileSync(N8N_LOG, '');
	let n8n;
	try {
		n8n = await startN8n({
			port,
			extensionsDir: DIST,
			userFolder: USER_FOLDER,
			log: (line) => {
				appendFileSync(N8N_LOG, `${line}\n`);
				if (values.verbose) say(line);
			},
		});
	} catch (e) {
		await Promise.all([sandbox.stop(), chatModel.stop()]);
		fail(
			`n8n did not start [${e.code ?? 'ERROR'}]: ${e.message}\n(full log: ${N8N_LOG})`,
			e.code === N8N_UNAVAILABLE ? 2 : 1,
		);
	}

	let stopping = false;
	const stopAll = async () => {
		if (stopping) return;
		stopping = true;
		say('\nStopping n8n and the sandbox ...');
		await Promise.all([n8n.stop(), sandbox.stop(), chatModel.stop()]);
		say('Stopped.');
		process.exit(0);
	};
	process.on('SIGINT', stopAll);
	process.on('SIGTERM', stopAll);

	let report;
	try {
		await setupOwner(n8n.url);
		const state = readState();
		report = await seedPlayground({
			url: n8n.url,
			state,
			sandboxBaseUrl,
			openAi: chatModel,
			...playgroundPaths(REPO),
		});
		writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
	} catch (e) {
		console.error(`Setting up the playground failed: ${e.message}\n(n8n log: ${N8N_LOG})`);
		await Promise.all([n8n.stop(), sandbox.stop(), chatModel.stop()]);
		process.exit(1);
	}

	const lines = [
		'',
		`n8n ${n8nVersion} is running with the MediaGen nodes (n8n ready in ${(n8n.startupMs / 1000).toFixed(1)} s; all set up in ${elapsed(started)}).`,
		'',
		`  Open      ${n8n.url}`,
		`  Log in    ${OWNER_EMAIL} / ${OWNER_PASSWORD}`,
		`  Credential "${CREDENTIAL_NAME}" → ${sandboxBaseUrl} (key ${SANDBOX_API_KEY})`,
		`  Credential "${OPENAI_CREDENTIAL_NAME}" → ${chatModel.baseUrl} (${
			chatModel.local
				? 'a local scripted chat model; start with OPENAI_API_KEY=… for OpenAI'
				: 'key from OPENAI_API_KEY'
		}), for the AI agent example`,
		'  Example workflows (open one, then "Execute workflow"):',
	];
	for (const r of report) {
		if (r.skipped) {
			lines.push(`    - ${r.file}: skipped, ${r.skipped}`);
			continue;
		}
		const note = r.trigger ? ' (not published: publish it to download every completed run)' : '';
		lines.push(
			`    - ${r.name}${r.updated ? ' (updated)' : ''}${note}\n      ${n8n.url}/workflow/${r.id}`,
		);
	}
	lines.push(
		'',
		'  In the node panel search "MediaGen". The sandbox is a local stand-in for the service: images,',
		`  audio and texts take ~1.5 s, video, lip sync, 3D and producers ${LONG_RUN_MS / 1000} s (long enough to see a paused`,
		'  execution wait and resume); pictures are real PNGs that show the prompt they were made from;',
		'  credits come from a 100 000-credit sandbox account.',
		`  Data is kept in ${PLAYGROUND} (\`npm start -- --fresh\` starts empty); n8n log: ${N8N_LOG}`,
		'',
		'Ctrl-C stops n8n and the sandbox.',
	);
	say(lines.join('\n'));
}

main().catch((e) => fail(e.stack ?? String(e)));
