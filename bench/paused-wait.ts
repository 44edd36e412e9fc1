/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console -- benchmark tool: runs in Node, never shipped (CONTRIBUTING.md, Linting) */
/**
 * Benchmark row "100 long runs: worker time held while waiting, in the execution vs paused".
 * `measurePausedWait()` is meant to be called by the benchmark (bench/run.ts); on its own:
 * `npm run bench:paused [-- --items 100 --latency 30000 --paused-only --dist build/before-dist]` prints the rows and writes
 * bench/paused-wait.json.
 *
 * Both rows run the MediaGen Video node (the published bundle) through n8n-core's WorkflowExecute
 * against the sandbox (in this process, every run lasting `latency`). "Worker held" is the time
 * WorkflowExecute runs the execution — what an n8n worker (or the main, in regular mode) spends on
 * it: the whole wait in the execution; for a paused one, until it pauses plus after it resumes. The
 * deliveries that resume it are handled on n8n's main (webhook processes): "main held" is the time
 * the node's webhook took for all of them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import type { MediaGenVideo as MediaGenVideoType } from '../nodes/MediaGenVideo/MediaGenVideo.node';
import { SANDBOX_ACCOUNT_ID, SANDBOX_API_KEY } from '../sandbox/options';
import { startSandbox } from '../sandbox/server';
import { runNode, TestCredentialsHelper } from '../test/helpers/n8n-harness';
import { PausedExecutionHost } from '../test/helpers/paused-harness';

export interface PausedWaitRow {
	row: string;
	items: number;
	latency_ms: number;
	/** from the start of the execution until its outputs are there */
	wall_s: number;
	worker_held_s: number;
	main_held_s: number;
	/** requests to the service about runs (`/runs…`) from the pause (or the last submit) until the first run finished */
	run_reads_while_waiting: number;
	/** `GET /runs` (list pages) and `GET /runs/{id}` from the pause (or the last submit) to the end */
	run_list_reads: number;
	run_own_reads: number;
	/** from the last run's completion to the outputs being there (resumed with its files downloaded, or the in-execution wait done) */
	after_last_event_s: number;
	/** from the last run's completion to the node's answer that it resumes (before it downloads the outputs) */
	resume_answered_after_last_event_s?: number;
	/** from the last run's completion to the last delivery's arrival at n8n (the service's delivery pace, not the node's) */
	last_delivery_after_last_finish_s?: number;
	/** from the last delivery's arrival at n8n to the node's answer that it resumes */
	resume_answered_after_last_delivery_s?: number;
	/** deliveries to the paused execution (answers other than 200 included) and how many resumed it */
	deliveries?: number;
	failed_deliveries?: number;
	resumes?: number;
	outputs: number;
	charges: number;
}

