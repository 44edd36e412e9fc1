// Wait Mode "Pause the Execution" on the n8n this suite runs (README, Compatibility): n8n 2.x gives
// nodes the execution's custom data, where a paused node keeps its state, so the execution pauses
// and the service's event resumes it; n8n 1.x gives none, so the node waits in the execution and
// says why. `npm test` runs this on the pinned 2.x line, `npm run test:compat` on 1.123 too. The
// paused wait itself (restarts, forged events, deadlines, batches): paused-wait.test.ts.
import type { RequestLogEntry } from '../../sandbox/state';
import { callWebhook, publicApi } from './own-n8n-client';
import {
	describeWithN8n,
	endpointsFor,
	eventually,
	n8nApi,
	readE2eState,
	sandboxRequests,
	type E2eState,
	type N8nExecution,
	webhookThenMake,
} from './state';

/** Long enough that the runs are still going when the node decides whether to pause. */
const RUN_MS = 5000;

async function sandboxOptions(state: E2eState, options: Record<string, unknown>): Promise<void> {
	const res = await fetch(`${state.sandbox.origin}/_sandbox/options`, {
		method: 'PATCH',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(options),
	});
	if (!res.ok) throw new Error(`PATCH /_sandbox/options: HTTP ${res.status}`);
}

/** A POST /webhooks of the node for a paused execution's resume URL (n8n's /webhook-waiting/). */
const pauseRegistrations = (requests: RequestLogEntry[]) =>
	requests.filter(
		(r) =>
			r.method === 'POST' &&
			r.path === '/v1/webhooks' &&
			String((r.body as { url?: unknown } | undefined)?.url).includes('/webhook-waiting/'),
	);

describeWithN8n('Wait Mode "Pause the Execution" on the n8n this suite runs', () => {
	const state = readE2eState();
	// n8n 1.x gives nodes no execution custom data (src/waits/pause.ts, whyNotPause)
	const givesCustomData = Number(state.n8nVersion.split('.')[0]) >= 2;

	afterAll(async () => sandboxOptions(state, { latencyMs: 300 }));

	it(
		givesCustomData
			? `n8n ${state.n8nVersion}: Video → Generate (default Wait Mode) pauses the execution, and the run's event resumes it with the video`
			: `n8n ${state.n8nVersion}: Video → Generate (default Wait Mode) waits in the execution, delivers the video and says why it did not pause`,
		async () => {
			const path = `wait-mode-${Date.now()}`;
			const workflow = await publicApi<{ id: string }>(
				{ url: state.n8nUrl },
				state.apiKey,
				'/workflows',
				'POST',
				webhookThenMake('Video, default Wait Mode', path, {
					type: 'CUSTOM.mediaGenVideo',
					typeVersion: 1,
					credentials: { mediaGenApi: state.credentials.full },
					parameters: {
						resource: 'video',
						operation: 'generate',
						prompt: 'a fox at dawn, wait mode e2e',
						duration: 5,
					},
				}),
			);
			await sandboxOptions(state, { latencyMs: RUN_MS });
			const before = (await sandboxRequests(state)).length;
			await n8nApi(state, `/workflows/${workflow.id}/activate`, 'POST');
			try {
				await callWebhook(state.n8nUrl, path);
				const done = await eventually(
					'the execution to finish',
					async () =>
						(
							await n8nApi<{ data: N8nExecution[] }>(
								state,
								`/executions?workflowId=${workflow.id}&includeData=true&limit=10`,
							)
						).data.find((e) => e.status === 'success' || e.status === 'error'),
					120_000,
				);
				expect(done.status).toBe('success');
				const make = done.data!.resultData.runData.Make;
				const [item] = make.at(-1)!.data!.main[0];
				// node version 1: the run as the service returns it, its video as binary
				expect(item.json).toMatchObject({ object: 'run', status: 'completed' });
				expect(item.binary?.data.mimeType).toBe('video/mp4');
				const registrations = pauseRegistrations((await sandboxRequests(state)).slice(before));
				const hints = make.flatMap((run) => run.hints ?? []).map((h) => h.message);
				if (givesCustomData) {
					expect(registrations).toHaveLength(1);
					// resumed: the paused execution's endpoint is removed (no leftover for other tests)
					await eventually('the paused endpoint to be removed', async () =>
						(await endpointsFor(state)).length === 0 ? true : undefined,
					);
				} else {
					expect(registrations).toEqual([]);
					expect(hints).toEqual(
						expect.arrayContaining([
							expect.stringContaining(
								'Waited in this execution instead of pausing it: this n8n gives nodes no execution custom data',
							),
						]),
					);
				}
			} finally {
				await n8nApi(state, `/workflows/${workflow.id}/deactivate`, 'POST');
			}
		},
	);
});
