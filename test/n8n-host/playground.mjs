// `npm start`: the playground. A real n8n with this repo's built nodes, a local MediaGen sandbox,
// a `MediaGen API` credential pointing at it and the example workflows, ready to click through.
//   node test/n8n-host/playground.mjs [--port 5678] [--sandbox-port 4010] [--fresh] [--verbose]
// Expects the package built (`npm start` does `npm run build && npm run build:dev` first).
// n8n's data lives in .n8n-playground/ (git-ignored) and survives restarts; --fresh starts empty.
// Ctrl-C stops n8n and the sandbox.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { HOST_DIR, N8N_UNAVAILABLE, ensureN8nInstalled, isN8nInstalled } from './install.mjs';
import { OWNER_EMAIL, OWNER_PASSWORD, createApiKey, freePort, publicApi, setupOwner, startN8n } from './n8n.mjs';
import { builtNodeNames, createMediaGenCredential, createOpenAiCredential, forExtensions, loadExamples, missingNodes } from './examples.mjs';

const REPO = resolve(HOST_DIR, '..', '..');
const DIST = join(REPO, 'dist');
const SANDBOX_CLI = join(REPO, 'build', 'sandbox', 'cli.js');
const PLAYGROUND = join(REPO, '.n8n-playground');
const USER_FOLDER = join(PLAYGROUND, 'n8n');
const STATE_FILE = join(PLAYGROUND, 'playground.json');
const N8N_LOG = join(PLAYGROUND, 'n8n.log');
// The sandbox's ready-made full-access key (sandbox/options.ts SANDBOX_API_KEY).
const SANDBOX_API_KEY = 'mg_sandbox_full_access_key';
const CREDENTIAL_NAME = 'MediaGen API (sandbox)';
// The AI agent example's chat model. No model runs here, so its credential takes OPENAI_API_KEY (and
// OPENAI_BASE_URL for any OpenAI-compatible server) when set, otherwise a placeholder to replace in n8n.
const OPENAI_CREDENTIAL_NAME = 'OpenAI';
const OPENAI_PLACEHOLDER_KEY = 'sk-replace-with-your-key';
const openAiSettings = { key: process.env.OPENAI_API_KEY ?? '', baseUrl: process.env.OPENAI_BASE_URL || 'https://api.openai.com/v1' };

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '5678' },
    'sandbox-port': { type: 'string', default: '4010' },
    fresh: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log('npm start -- [--port 5678] [--sandbox-port 4010] [--fresh] [--verbose]');
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
      return { origin, stop: async () => {} };
    }
    fail(`Port ${port} is taken by something that is not the MediaGen sandbox: stop it, or pass --sandbox-port <n>.`);
  }
  const child = spawn(process.execPath, [SANDBOX_CLI, '--port', String(port)], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((res) => child.once('exit', res));
  process.on('exit', () => child.kill('SIGKILL'));
  const started = Date.now();
  while (!(await isSandbox(origin))) {
    if (child.exitCode !== null || Date.now() - started > 20_000) fail(`The sandbox did not start:\n${output}`);
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

const hash = (value) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

/** A public-API key that still works (kept in the state file), or a new one. */
async function apiKeyFor(url, state) {
  if (state.apiKey) {
    try {
      await publicApi(url, state.apiKey, '/workflows?limit=1');
      return state.apiKey;
    } catch {}
  }
  return createApiKey(url, { label: 'mediagen playground' });
}

/** Whether the sandbox lists a webhook endpoint pointing at this n8n (activation is asynchronous). */
async function endpointRegistered(sandboxBaseUrl, n8nUrl) {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; ) {
    try {
      const res = await fetch(`${sandboxBaseUrl}/webhooks?limit=100`, { headers: { authorization: `Bearer ${SANDBOX_API_KEY}` } });
      if (res.ok && (await res.json()).data.some((e) => e.url.startsWith(n8nUrl))) return true;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

/** Credential and example workflows, created once and updated when an example file changes. */
async function seed(url, state, sandboxBaseUrl) {
  state.apiKey = await apiKeyFor(url, state);
  if (!state.credential || state.credential.baseUrl !== sandboxBaseUrl) {
    const created = await createMediaGenCredential(url, state.apiKey, { name: CREDENTIAL_NAME, baseUrl: sandboxBaseUrl, key: SANDBOX_API_KEY });
    state.credential = { ...created, baseUrl: sandboxBaseUrl };
    state.workflows = {}; // point every example at the new credential
  }
  const openAiKeyHash = openAiSettings.key ? hash(openAiSettings.key) : null;
  const openAiStale = !state.openAi || state.openAi.baseUrl !== openAiSettings.baseUrl || (openAiKeyHash && state.openAi.keyHash !== openAiKeyHash);
  if (openAiStale) {
    const created = await createOpenAiCredential(url, state.apiKey, {
      name: OPENAI_CREDENTIAL_NAME,
      baseUrl: openAiSettings.baseUrl,
      key: openAiSettings.key || OPENAI_PLACEHOLDER_KEY,
    });
    state.openAi = { ...created, baseUrl: openAiSettings.baseUrl, keyHash: openAiKeyHash };
  }
  const built = builtNodeNames(DIST);
  const report = [];
  for (const { file, slug, workflow } of loadExamples(join(REPO, 'examples'))) {
    const missing = missingNodes(workflow, built);
    if (missing.length) {
      report.push({ file, skipped: `needs ${missing.join(', ')} (not in this build)` });
      continue;
    }
    const body = forExtensions(workflow, state.credential, { openAiCredential: state.openAi });
    const digest = hash(body);
    const known = state.workflows[slug];
    if (known?.hash === digest) {
      report.push({ file, id: known.id, name: body.name });
      continue;
    }
    let id;
    if (known) {
      try {
        await publicApi(url, state.apiKey, `/workflows/${known.id}`, { method: 'PUT', body });
        id = known.id;
      } catch {}
    }
    id ??= (await publicApi(url, state.apiKey, '/workflows', { method: 'POST', body })).id;
    state.workflows[slug] = { id, hash: digest };
    report.push({ file, id, name: body.name, fresh: !known, updated: !!known });
  }
  // Trigger examples are activated: activation registers n8n's webhook URL with the sandbox, so every
  // completed run (e.g. from the other examples) starts them.
  for (const r of report) {
    if (r.skipped) continue;
    const { workflow } = loadExamples(join(REPO, 'examples')).find((e) => e.file === r.file);
    if (!workflow.nodes.some((n) => /^n8n-nodes-mediagen\..*Trigger$/.test(n.type))) continue;
    r.trigger = true;
    try {
      // The sandbox starts empty every time: activate afresh so the trigger registers with this one.
      const current = await publicApi(url, state.apiKey, `/workflows/${r.id}`);
      if (current.active) await publicApi(url, state.apiKey, `/workflows/${r.id}/deactivate`, { method: 'POST' });
      await publicApi(url, state.apiKey, `/workflows/${r.id}/activate`, { method: 'POST' });
      r.active = await endpointRegistered(sandboxBaseUrl, url);
      if (!r.active) r.activationError = 'no webhook endpoint was registered with the sandbox (see the n8n log)';
    } catch (e) {
      r.activationError = e.message.split('\n')[0];
    }
  }
  writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
  return report;
}

async function main() {
  const started = Date.now();
  const elapsed = (since) => `${Math.round((Date.now() - since) / 1000)} s`;
  if (!existsSync(join(DIST, 'credentials', 'MediaGenApi.credentials.js')) || !existsSync(SANDBOX_CLI)) {
    fail('The package is not built: run `npm start` (it builds first), or `npm run build && npm run build:dev`.');
  }
  if (values.fresh) rmSync(PLAYGROUND, { recursive: true, force: true });
  mkdirSync(PLAYGROUND, { recursive: true });

  if (!isN8nInstalled()) {
    say('First run: installing n8n into test/n8n-host: 4–15 minutes and 2.4 GB, only once.');
    say('Progress is printed every 10 s; the full npm output goes to test/n8n-host/.runtime/install.log.');
  }
  let n8nVersion;
  try {
    n8nVersion = (await ensureN8nInstalled({ log: (m) => say(`  ${m}`) })).version;
  } catch (e) {
    fail(`Could not install n8n [${e.code ?? 'ERROR'}]: ${e.message}`, e.code === N8N_UNAVAILABLE ? 2 : 1);
  }

  const sandbox = await startSandbox(Number(values['sandbox-port']));
  const sandboxBaseUrl = `${sandbox.origin}/v1`;
  say(`MediaGen sandbox: ${sandboxBaseUrl}`);

  let port = Number(values.port);
  if (!(await portIsFree(port))) {
    const taken = port;
    port = await freePort();
    say(`Port ${taken} is taken; n8n gets port ${port} instead.`);
  }
  const firstStart = !existsSync(join(USER_FOLDER, '.n8n', 'database.sqlite'));
  say(`Starting n8n ${n8nVersion}${firstStart ? ' (the first start creates its database: 15 s to 1 min)' : ' (10–30 s)'} ...`);
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
    await sandbox.stop();
    fail(`n8n did not start [${e.code ?? 'ERROR'}]: ${e.message}\n(full log: ${N8N_LOG})`, e.code === N8N_UNAVAILABLE ? 2 : 1);
  }

  let stopping = false;
  const stopAll = async () => {
    if (stopping) return;
    stopping = true;
    say('\nStopping n8n and the sandbox ...');
    await Promise.all([n8n.stop(), sandbox.stop()]);
    say('Stopped.');
    process.exit(0);
  };
  process.on('SIGINT', stopAll);
  process.on('SIGTERM', stopAll);

  let report;
  try {
    await setupOwner(n8n.url);
    report = await seed(n8n.url, readState(), sandboxBaseUrl);
  } catch (e) {
    console.error(`Setting up the playground failed: ${e.message}\n(n8n log: ${N8N_LOG})`);
    await n8n.stop();
    await sandbox.stop();
    process.exit(1);
  }

  const lines = [
    '',
    `n8n ${n8nVersion} is running with the MediaGen nodes (n8n ready in ${(n8n.startupMs / 1000).toFixed(1)} s; all set up in ${elapsed(started)}).`,
    '',
    `  Open      ${n8n.url}`,
    `  Log in    ${OWNER_EMAIL} / ${OWNER_PASSWORD}`,
    `  Credential "${CREDENTIAL_NAME}" → ${sandboxBaseUrl} (key ${SANDBOX_API_KEY})`,
    `  Credential "${OPENAI_CREDENTIAL_NAME}" → ${openAiSettings.baseUrl} (${
      openAiSettings.key ? 'key from OPENAI_API_KEY' : 'placeholder key: put your key in it, or start with OPENAI_API_KEY=…'
    }), for the AI agent example`,
    '  Example workflows (open one, then "Execute workflow"):',
  ];
  for (const r of report) {
    if (r.skipped) {
      lines.push(`    - ${r.file}: skipped, ${r.skipped}`);
      continue;
    }
    const note = r.trigger ? (r.active ? ' (active: starts on every completed run)' : ` (could not activate: ${r.activationError})`) : '';
    lines.push(`    - ${r.name}${r.updated ? ' (updated)' : ''}${note}\n      ${n8n.url}/workflow/${r.id}`);
  }
  lines.push(
    '',
    '  In the node panel search "MediaGen". The sandbox is a local stand-in for the service: runs take',
    '  ~1.5 s, images are real PNGs, credits come from a 100 000-credit sandbox account.',
    `  Data is kept in ${PLAYGROUND} (\`npm start -- --fresh\` starts empty); n8n log: ${N8N_LOG}`,
    '',
    'Ctrl-C stops n8n and the sandbox.',
  );
  say(lines.join('\n'));
}

main().catch((e) => fail(e.stack ?? String(e)));
