// `npm run test:queue`: the package in n8n queue mode. Redis + PostgreSQL (Debian packages, throwaway
// instances on free ports), the MediaGen sandbox, one `n8n start` main with EXECUTIONS_MODE=queue and
// two `n8n worker`s on the same database and encryption key. Shows:
//   0. the only module-level mutable state the nodes load is the per-process model cache;
//   1. the trigger workflow (MediaGen Trigger, run.completed) is active, receives the signed event of
//      a run made by an action node, and its execution runs on a worker (the workers' own logs say
//      "Worker started execution <id>"; the main only logs "Enqueued execution <id>");
//   2. 200 image items through a webhook-started workflow (so it runs on a worker): every item output
//      once, 200 runs, 200 charges;
//   3. SIGKILL of the worker while its 100-item execution waits for its runs: what n8n does with the
//      execution, what n8n's retry (POST /api/v1/executions/:id/retry) does, then a re-run of the same
//      input — items and charges at each stage, for the node's derived Idempotency-Key and for the
//      Idempotency Key option set from a stable item key (with and without saveExecutionProgress);
//   4. Wait Mode "Pause the Execution": paused on a worker, that worker killed while paused, resumed
//      through the main by the runs' events, finished on a worker (test/queue/paused.mjs).
// Prints timings and a JSON summary; exits 1 on any failed check (2 when n8n cannot be installed).
// MG_QUEUE_TRIGGER_DURING_BATCH=1 keeps the trigger active during 2 and 3 (a burst of deliveries to
// the main); MG_QUEUE_PG_POOL sets DB_POSTGRESDB_POOL_SIZE (default here 10; n8n's default is 2).
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureN8nInstalled, N8N_UNAVAILABLE } from '../n8n-host/install.mjs';
import {
	createApiKey,
	freePort,
	makeUserFolder,
	n8nCli,
	publicApi,
	setupOwner,
	startN8n,
	startN8nWorker,
} from '../n8n-host/n8n.mjs';
import { findModuleState, KNOWN } from './module-state.mjs';
import { pausedScenario, pausedWorkflow } from './paused.mjs';
import { ensurePackages, startPostgres, startRedis, startSandboxProcess } from './services.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SANDBOX_KEY = 'mg_sandbox_full_access_key';
const CRED = { id: 'mgQueueCred1', name: 'MediaGen sandbox' };
const BATCH_ITEMS = 200;
const KILL_ITEMS = 100;
const RUN_LATENCY_MS = 1500;
/** run latency while a worker is killed: the execution is still waiting for its runs then */
const KILL_LATENCY_MS = 15_000;
// Bull's lock on a job: a dead worker's job counts as stalled once the lock lapses (n8n default 60 s,
// stalled check every 30 s). Shorter here so the test waits ~20 s instead of ~90 s for a crash.
const LOCK_MS = 15_000;
const STALLED_CHECK_MS = 5_000;

const timings = {};
const failures = [];
const report = {};
const t0 = Date.now();
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
function log(msg) {
	console.log(`[${secs(Date.now() - t0).padStart(7)}] ${msg}`);
}
function check(ok, what, detail = '') {
	if (ok) log(`ok    ${what}`);
	else {
		failures.push(`${what}${detail ? ` — ${detail}` : ''}`);
		log(`FAIL  ${what}${detail ? ` — ${detail}` : ''}`);
	}
	return ok;
}
async function timed(name, fn) {
	const t = Date.now();
	const r = await fn();
	timings[name] = Date.now() - t;
	log(`${name}: ${secs(timings[name])}`);
	return r;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(what, fn, { timeoutMs = 120_000, everyMs = 250 } = {}) {
	const started = Date.now();
	while (true) {
		const v = await fn();
		if (v) return v;
		if (Date.now() - started > timeoutMs)
			throw new Error(`timed out after ${secs(timeoutMs)} waiting for ${what}`);
		await sleep(everyMs);
	}
}

// --- workflows ---------------------------------------------------------------------------------

const CODE = `const b = $input.first().json.body;
return Array.from({ length: b.count }, (_, i) => ({ json: { i, prompt: b.tag + ' #' + i, model: b.model, key: b.tag + '-' + i } }));`;

/** Webhook (POST /webhook/<path>, answers at once) → Code (body.count items) → MediaGen Image Generate. */
function imagesWorkflow(id, path, { stableKey, saveProgress = false }) {
	const options = stableKey ? { idempotencyKey: '={{ $json.key }}' } : {};
	return {
		id,
		path,
		name: `Queue images (${stableKey ? 'stable item key' : 'derived key'}${saveProgress ? ', save progress' : ''})`,
		active: false,
		// saveExecutionProgress: the worker stores each node's output as it goes, so a crashed execution
		// keeps what ran before the crash (n8n's retry needs that to resume)
		settings: { executionOrder: 'v1', ...(saveProgress ? { saveExecutionProgress: true } : {}) },
		nodes: [
			{
				id: `${id}-1`,
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { path, httpMethod: 'POST', responseMode: 'onReceived' },
			},
			{
				id: `${id}-2`,
				name: 'Items',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: { jsCode: CODE },
			},
			{
				id: `${id}-3`,
				name: 'MediaGen Image',
				type: 'CUSTOM.mediaGenImage',
				typeVersion: 1,
				position: [440, 0],
				parameters: {
					resource: 'image',
					operation: 'generate',
					model: '={{ $json.model }}',
					prompt: '={{ $json.prompt }}',
					options,
				},
				credentials: { mediaGenApi: CRED },
			},
		],
		connections: {
			Webhook: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: 'MediaGen Image', type: 'main', index: 0 }]] },
		},
	};
}

