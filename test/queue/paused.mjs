// Step 4 of `npm run test:queue`: Wait Mode "Pause the Execution" in queue mode. A webhook-started
// execution (so it runs on a worker) pauses for its video runs; the worker that ran it is killed
// while it is paused; the runs' signed events reach the main, which resumes it; a worker finishes it.
// Checks: paused on one worker, resumed through the main, finished on a worker, every output there,
// one run and one charge per item.
import { randomUUID } from 'node:crypto';

const ITEMS = 10;
/** long enough to kill the worker and start another while the runs go on */
const LATENCY_MS = 25_000;

/** Imported and activated with the other workflows (run.mjs): created and activated through the public API at step 4, its webhook answered 404 "not registered" to the first call. */
export function pausedWorkflow(credential) {
	const id = 'mgQueuePaused';
	return {
		id,
		path: 'mg-paused',
		name: 'Queue paused videos',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: `${id}-1`,
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { path: 'mg-paused', httpMethod: 'POST', responseMode: 'onReceived' },
			},
			{
				id: `${id}-2`,
				name: 'Items',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: {
					jsCode: `return Array.from({ length: ${ITEMS} }, (_, i) => ({ json: { prompt: 'paused #' + i } }));`,
				},
			},
			{
				id: `${id}-3`,
				name: 'MediaGen Video',
				type: 'CUSTOM.mediaGenVideo',
				typeVersion: 1,
				position: [440, 0],
				parameters: {
					resource: 'video',
					operation: 'generate',
					prompt: '={{ $json.prompt }}',
					duration: 5,
					waitMode: 'parked',
					options: {},
				},
				credentials: { mediaGenApi: credential },
			},
			{
				id: `${id}-4`,
				name: 'Done',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [660, 0],
				parameters: {},
			},
		],
		connections: {
			Webhook: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: 'MediaGen Video', type: 'main', index: 0 }]] },
			'MediaGen Video': { main: [[{ node: 'Done', type: 'main', index: 0 }]] },
		},
	};
}

/**
 * @param {object} q what run.mjs has set up: the workflow (pausedWorkflow(), active), api, post,
 *   processes, ranOn, startWorker, sandbox, settled, ledger, until, check, log, secs, sandboxKey,
 *   latencyMs (to restore)
 */
