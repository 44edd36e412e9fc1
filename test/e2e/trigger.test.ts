import {
	binaryBytes,
	describeWithN8n,
	endpointsFor,
	eventually,
	executeWorkflow,
	n8nApi,
	outputOf,
	readE2eState,
	type N8nExecution,
} from './state';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const EVENT_DRIVEN = '03-event-driven-download';

describeWithN8n(
	'the MediaGen Trigger in real n8n (example 03, signed deliveries from the sandbox)',
	() => {
		const state = readE2eState();
		const workflowId = state.examples?.[EVENT_DRIVEN];

		it('activation registers the endpoint; each completed run starts one execution that downloads its PNG; a forged delivery starts nothing; deactivation deletes the endpoint', async () => {
			expect(workflowId).toBeDefined();
			expect(await endpointsFor(state)).toEqual([]);

			await n8nApi(state, `/workflows/${workflowId}/activate`, 'POST');
			const endpoint = await eventually(
				'the endpoint to be registered',
				async () => (await endpointsFor(state))[0],
			);
			expect(endpoint.url).toMatch(new RegExp(`^${state.n8nUrl}/webhook/`));
			expect(endpoint.events).toEqual(['run.completed']);
			expect(endpoint.status).toBe('active');

			// An action node's runs complete: example 04 (four MediaGen Image runs) through n8n execute.
			const action = await executeWorkflow(state, state.examples['04-many-prompts-at-once']);
			expect(action.status).toBe('success');
			const runIds = outputOf(action, 'Generate Images').map((i) => String(i.json.run_id));
			expect(runIds).toHaveLength(4);

			const triggered = await eventually('one trigger execution per run', async () => {
				const list = await n8nApi<{ data: N8nExecution[] }>(
					state,
					`/executions?workflowId=${workflowId}&includeData=true&limit=100`,
				);
				const byRun = new Map<string, N8nExecution[]>();
				for (const execution of list.data) {
					const [event] =
						execution.data?.resultData.runData['Run Completed']?.[0]?.data?.main[0] ?? [];
					const runId = String(event?.json.run_id ?? '');
					if (runIds.includes(runId)) byRun.set(runId, [...(byRun.get(runId) ?? []), execution]);
				}
				const done = runIds.every((id) =>
					byRun.get(id)?.every((e) => e.status !== 'running' && e.status !== 'new'),
				);
				return byRun.size === runIds.length && done ? byRun : undefined;
			});
			for (const runId of runIds) {
				const executions = triggered.get(runId)!;
				expect(executions).toHaveLength(1);
				const [execution] = executions;
				expect(execution.status).toBe('success');
				expect(execution.mode).toBe('webhook');
				const runData = execution.data!.resultData.runData;
				const [event] = runData['Run Completed'][0].data!.main[0];
				// the example's trigger simplifies the event: the run's fields flat, then which event it was
				expect(event.json).toMatchObject({
					event: 'run.completed',
					run_id: runId,
					status: 'completed',
					output_url: expect.stringMatching(/^http/),
				});
				expect(event.json.event_id).toMatch(/^evt_/);
				const [download] = runData['Download Output'][0].data!.main[0];
				expect(download.binary?.data.mimeType).toBe('image/png');
				expect(binaryBytes(state, download.binary!.data).subarray(0, 8)).toEqual(PNG_SIGNATURE);
			}

			// A forged delivery (right shape, wrong signature) is refused and records nothing.
			const before = (
				await n8nApi<{ data: N8nExecution[] }>(
					state,
					`/executions?workflowId=${workflowId}&limit=100`,
				)
			).data.length;
			const forgedBody = JSON.stringify({
				id: 'evt_forged',
				object: 'event',
				type: 'run.completed',
				created_at: new Date().toISOString(),
				data: {
					object: {
						id: 'run_forged',
						object: 'run',
						status: 'completed',
						output: { output_url: `${state.sandbox.origin}/nowhere.png` },
					},
				},
			});
			const forged = await fetch(endpoint.url, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'X-Service-Signature': `sha256=${'0'.repeat(64)}`,
					'X-Service-Event': 'run.completed',
				},
				body: forgedBody,
			});
			expect(forged.status).toBe(401);
			const unsigned = await fetch(endpoint.url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: forgedBody,
			});
			expect(unsigned.status).toBe(401);
			const after = await n8nApi<{ data: N8nExecution[] }>(
				state,
				`/executions?workflowId=${workflowId}&limit=100`,
			);
			expect(after.data).toHaveLength(before);

			// Deactivation deletes the endpoint at the service.
			await n8nApi(state, `/workflows/${workflowId}/deactivate`, 'POST');
			await eventually('the endpoint to be deleted', async () =>
				(await endpointsFor(state)).length === 0 ? true : undefined,
			);
		});
	},
);