/** Measures `items` video generations of `latencyMs` each, waited for in the execution and with the execution paused. */
export async function measurePausedWait(
	items = 100,
	latencyMs = 30_000,
	{ pausedOnly = false, dist = 'dist' } = {},
): Promise<PausedWaitRow[]> {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the published bundle, loaded by path as n8n does
	const { MediaGenVideo } = require(
		join(process.cwd(), dist, 'nodes/MediaGenVideo/MediaGenVideo.node.js'),
	) as { MediaGenVideo: typeof MediaGenVideoType };
	const sandbox = await startSandbox({
		latencyMs,
		concurrencyPerAccount: items,
		rateLimitPerSecond: 10_000,
	});
	const host = await PausedExecutionHost.start();
	const credentials = new TestCredentialsHelper();
	credentials.set('mediaGenApi', { baseUrl: sandbox.baseUrl, apiKey: SANDBOX_API_KEY });
	const input = Array.from({ length: items }, (_, i) => ({ json: { prompt: `shot ${i}` } }));
	const parameters = {
		resource: 'video',
		operation: 'generate',
		prompt: '={{ $json.prompt }}',
		duration: 5,
		options: { concurrency: 20, waitTimeout: 3600 },
	};
	const rows: PausedWaitRow[] = [];
	const runReads = (from: number, to: number) =>
		sandbox.state.requests.filter((r) => r.path.startsWith('/v1/runs') && r.at >= from && r.at < to)
			.length;
	const charged = (ids: string[]) =>
		ids.reduce((sum, id) => sum + sandbox.state.chargesFor(id).length, 0);
	const finishTimes = (ids: string[]) =>
		ids.map((id) => Date.parse(String(sandbox.state.runs.get(id)!.run.completed_at)));
	const firstFinished = (ids: string[]) => Math.min(...finishTimes(ids));
	const lastFinished = (ids: string[]) => Math.max(...finishTimes(ids));
	const reads = (from: number, to: number) => {
		const runs = sandbox.state.requests.filter(
			(r) => r.method === 'GET' && r.path.startsWith('/v1/runs') && r.at >= from && r.at <= to,
		);
		return {
			run_list_reads: runs.filter((r) => r.path === '/v1/runs').length,
			run_own_reads: runs.filter((r) => r.path !== '/v1/runs').length,
		};
	};
	try {
		if (!pausedOnly) {
			const started = Date.now();
			const here = await runNode({
				nodeType: new MediaGenVideo(),
				credentials,
				parameters: { ...parameters, waitMode: 'inExecution' },
				input,
			});
			const ended = Date.now();
			const hereIds = here.items.map((i) => String(i.json.id));
			const lastSubmit = Math.max(
				...sandbox.state.requests
					.filter((r) => r.method === 'POST' && r.path === '/v1/videos/generations')
					.map((r) => r.at),
			);
			rows.push({
				row: 'in this execution (polling)',
				items,
				latency_ms: latencyMs,
				wall_s: (ended - started) / 1000,
				worker_held_s: (ended - started) / 1000,
				main_held_s: 0,
				run_reads_while_waiting: runReads(lastSubmit, firstFinished(hereIds)),
				...reads(started, ended),
				after_last_event_s: (ended - lastFinished(hereIds)) / 1000,
				outputs: here.items.filter((i) => i.binary?.data).length,
				charges: charged(hereIds),
			});
		}

		const pausedStart = Date.now();
		const paused = await host.run({
			nodeType: new MediaGenVideo(),
			credentials,
			parameters: { ...parameters, waitMode: 'parked' },
			input,
		});
		const pausedAt = Date.now();
		if (paused.run.status !== 'waiting')
			throw new Error(
				`the execution did not pause: ${JSON.stringify(paused.run.data.resultData.runData.MediaGen?.[0]?.hints ?? paused.error)}`,
			);
		const resumed = await host.finished(paused.executionId, latencyMs + 120_000);
		const pausedIds = resumed.items.map((i) => String(i.json.id));
		const worker = host.runTimes(paused.executionId).reduce((a, b) => a + b, 0);
		const main = host.deliveries
			.filter((d) => d.executionId === paused.executionId)
			.reduce((sum, d) => sum + d.webhookMs, 0);
		const ours = host.deliveries.filter((d) => d.executionId === paused.executionId);
		const resumedAt = host.resumedAt(paused.executionId) ?? NaN;
		const lastArrival = Math.max(...ours.map((d) => d.at));
		const resuming = ours.find((d) => d.resumed);
		const resumeAnswer = sandbox.services.webhooks
			.listDeliveries(SANDBOX_ACCOUNT_ID)
			.find((d) => String(d.response_body ?? '').includes('"resumed":true'));
		rows.push({
			row: 'paused until the runs finish',
			items,
			latency_ms: latencyMs,
			wall_s: (Date.now() - pausedStart) / 1000,
			worker_held_s: worker / 1000,
			main_held_s: main / 1000,
			run_reads_while_waiting: runReads(pausedAt, firstFinished(pausedIds)),
			...reads(pausedAt, resumedAt),
			after_last_event_s: (resumedAt - lastFinished(pausedIds)) / 1000,
			resume_answered_after_last_event_s: resumeAnswer
				? (Date.parse(String(resumeAnswer.updated_at)) - lastFinished(pausedIds)) / 1000
				: undefined,
			last_delivery_after_last_finish_s: (lastArrival - lastFinished(pausedIds)) / 1000,
			resume_answered_after_last_delivery_s: resuming?.answeredAt
				? (resuming.answeredAt - lastArrival) / 1000
				: undefined,
			deliveries: ours.length,
			failed_deliveries: ours.filter((d) => d.status !== 200).length,
			resumes: ours.filter((d) => d.resumed).length,
			outputs: resumed.items.filter((i) => i.binary?.data).length,
			charges: charged(pausedIds),
		});
	} finally {
		await host.close();
		await sandbox.close();
	}
	return rows;
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			items: { type: 'string', default: '100' },
			latency: { type: 'string', default: '30000' },
			'paused-only': { type: 'boolean', default: false },
			dist: { type: 'string', default: 'dist' },
		},
	});
	const rows = await measurePausedWait(Number(values.items), Number(values.latency), {
		pausedOnly: values['paused-only'],
		dist: values.dist,
	});
	console.table(rows);
	if (values.dist === 'dist')
		writeFileSync(
			'bench/paused-wait.json',
			`${JSON.stringify({ measured_at: new Date().toISOString(), rows }, null, 2)}\n`,
		);
}

// run as `node build/bench/paused-wait.js` only: bundled into build/bench/run.js, `require.main === module`
// holds there too, and this main's process.exit would end `npm run bench` before its own rows
if (/paused-wait\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) {
	main().then(
		() => process.exit(0),
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
}