export async function pausedScenario(q) {
	const {
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
	} = q;
	log(
		`--- 4. a paused execution (${ITEMS} video runs of ${LATENCY_MS / 1000} s) whose worker is killed while it is paused`,
	);
	await settled();
	const setLatency = (latencyMs) =>
		sandbox.admin('/options', {
			method: 'PATCH',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ latencyMs }),
		});
	await setLatency(LATENCY_MS);
	const wf = q.workflow;
	const ledger0 = (await ledger()).length;
	const enqueued = () =>
		[...processes.main.logs().matchAll(/Enqueued execution (\d+) /g)].map((m) => Number(m[1]));
	const lastBefore = Math.max(0, ...enqueued());
	const t0 = Date.now();
	await post(wf.path, {});
	const id = String(
		await until('the execution enqueued', async () => enqueued().find((e) => e > lastBefore), {
			everyMs: 50,
		}),
	);
	const paused = await until(
		`execution ${id} waiting`,
		async () => {
			const e = await api(`/executions/${id}`).catch(() => undefined);
			return e?.status === 'waiting' ? e : undefined;
		},
		{ timeoutMs: 60_000, everyMs: 200 },
	);
	const pausedMs = Date.now() - t0;
	const [workerName] = ranOn(id);
	check(
		paused.status === 'waiting' && Boolean(workerName?.startsWith('worker')),
		`execution ${id} paused (status waiting) on ${workerName} after ${secs(pausedMs)}`,
	);
	const sandboxGet = async (path) =>
		(
			await fetch(`${sandbox.baseUrl}${path}`, {
				headers: { authorization: `Bearer ${q.sandboxKey}` },
			}).then((r) => r.json())
		).data ?? [];
	const endpoint = (await sandboxGet('/webhooks')).find((e) =>
		String(e.description).includes(`n8n execution ${id} `),
	);
	check(
		Boolean(endpoint?.url.includes(`/webhook-waiting/${id}`)),
		`its webhook endpoint at the sandbox is the execution's resume URL (${endpoint?.url.split('?')[0]})`,
	);
	/** how many times each process logged that it started this execution */
	const starts = () =>
		new Map(
			Object.entries(processes).map(([name, p]) => [
				name,
				p.logs().split(`Worker started execution ${id} `).length - 1,
			]),
		);

	// the worker that ran it dies while it is paused; a supervisor starts another
	const victim = processes[workerName];
	process.kill(victim.pid, 'SIGKILL');
	processes[`${workerName} (killed while paused)`] = victim;
	await victim.stop();
	await startWorker(workerName);
	check(
		(await api(`/executions/${id}`)).status === 'waiting',
		`after SIGKILL of ${workerName} the execution is still waiting`,
	);
	const startsBefore = starts();

	const done = await until(
		`execution ${id} to finish`,
		async () => {
			const e = await api(`/executions/${id}`).catch(() => undefined);
			return ['success', 'error', 'crashed', 'canceled'].includes(e?.status) ? e : undefined;
		},
		{ timeoutMs: LATENCY_MS + 120_000, everyMs: 500 },
	);
	const full = await api(`/executions/${id}?includeData=true`);
	const outputs = full.data?.resultData?.runData?.['MediaGen Video']?.at(-1)?.data?.main?.[0] ?? [];
	const startsAfter = starts();
	const finishedOn = [...startsAfter]
		.filter(([name, n]) => n > (startsBefore.get(name) ?? 0))
		.map(([name]) => name);
	check(
		done.status === 'success',
		`execution ${id} resumed and succeeded after ${secs(Date.now() - t0)}`,
		done.status,
	);
	check(
		startsAfter.get('main') === 0 &&
			finishedOn.length === 1 &&
			finishedOn[0].startsWith('worker') &&
			startsAfter.get(finishedOn[0]) === (startsBefore.get(finishedOn[0]) ?? 0) + 1,
		`resumed through the main, finished on ${finishedOn.join(', ')}`,
		JSON.stringify([...startsAfter]),
	);
	// from the event that resumed it (answered by the main) to the resumed node's start on a worker
	const resumedBy = (await sandboxGet('/webhooks/deliveries?limit=100')).find(
		(d) => d.endpoint_id === endpoint?.id && String(d.response_body).includes('"resumed":true'),
	);
	const resumedAt = full.data?.resultData?.runData?.['MediaGen Video']?.at(-1)?.startTime;
	const resumeMs = resumedBy && resumedAt ? resumedAt - Date.parse(resumedBy.created_at) : NaN;
	check(
		resumeMs >= 0,
		`resumed on a worker ${secs(resumeMs)} after the ${resumedBy?.event_type} event of the run that finished last`,
	);
	const runIds = new Set(outputs.map((o) => o.json.id));
	check(
		outputs.length === ITEMS &&
			runIds.size === ITEMS &&
			outputs.every(
				(o) => o.json.status === 'completed' && o.binary?.data?.mimeType === 'video/mp4',
			),
		`${ITEMS} outputs, each its own completed run with its MP4`,
		`${outputs.length} outputs, ${runIds.size} runs`,
	);
	check(
		(full.data?.resultData?.runData?.Done?.[0]?.data?.main?.[0] ?? []).length === ITEMS,
		`the node after it got ${ITEMS} items`,
	);
	await settled();
	const charges = (await ledger()).slice(ledger0);
	check(
		charges.length === ITEMS &&
			new Set(charges.map((c) => c.run_id)).size === ITEMS &&
			[...runIds].every((r) => charges.some((c) => c.run_id === r)),
		`${ITEMS} charges, one per output run (nothing paid twice)`,
		`${charges.length} charges`,
	);
	check(
		!(await sandboxGet('/webhooks')).some((e) => e.id === endpoint?.id),
		'its webhook endpoint is deleted',
	);
	await setLatency(q.latencyMs);
	return {
		execution: id,
		pausedOn: workerName,
		finishedOn: finishedOn[0],
		pausedMs,
		resumeMs,
		totalMs: Date.now() - t0,
		outputs: outputs.length,
		charges: charges.length,
	};
}