const TRIGGER_MODEL = 'image.aurora-1';
const BATCH_MODEL = 'image.aurora-2';
const WF = {
	derived: imagesWorkflow('mgQueueImages', 'mg-images', { stableKey: false }),
	keyed: imagesWorkflow('mgQueueKeyed', 'mg-images-keyed', { stableKey: true, saveProgress: true }),
	derivedProgress: imagesWorkflow('mgQueueProgress', 'mg-images-progress', {
		stableKey: false,
		saveProgress: true,
	}),
	paused: pausedWorkflow(CRED),
	trigger: {
		id: 'mgQueueTrigger',
		name: 'Queue trigger (run.completed)',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 't1',
				name: 'MediaGen Trigger',
				type: 'CUSTOM.mediaGenTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId: randomUUID(),
				// only the probe's model: the 400 batch runs' events are verified and answered but start nothing
				parameters: { events: ['run.completed'], options: { models: TRIGGER_MODEL } },
				credentials: { mediaGenApi: CRED },
			},
			{
				id: 't2',
				name: 'Received',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: { 'MediaGen Trigger': { main: [[{ node: 'Received', type: 'main', index: 0 }]] } },
	},
};

// --- main --------------------------------------------------------------------------------------

async function main() {
	try {
		await ensureN8nInstalled({ log });
	} catch (e) {
		console.error(e.message);
		process.exit(e.code === N8N_UNAVAILABLE ? 2 : 1);
	}
	const stops = [];
	const work = mkdtempSync(join(tmpdir(), 'mediagen-queue-'));
	const processes = {}; // name -> n8n handle
	let exitCode = 1;
	try {
		// 0. nothing at module level that another process would need to see
		const moduleState = findModuleState();
		for (const f of moduleState.found) log(`module state: ${f.key} — ${KNOWN[f.key] ?? 'UNKNOWN'}`);
		check(
			moduleState.found.every((f) => KNOWN[f.key]),
			`module-level state in the ${moduleState.files} files the nodes load: only the known per-process caches`,
			moduleState.found.map((f) => f.key).join(', '),
		);
		report.moduleState = moduleState.found.map((f) => f.key);
		const setupStarted = Date.now();
		await timed('apt packages (redis-server, postgresql) present', async () => {
			const installed = ensurePackages(log);
			if (installed.length) log(`installed ${installed.join(', ')}`);
		});
		await timed('build (npm run build + build:dev)', async () => {
			for (const script of ['build', 'build:dev']) {
				const r = spawnSync('npm', ['run', script], { cwd: ROOT, encoding: 'utf8' });
				if (r.status !== 0) throw new Error(`npm run ${script} failed:\n${r.stdout}\n${r.stderr}`);
			}
		});
		const [redis, pg, sandbox] = await timed('redis + postgres + sandbox up', () =>
			Promise.all([
				startRedis(),
				startPostgres(),
				startSandboxProcess({ cwd: ROOT, latencyMs: RUN_LATENCY_MS }),
			]),
		);
		stops.push(redis.stop, pg.stop, sandbox.stop);
		log(
			`redis 127.0.0.1:${redis.port} (pid ${redis.pid}), postgres 127.0.0.1:${pg.port} (pid ${pg.pid}), sandbox ${sandbox.origin}`,
		);

		const mainPort = await freePort();
		const mainUrl = `http://127.0.0.1:${mainPort}`;
		const extensionsDir = join(ROOT, 'dist');
		const queueEnv = {
			...pg.n8nEnv,
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			QUEUE_WORKER_LOCK_DURATION: String(LOCK_MS),
			QUEUE_WORKER_LOCK_RENEW_TIME: String(LOCK_MS / 3),
			QUEUE_WORKER_STALLED_INTERVAL: String(STALLED_CHECK_MS),
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			N8N_LOG_LEVEL: 'info',
			// n8n's default pool is 2 connections per process; MG_QUEUE_PG_POOL=2 shows what a burst of
			// webhook deliveries does to a main with the default
			DB_POSTGRESDB_POOL_SIZE: process.env.MG_QUEUE_PG_POOL ?? '10',
			// every process builds the same URLs (the trigger registers the main's)
			N8N_WEBHOOK_URL: `${mainUrl}/`,
			N8N_EDITOR_BASE_URL: `${mainUrl}/`,
		};
		const mainFolder = makeUserFolder('mediagen-queue-main-');
		const file = (name, data) => {
			const p = join(work, name);
			writeFileSync(p, JSON.stringify(data));
			return p;
		};
		await timed('import credential + 5 workflows (creates the PostgreSQL schema)', async () => {
			const cli = async (args) => {
				const r = await n8nCli(args, {
					userFolder: mainFolder,
					extensionsDir,
					env: queueEnv,
					log: () => {},
				});
				if (r.code !== 0)
					throw new Error(
						`n8n ${args.join(' ')} failed:\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`,
					);
			};
			await cli([
				'import:credentials',
				`--input=${file('creds.json', [{ ...CRED, type: 'mediaGenApi', data: { baseUrl: sandbox.baseUrl, apiKey: SANDBOX_KEY } }])}`,
			]);
			await cli([
				'import:workflow',
				`--input=${file(
					'workflows.json',
					Object.values(WF).map(({ path, ...w }) => w),
				)}`,
			]);
		});
		const workerNames = ['worker-1', 'worker-2'];
		const startWorker = (name) =>
			startN8nWorker({
				userFolder: makeUserFolder(`mediagen-queue-${name}-`),
				extensionsDir,
				env: queueEnv,
				log: () => {},
			}).then((w) => {
				processes[name] = w;
				return w;
			});
		await timed('n8n main + 2 workers ready', () =>
			Promise.all([
				startN8n({
					port: mainPort,
					userFolder: mainFolder,
					extensionsDir,
					env: queueEnv,
					log: () => {},
				}).then((m) => (processes.main = m)),
				...workerNames.map(startWorker),
			]),
		);
		for (const [name, p] of Object.entries(processes))
			log(`${name}: pid ${p.pid}, ready in ${secs(p.startupMs)}`);
		await setupOwner(mainUrl);
		const apiKey = await createApiKey(mainUrl);
		// GETs are retried: under a burst of webhook deliveries the main may answer 500/503 for a moment
		const api = async (path, opts = {}) => {
			for (let attempt = 1; ; attempt++) {
				try {
					return await publicApi(mainUrl, apiKey, path, opts);
				} catch (e) {
					if ((opts.method ?? 'GET') !== 'GET' || attempt >= 10 || !/HTTP 5\d\d/.test(e.message))
						throw e;
					log(`retrying GET ${path.split('?')[0]}: ${e.message.slice(0, 80)}`);
					await sleep(1000);
				}
			}
		};
		await timed(
			'activate 5 workflows (public API; the trigger registers its endpoint at the sandbox)',
			async () => {
				for (const wf of Object.values(WF))
					await api(`/workflows/${wf.id}/activate`, { method: 'POST' });
			},
		);
		timings.setup = Date.now() - setupStarted;
		log(`setup total: ${secs(timings.setup)}`);

		// helpers over the running system
		const post = async (path, body) => {
			const res = await fetch(`${mainUrl}/webhook/${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
			if (!res.ok) throw new Error(`POST /webhook/${path}: HTTP ${res.status} ${await res.text()}`);
		};
		const executions = async (workflowId) =>
			(await api(`/executions?workflowId=${workflowId}&limit=100`)).data;
		const execution = (id) => api(`/executions/${id}?includeData=true`);
		const newExecution = (workflowId, known) =>
			until(`a new execution of ${workflowId}`, async () =>
				(await executions(workflowId)).find((e) => !known.has(String(e.id))),
			);
		const finished = (id, timeoutMs = 300_000) =>
			until(
				`execution ${id} to finish`,
				async () => {
					const e = await api(`/executions/${id}`);
					return ['success', 'error', 'crashed', 'canceled'].includes(e.status) ? e : undefined;
				},
				{ timeoutMs, everyMs: 200 },
			);
		/** which processes logged "Worker started execution <id>" */
		const ranOn = (id) =>
			Object.entries(processes)
				.filter(([, p]) => p.logs().includes(`Worker started execution ${id} `))
				.map(([n]) => n);
		const ledger = async () => (await sandbox.admin('/ledger')).data;
		const requests = async () => (await sandbox.admin('/requests')).data;
		const settled = () =>
			until('sandbox runs to settle', async () => {
				const s = await sandbox.admin('/state');
				return !s.runs_by_status.queued && !s.runs_by_status.processing ? s : undefined;
			});
		const imageItems = (exec) =>
			exec.data?.resultData?.runData?.['MediaGen Image']?.at(-1)?.data?.main?.[0] ?? [];
		/** every input item 0..n-1 output exactly once, each a completed run of its own */
		const checkItems = (items, n, what) => {
			const paired = items.map(
				(it) => (Array.isArray(it.pairedItem) ? it.pairedItem[0] : it.pairedItem)?.item,
			);
			const runIds = new Set(items.map((it) => it.json.id));
			check(items.length === n, `${what}: ${n} items out`, `got ${items.length}`);
			check(
				new Set(paired).size === n && paired.every((p) => p >= 0 && p < n),
				`${what}: each input item 0..${n - 1} exactly once (pairedItem)`,
			);
			check(runIds.size === n, `${what}: ${n} distinct runs`, `got ${runIds.size}`);
			check(
				items.every((it) => it.json.status === 'completed'),
				`${what}: every run completed`,
			);
			return runIds;
		};

		// --- 1. trigger ------------------------------------------------------------------------------
		log('--- 1. MediaGen Trigger in queue mode');
		const sandboxGet = (path) =>
			fetch(`${sandbox.baseUrl}${path}`, {
				headers: { authorization: `Bearer ${SANDBOX_KEY}` },
			}).then((r) => r.json());
		// activation returns before the trigger's create() has run
		const endpoints = await until(
			'the trigger endpoint at the sandbox',
			async () => {
				const list = await sandboxGet('/webhooks');
				return list.data?.length ? list : undefined;
			},
			{ timeoutMs: 30_000 },
		).catch(() => ({ data: [] }));
		const wfTrigger = await api(`/workflows/${WF.trigger.id}`);
		const triggerStatic = wfTrigger.staticData?.['node:MediaGen Trigger'] ?? {};
		log(
			`trigger static data keys: ${Object.keys(wfTrigger.staticData ?? {}).join(', ') || '(none in the public API answer)'}; ${JSON.stringify(Object.keys(triggerStatic))}`,
		);
		check(wfTrigger.active === true, 'trigger workflow active');
		check(
			endpoints.data?.length === 1 &&
				endpoints.data[0].url.startsWith(`${mainUrl}/webhook/`) &&
				(!wfTrigger.staticData || triggerStatic.endpointId === endpoints.data[0].id),
			'trigger endpoint registered at the sandbox for the main URL (its id + signing secret live in workflow static data)',
			JSON.stringify({
				triggerStatic: Object.keys(triggerStatic),
				endpoints: endpoints.data?.map((e) => e.url),
			}),
		);
		const knownTrigger = new Set((await executions(WF.trigger.id)).map((e) => String(e.id)));
		const knownDerived = new Set((await executions(WF.derived.id)).map((e) => String(e.id)));
		await post('mg-images', { tag: 'probe', count: 1, model: TRIGGER_MODEL });
		const probeSummary = await newExecution(WF.derived.id, knownDerived);
		knownDerived.add(String(probeSummary.id));
		const probe = await execution((await finished(probeSummary.id)).id);
		check(probe.status === 'success', `action execution ${probe.id} succeeded`, probe.status);
		const probeRun = imageItems(probe)[0]?.json;
		const trigSummary = await until(
			'the trigger execution',
			async () => {
				const e = (await executions(WF.trigger.id)).find((x) => !knownTrigger.has(String(x.id)));
				return e && ['success', 'error', 'crashed'].includes(e.status) ? e : undefined;
			},
			{ timeoutMs: 60_000 },
		);
		const trig = await execution(trigSummary.id);
		const event =
			trig.data?.resultData?.runData?.['MediaGen Trigger']?.[0]?.data?.main?.[0]?.[0]?.json ?? {};
		check(
			trig.status === 'success' && trig.mode === 'webhook',
			`trigger execution ${trig.id} succeeded (mode ${trig.mode})`,
		);
		check(
			event.type === 'run.completed' && event.run?.id === probeRun?.id,
			`trigger got run.completed for the action node's run ${probeRun?.id}`,
			`got ${event.type} ${event.run?.id}`,
		);
		const trigWorkers = ranOn(trig.id);
		check(
			trigWorkers.length === 1 && trigWorkers[0].startsWith('worker'),
			`trigger execution ran on a worker: ${trigWorkers.join(',')}`,
		);
		const probeWorkers = ranOn(probe.id);
		check(
			probeWorkers.length === 1 && probeWorkers[0].startsWith('worker'),
			`action execution ran on a worker: ${probeWorkers.join(',')}`,
		);
		const completedAt = Date.parse(event.run?.completed_at ?? event.created_at);
		timings.triggerLatency = Date.parse(trig.stoppedAt) - completedAt;
		timings.triggerStartLatency = Date.parse(trig.startedAt) - completedAt;
		log(
			`trigger latency: run completed → trigger execution started ${timings.triggerStartLatency} ms, finished ${timings.triggerLatency} ms (event created_at ${event.created_at})`,
		);
		const probeDelivery = (await sandboxGet('/webhooks/deliveries?limit=100')).data.find(
			(d) => d.event_id === event.event_id,
		);
		timings.triggerDeliveryMs = probeDelivery?.duration_ms;
		log(
			`the delivery: attempt ${probeDelivery?.attempt_count}, main answered ${probeDelivery?.response_status} in ${probeDelivery?.duration_ms} ms`,
		);
		report.trigger = {
			execution: trig.id,
			worker: trigWorkers[0],
			actionExecution: probe.id,
			actionWorker: probeWorkers[0],
			run: probeRun?.id,
			deliveryMs: probeDelivery?.duration_ms,
		};
		// The endpoint gets run.completed for every run of the account; the model filter runs inside the
		// node's webhook() on the main, so each of the batch's 200 events is still a request to the main.
		// That burst is measured on its own (MG_QUEUE_TRIGGER_DURING_BATCH=1); by default the trigger is
		// deactivated here so the batch and kill figures are not mixed with it.
		const triggerDuringBatch = process.env.MG_QUEUE_TRIGGER_DURING_BATCH === '1';
		if (!triggerDuringBatch) {
			await api(`/workflows/${WF.trigger.id}/deactivate`, { method: 'POST' });
			const gone = await until(
				'the endpoint removed at the sandbox',
				async () => ((await sandboxGet('/webhooks')).data.length === 0 ? true : undefined),
				{ timeoutMs: 30_000 },
			).catch(() => false);
			check(
				gone,
				'deactivating the trigger removes its endpoint at the sandbox (delete() on the main)',
			);
		}

		// --- 2. 200 items ----------------------------------------------------------------------------
		log(`--- 2. ${BATCH_ITEMS} image items on a worker`);
		await settled();
		const ledgerBefore = (await ledger()).length;
		const t2 = Date.now();
		await post('mg-images', { tag: 'batch', count: BATCH_ITEMS, model: BATCH_MODEL });
		const batchSummary = await newExecution(WF.derived.id, knownDerived);
		knownDerived.add(String(batchSummary.id));
		const batchDone = await finished(batchSummary.id);
		timings.batchWall = Date.now() - t2;
		timings.batchExecution = Date.parse(batchDone.stoppedAt) - Date.parse(batchDone.startedAt);
		log(
			`${BATCH_ITEMS} items: webhook → finished ${secs(timings.batchWall)} (execution ${secs(timings.batchExecution)})`,
		);
		const batch = await execution(batchDone.id);
		check(batch.status === 'success', `execution ${batch.id} succeeded`, batch.status);
		const batchWorkers = ranOn(batch.id);
		check(
			batchWorkers.length === 1 && batchWorkers[0].startsWith('worker'),
			`ran on a worker: ${batchWorkers.join(',')}`,
		);
		const batchRuns = checkItems(imageItems(batch), BATCH_ITEMS, 'batch');
		await settled();
		const batchCharges = (await ledger()).slice(ledgerBefore);
		const chargedRuns = new Set(batchCharges.map((c) => c.run_id));
		check(
			batchCharges.length === BATCH_ITEMS && chargedRuns.size === BATCH_ITEMS,
			`ledger: ${BATCH_ITEMS} charges, one per run`,
			`${batchCharges.length} charges over ${chargedRuns.size} runs`,
		);
		check(
			[...batchRuns].every((id) => chargedRuns.has(id)),
			'every output run is one of the charged runs',
		);
		const triggerAfterBatch = (await executions(WF.trigger.id)).length;
		report.batch = {
			execution: batch.id,
			worker: batchWorkers[0],
			charges: batchCharges.length,
			runs: chargedRuns.size,
		};

		// --- 3. a worker dies mid-run ----------------------------------------------------------------
		let kills = 0;
		const killCycle = async (wf, path, tag) => {
			const label = `${wf.settings.saveExecutionProgress ? 'saveExecutionProgress on' : 'default settings'}, ${wf === WF.keyed ? 'Idempotency Key option = {{ $json.key }}' : 'derived Idempotency-Key (default)'}`;
			log(`--- 3. SIGKILL the worker running ${KILL_ITEMS} items, ${label}`);
			await settled();
			const known = new Set((await executions(wf.id)).map((e) => String(e.id)));
			const ledger0 = (await ledger()).length;
			const req0 = (await requests()).length;
			const runs0 = (await sandbox.admin('/state')).runs;
			// long generations (like video), so that the worker dies while the execution waits for its runs
			await sandbox.admin('/options', {
				method: 'PATCH',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ latencyMs: KILL_LATENCY_MS }),
			});
			// the public API lists an execution only once it has finished: the main's log names it at once
			const enqueued = () =>
				[...processes.main.logs().matchAll(/Enqueued execution (\d+) /g)].map((m) => Number(m[1]));
			const lastBefore = Math.max(0, ...enqueued());
			await post(path, { tag, count: KILL_ITEMS, model: BATCH_MODEL });
			const summary = {
				id: String(
					await until(
						'the execution enqueued',
						async () => enqueued().find((id) => id > lastBefore),
						{ everyMs: 50 },
					),
				),
				status: 'enqueued',
			};
			const victimName = await until(
				'the worker that took the job',
				async () => ranOn(summary.id)[0],
				{ everyMs: 50 },
			);
			const victim = processes[victimName];
			log(
				`execution ${summary.id} (status ${summary.status}) taken by ${victimName}; runs so far: ${(await sandbox.admin('/state')).runs - runs0}`,
			);
			const submits = async () =>
				(await requests())
					.slice(req0)
					.filter((r) => r.method === 'POST' && r.path === '/v1/images/generations');
			const runsNow = async () => (await sandbox.admin('/state')).runs - runs0;
			await until(
				`${KILL_ITEMS / 2} runs created`,
				async () => (await runsNow()) >= KILL_ITEMS / 2,
				{ everyMs: 20 },
			);
			process.kill(victim.pid, 'SIGKILL');
			const killedAt = Date.now();
			const submittedBeforeKill = await runsNow();
			log(
				`SIGKILL ${victimName} (pid ${victim.pid}) running execution ${summary.id} after ${submittedBeforeKill} of ${KILL_ITEMS} runs were created`,
			);
			// a replacement, as a process supervisor would start one (in parallel with what follows)
			processes[`${victimName} (killed #${++kills})`] = victim;
			const replacement = (async () => {
				await victim.stop(); // reaps its task runner
				return startWorker(victimName);
			})();
			const dead = await finished(summary.id, 120_000);
			const detectMs = Date.now() - killedAt;
			const deadFull = await execution(dead.id);
			const deadError = deadFull.data?.resultData?.error?.message ?? '';
			log(
				`n8n marked execution ${dead.id} "${dead.status}" ${secs(detectMs)} after the kill: ${deadError.slice(0, 160)}`,
			);
			const stillQueued = enqueued().filter(
				(id) => id > lastBefore && String(id) !== String(dead.id),
			);
			check(
				dead.status === 'error' || dead.status === 'crashed',
				`the worker died mid-execution: n8n marks it "${dead.status}"`,
				'the kill came too late',
			);
			check(
				stillQueued.length === 0,
				'n8n did not re-queue it (no other execution started)',
				`${stillQueued.length} new executions`,
			);
			await settled();
			await sandbox.admin('/options', {
				method: 'PATCH',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ latencyMs: RUN_LATENCY_MS }),
			});
			const chargesBeforeRetry = (await ledger()).length - ledger0;
			log(
				`the killed execution's runs went on at the service: ${chargesBeforeRetry} charged (${submittedBeforeKill} created before the kill)`,
			);
			const replaced = await replacement;
			log(`replacement ${victimName}: pid ${replaced.pid}, ready in ${secs(replaced.startupMs)}`);

			const deadNodes = Object.keys(deadFull.data?.resultData?.runData ?? {});
			const stage = async (name, exec, ms) => {
				await settled();
				const charges = (await ledger()).slice(ledger0);
				const chargedRunIds = new Set(charges.map((c) => c.run_id));
				const posts = (await submits()).length;
				const runsCreated = await runsNow();
				const items = exec ? imageItems(exec) : [];
				const error = exec?.data?.resultData?.error;
				const r = {
					stage: name,
					execution: exec?.id ?? null,
					mode: exec?.mode ?? null,
					retryOf: exec?.retryOf ?? null,
					status: exec?.status ?? null,
					error: error
						? `${error.message ?? ''}${error.description ? ` (${String(error.description).slice(0, 160)})` : ''}`.slice(
								0,
								300,
							)
						: null,
					worker: exec ? (ranOn(exec.id)[0] ?? null) : null,
					ms,
					itemsOut: items.length,
					posts,
					runsCreated,
					charges: charges.length,
					runsChargedTwice: charges.length - chargedRunIds.size,
					itemsPaidTwice: charges.length - KILL_ITEMS,
				};
				log(
					`${name}: ${exec ? `execution ${exec.id} (mode ${r.mode}, retryOf ${r.retryOf ?? '-'}) "${r.status}" in ${secs(ms)} on ${r.worker}, ${r.itemsOut} items out${r.error ? `, error: ${r.error}` : ''}; ` : ''}service: ${posts} POSTs, ${runsCreated} runs, ${r.charges} charges`,
				);
				return { r, items, chargedRunIds };
			};
			const stages = [(await stage('after the kill', undefined, 0)).r];
			log(`the killed execution saved run data for: ${deadNodes.join(', ') || '(none)'}`);

			// n8n's retry: POST /api/v1/executions/:id/retry (the editor's "Retry" button does the same)
			let tr = Date.now();
			let retryExec;
			try {
				const retried = await api(`/executions/${dead.id}/retry`, {
					method: 'POST',
					body: { loadWorkflow: false },
				});
				retryExec = await execution((await finished(retried.id)).id);
			} catch (e) {
				log(`retry refused: ${e.message.slice(0, 200)}`);
			}
			let last = await stage('n8n retry', retryExec, Date.now() - tr);
			stages.push(last.r);
			if (last.r.status !== 'success' || last.items.length !== KILL_ITEMS) {
				// what a user does next: send the same input again (a new execution)
				tr = Date.now();
				const known2 = new Set((await executions(wf.id)).map((e) => String(e.id)));
				await post(path, { tag, count: KILL_ITEMS, model: BATCH_MODEL });
				const rerun = await execution((await finished((await newExecution(wf.id, known2)).id)).id);
				last = await stage('re-run (same input, new execution)', rerun, Date.now() - tr);
				stages.push(last.r);
			}
			check(
				last.r.status === 'success',
				`${last.r.stage} of the killed execution succeeded`,
				last.r.status,
			);
			const runIds = checkItems(last.items, KILL_ITEMS, `after the ${last.r.stage}`);
			check(last.r.runsChargedTwice === 0, `no run charged twice (${last.r.charges} charges)`);
			check(
				[...runIds].every((id) => last.chargedRunIds.has(id)),
				'every output run is charged',
			);
			const result = {
				label,
				execution: dead.id,
				worker: victimName,
				runsBeforeKill: submittedBeforeKill,
				status: dead.status,
				error: deadError.slice(0, 200),
				detectMs,
				savedRunData: deadNodes,
				stages,
				chargesBeforeRetry,
				itemsChargedTwice: last.r.itemsPaidTwice,
			};
			log(
				`charges for ${KILL_ITEMS} items: ${stages.map((x) => `${x.stage} ${x.charges}`).join(', ')} → ${result.itemsChargedTwice} items paid twice`,
			);
			return result;
		};

		const keyed = await killCycle(WF.keyed, WF.keyed.path, 'kill-keyed');
		check(
			keyed.itemsChargedTwice === 0,
			"stable item key: kill + retry + re-run pay each item once (the re-run replays the killed execution's runs)",
			`${keyed.itemsChargedTwice} paid twice`,
		);
		// The derived key holds the execution id: what a retry costs depends on whether it keeps the id.
		const derivedCheck = (r) => {
			const final = r.stages.at(-1);
			check(
				r.itemsChargedTwice ===
					(String(final.execution) === String(r.execution) ? 0 : r.chargesBeforeRetry),
				`derived key: the ${final.stage} is execution ${final.execution} (killed: ${r.execution}), so the killed execution's ${r.chargesBeforeRetry} charged runs are ${String(final.execution) === String(r.execution) ? 'replayed' : 'paid again'}`,
				`${r.itemsChargedTwice} paid twice, ${r.chargesBeforeRetry} charged before`,
			);
		};
		const derivedProgress = await killCycle(
			WF.derivedProgress,
			WF.derivedProgress.path,
			'kill-progress',
		);
		derivedCheck(derivedProgress);
		const derived = await killCycle(WF.derived, WF.derived.path, 'kill-derived');
		derivedCheck(derived);
		report.kill = { keyed, derivedProgress, derived };
		check(
			(await executions(WF.trigger.id)).length === triggerAfterBatch,
			'no trigger executions from the batch runs (model filter)',
		);

		// --- 4. a paused execution (Wait Mode) whose worker dies while it is paused ----------------------
		report.paused = await pausedScenario({
			workflow: WF.paused,
			api,
			post,
			processes,
			ranOn,
			startWorker,
			sandbox,
			settled,
			ledger,
			until,
			check,
			log,
			secs,
			sandboxKey: SANDBOX_KEY,
			latencyMs: RUN_LATENCY_MS,
		});

		// every event the sandbox sent to the trigger (the batch and kill runs' events are filtered out by model)
		const deliveries = [];
		for (let after; ; ) {
			const page = await sandboxGet(
				`/webhooks/deliveries?limit=100${after ? `&starting_after=${after}` : ''}`,
			);
			deliveries.push(...page.data);
			if (!page.has_more || !page.data.length) break;
			after = page.data.at(-1).id;
		}
		const byStatus = deliveries.reduce(
			(acc, d) => ({ ...acc, [d.status]: (acc[d.status] ?? 0) + 1 }),
			{},
		);
		const retried = deliveries.filter((d) => d.attempt_count > 1).length;
		const durations = deliveries
			.filter((d) => d.status === 'success')
			.map((d) => d.duration_ms)
			.sort((a, b) => a - b);
		const pct = (p) =>
			durations[Math.min(durations.length - 1, Math.floor((p / 100) * durations.length))];
		report.deliveries = {
			total: deliveries.length,
			byStatus,
			deliveredAfterRetry: retried,
			lastAttemptMs: { p50: pct(50), p95: pct(95), max: durations.at(-1) },
		};
		log(`webhook deliveries to the main: ${JSON.stringify(report.deliveries)}`);
		report.timings = timings;
		exitCode = failures.length ? 1 : 0;
	} catch (e) {
		console.error(e.stack ?? e);
		failures.push(`crashed: ${e.message}`);
	} finally {
		const logsDir = mkdtempSync(join(tmpdir(), 'mediagen-queue-logs-'));
		for (const [name, p] of Object.entries(processes))
			writeFileSync(join(logsDir, `${name}.log`), p.logs());
		await Promise.all(Object.values(processes).map((p) => p.stop().catch(() => {})));
		for (const stop of stops.reverse()) await stop().catch(() => {});
		console.log('\n=== summary');
		console.log(JSON.stringify(report, null, 2));
		console.log(`n8n logs: ${logsDir}`);
		console.log(
			failures.length
				? `FAILED (${failures.length}):\n- ${failures.join('\n- ')}`
				: `all checks passed in ${secs(Date.now() - t0)}`,
		);
		process.exit(failures.length ? 1 : exitCode);
	}
}

await main();
