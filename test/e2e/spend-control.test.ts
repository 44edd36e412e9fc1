/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// Spend control in real n8n (the suite's n8n and sandbox): n8n's own "Retry" of a failed execution
// through its public API (POST /api/v1/executions/{id}/retry, with and without loadWorkflow), and
// the credential's Credit Limit per Day when two executions race for the last credits. Each test
// bills an account of its own, so its ledger (GET /usage) holds only its runs.
import type { LedgerEntry, RequestLogEntry } from '../../sandbox/state';
import { maxParallelSubmits, useBatchApi } from '../../src/runs/submit-options';
import {
	describeWithN8n,
	eventually,
	n8nApi,
	readE2eState,
	sandboxAdmin,
	type E2eState,
	type N8nItem,
	webhookStart,
} from './state';

interface Execution {
	id: string;
	status: string;
	data?: {
		resultData: {
			runData: Record<
				string,
				Array<{ data?: { main: N8nItem[][] }; hints?: Array<{ message: string }> }>
			>;
		};
	};
}

/** Webhook `path` → Code (items) → Generate (MediaGen Image) → Done. */
function imageWorkflow(
	name: string,
	path: string,
	credential: { id: string; name: string },
	items: number,
	generate: Record<string, unknown>,
) {
	return {
		name,
		nodes: [
			webhookStart(path, `${path}-start`),
			{
				id: `${path}-items`,
				name: 'Items',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [200, 0],
				parameters: {
					jsCode: `return Array.from({ length: ${items} }, (_, i) => ({ json: { n: i + 1 } }));`,
				},
			},
			{
				id: `${path}-generate`,
				name: 'Generate',
				type: 'CUSTOM.mediaGenImage',
				typeVersion: 1,
				position: [400, 0],
				credentials: { mediaGenApi: credential },
				...generate,
			},
			{
				id: `${path}-done`,
				name: 'Done',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [600, 0],
				parameters: {},
			},
		],
		connections: {
			Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: 'Generate', type: 'main', index: 0 }]] },
			Generate: { main: [[{ node: 'Done', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

const generateImages = (prompt: string, extra: Record<string, unknown> = {}) => ({
	parameters: {
		resource: 'image',
		operation: 'generate',
		model: 'image.aurora-2',
		prompt: `={{ "${prompt} " + $json.n }}`,
		aspectRatio: '1:1',
		count: 1,
		options: {},
	},
	...extra,
});

async function admin(
	state: E2eState,
	path: string,
	method: string,
	body?: unknown,
): Promise<unknown> {
	const res = await fetch(`${state.sandbox.origin}/_sandbox${path}`, {
		method,
		headers: { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!res.ok) throw new Error(`${method} /_sandbox${path}: HTTP ${res.status}`);
	return res.status === 204 ? undefined : await res.json();
}

async function n8nWrite<T>(
	state: E2eState,
	path: string,
	method: string,
	body: unknown,
): Promise<T> {
	const res = await fetch(`${state.n8nUrl}/api/v1${path}`, {
		method,
		headers: {
			'X-N8N-API-KEY': state.apiKey,
			'content-type': 'application/json',
			accept: 'application/json',
		},
		body: JSON.stringify(body),
	});
	if (!res.ok) throw new Error(`${method} /api/v1${path}: HTTP ${res.status} ${await res.text()}`);
	return (await res.json()) as T;
}

describeWithN8n('spend control in real n8n', () => {
	const state = readE2eState();
	const PER_IMAGE = 4;

	/** An account of its own at the sandbox, and an n8n credential for it. */
	async function billedAccount(name: string, limits: Record<string, string> = {}) {
		const account = (await admin(state, '/accounts', 'POST', { display_name: name })) as {
			account_id: string;
			api_key: string;
		};
		const credential = await n8nWrite<{ id: string; name: string }>(state, '/credentials', 'POST', {
			name,
			type: 'mediaGenApi',
			data: {
				baseUrl: state.sandbox.baseUrl,
				apiKey: account.api_key,
				allowedHttpRequestDomains: 'all',
				...limits,
			},
		});
		const ledger = async () =>
			(await sandboxAdmin<{ data: LedgerEntry[] }>(state, '/ledger')).data.filter(
				(e) => e.account_id === account.account_id,
			);
		return { credential, ledger };
	}

	async function activeWorkflow(workflow: ReturnType<typeof imageWorkflow>, path: string) {
		const { id } = await n8nWrite<{ id: string }>(state, '/workflows', 'POST', workflow);
		await n8nApi(state, `/workflows/${id}/activate`, 'POST');
		const start = async () => {
			const res = await eventually(`the webhook ${path}`, async () => {
				const r = await fetch(`${state.n8nUrl}/webhook/${path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: '{}',
				});
				return r.status === 200 ? r : undefined;
			});
			expect(res.status).toBe(200);
		};
		const executions = async () =>
			(
				await n8nApi<{ data: Execution[] }>(
					state,
					`/executions?workflowId=${id}&includeData=true&limit=50`,
				)
			).data;
		const settled = (count: number) =>
			eventually(`${count} finished executions of ${path}`, async () => {
				const list = await executions();
				return list.length >= count &&
					list.every((e) => !['running', 'new', 'waiting'].includes(e.status))
					? list
					: undefined;
			});
		return { id, start, executions, settled };
	}

	const itemsOf = (execution: Execution, node = 'Generate') =>
		execution.data?.resultData.runData[node]?.at(-1)?.data?.main[0] ?? [];
	const hintsOf = (execution: Execution, node = 'Generate') =>
		(execution.data?.resultData.runData[node]?.at(-1)?.hints ?? []).map((h) => h.message);

	describe("n8n's Retry of a failed execution (public API)", () => {
		afterEach(async () => admin(state, '/faults', 'DELETE'));

		it('retried unchanged, with and without loadWorkflow: no new run, charges unchanged; retried with loadWorkflow after the prompt was edited: runs of the edited prompt', async () => {
			const { credential, ledger } = await billedAccount('e2e retry');
			const path = 'mediagen-e2e-retry';
			const workflow = imageWorkflow(
				'Spend control: retry',
				path,
				credential,
				3,
				generateImages('a fox'),
			);
			const flow = await activeWorkflow(workflow, path);
			/** An execution whose runs are created, then cannot be read: it fails after paying. */
			const failedExecution = async (count: number) => {
				await admin(state, '/faults', 'POST', {
					when: 'before',
					method: 'GET',
					path: '/runs',
					status: 404,
					count: 100_000,
				});
				await flow.start();
				const [latest] = await flow.settled(count);
				await admin(state, '/faults', 'DELETE');
				expect(latest.status).toBe('error');
				return latest;
			};
			const charges = async (expected: number) =>
				eventually(`${expected} charges`, async () =>
					(await ledger()).length === expected ? ledger() : undefined,
				);
			const retry = async (executionId: string, loadWorkflow: boolean) => {
				const retried = await n8nWrite<{ id: string | number; status: string }>(
					state,
					`/executions/${executionId}/retry`,
					'POST',
					{ loadWorkflow },
				);
				return await eventually(`retry of ${executionId}`, async () => {
					const execution = await n8nApi<Execution>(
						state,
						`/executions/${retried.id}?includeData=true`,
					);
					return ['success', 'error'].includes(execution.status) ? execution : undefined;
				});
			};

			const first = await failedExecution(1);
			await charges(3);
			for (const loadWorkflow of [false, true]) {
				const retried = await retry(first.id, loadWorkflow);
				expect({ loadWorkflow, status: retried.status }).toEqual({
					loadWorkflow,
					status: 'success',
				});
				expect(
					itemsOf(retried).map((i) => (i.json.input_summary as { prompt: string }).prompt),
				).toEqual(['a fox 1', 'a fox 2', 'a fox 3']);
			}
			// a moment for any run a retry might have created to be charged: none was
			await new Promise((r) => setTimeout(r, 1500));
			expect(await ledger()).toHaveLength(3);

			// two more failed executions of the unedited prompt (each a new execution: it pays, 3 + 3)
			const second = await failedExecution(4);
			const third = await failedExecution(5);
			await charges(9);
			const edited = {
				...workflow,
				nodes: workflow.nodes.map((node) =>
					node.name === 'Generate' ? { ...node, ...generateImages('a red fox') } : node,
				),
			};
			await n8nWrite(state, `/workflows/${flow.id}`, 'PUT', edited);

			// without loadWorkflow n8n runs the node as it was in the failed execution: its runs, free
			const asItWas = await retry(second.id, false);
			expect(asItWas.status).toBe('success');
			expect(
				itemsOf(asItWas).map((i) => (i.json.input_summary as { prompt: string }).prompt),
			).toEqual(['a fox 1', 'a fox 2', 'a fox 3']);
			// with loadWorkflow: the saved, edited node: new runs of the edited prompt, and the hint says why
			const asSaved = await retry(third.id, true);
			expect(asSaved.status).toBe('success');
			expect(
				itemsOf(asSaved).map((i) => (i.json.input_summary as { prompt: string }).prompt),
			).toEqual(['a red fox 1', 'a red fox 2', 'a red fox 3']);
			expect(hintsOf(asSaved).join(' ')).toContain(
				"Items 0, 1 and 2: the node's parameters were edited since the execution this one retries",
			);
			const all = await charges(12);
			expect(new Set(all.map((e) => e.run_id)).size).toBe(12);
			await n8nApi(state, `/workflows/${flow.id}/deactivate`, 'POST');
		});
	});

	describe('a job is the request sent (issue 32, findings 6 and 7)', () => {
		afterEach(async () => admin(state, '/faults', 'DELETE'));

		const withGenerate = (
			workflow: ReturnType<typeof imageWorkflow>,
			generate: Record<string, unknown>,
		) => ({
			...workflow,
			nodes: workflow.nodes.map((node) =>
				node.name === 'Generate' ? { ...node, ...generate } : node,
			),
		});
		const charges = async (ledger: () => Promise<LedgerEntry[]>, expected: number) =>
			eventually(`${expected} charges`, async () =>
				(await ledger()).length === expected ? ledger() : undefined,
			);

		it('own key: a new execution after edits that change only how the parameters are spelled replays every job, no new charge', async () => {
			const { credential, ledger } = await billedAccount('e2e job identity');
			const path = 'mediagen-e2e-job-identity';
			const keyed = (extra: Record<string, unknown>, options: Record<string, unknown> = {}) => ({
				parameters: {
					...generateImages('a fox').parameters,
					...extra,
					options: { idempotencyKey: '={{ "job-" + $json.n }}', ...options },
				},
			});
			const workflow = imageWorkflow(
				'Spend control: job identity',
				path,
				credential,
				3,
				keyed({
					model: {
						__rl: true,
						mode: 'list',
						value: 'image.aurora-2',
						cachedResultName: 'Aurora 2',
					},
				}),
			);
			const flow = await activeWorkflow(workflow, path);
			await flow.start();
			const [first] = await flow.settled(1);
			expect(first.status).toBe('success');
			await charges(ledger, 3);

			const respelled = withGenerate(
				workflow,
				keyed(
					{
						model: { __rl: true, mode: 'id', value: 'image.aurora-2' },
						additionalFields: { negativePrompt: '' },
					},
					{
						teamId: '',
						projectId: '',
						idempotencyKey: '={{ "job-" + $json["n"] }}',
						// not part of the request, but shows in the items that the edited node ran
						binaryPropertyName: 'picture',
					},
				),
			);
			// saving a published workflow publishes the edit (n8n's public API, PUT /workflows/{id}),
			// and the webhook may still run the version before for a moment: that execution replays
			// its jobs (nothing changed), so start until the edited node has run
			await n8nWrite(state, `/workflows/${flow.id}`, 'PUT', respelled);
			const edited = await eventually('an execution of the edited node', async () => {
				const before = (await flow.executions()).length;
				await flow.start();
				const [latest] = await flow.settled(before + 1);
				expect(latest.status).toBe('success');
				return Object.keys(itemsOf(latest)[0]?.binary ?? {}).includes('picture')
					? latest
					: undefined;
			});
			expect(
				itemsOf(edited).map((i) => (i.json.input_summary as { prompt: string }).prompt),
			).toEqual(['a fox 1', 'a fox 2', 'a fox 3']);
			// a moment for any run the re-run might have created to be charged: none was
			await new Promise((r) => setTimeout(r, 1500));
			expect(await ledger()).toHaveLength(3);
			await n8nApi(state, `/workflows/${flow.id}/deactivate`, 'POST');
		});

		it("n8n's Retry with the saved workflow after an edit of item 2's request alone: items 0 and 1 get their paid runs, item 2 is the one new run, and the hint names item 2 alone", async () => {
			const { credential, ledger } = await billedAccount('e2e retry one item');
			const path = 'mediagen-e2e-retry-one-item';
			const workflow = imageWorkflow(
				'Spend control: retry after an edit of one item',
				path,
				credential,
				3,
				generateImages('a fox'),
			);
			const flow = await activeWorkflow(workflow, path);
			await admin(state, '/faults', 'POST', {
				when: 'before',
				method: 'GET',
				path: '/runs',
				status: 404,
				count: 100_000,
			});
			await flow.start();
			const [failed] = await flow.settled(1);
			await admin(state, '/faults', 'DELETE');
			expect(failed.status).toBe('error');
			await charges(ledger, 3);

			const edited = withGenerate(workflow, {
				parameters: {
					...generateImages('a fox').parameters,
					prompt: '={{ $json.n === 3 ? "a red fox 3" : "a fox " + $json.n }}',
				},
			});
			await n8nWrite(state, `/workflows/${flow.id}`, 'PUT', edited);
			const retried = await n8nWrite<{ id: string | number }>(
				state,
				`/executions/${failed.id}/retry`,
				'POST',
				{ loadWorkflow: true },
			);
			const done = await eventually(`retry of ${failed.id}`, async () => {
				const execution = await n8nApi<Execution>(
					state,
					`/executions/${retried.id}?includeData=true`,
				);
				return ['success', 'error'].includes(execution.status) ? execution : undefined;
			});
			expect(done.status).toBe('success');
			expect(itemsOf(done).map((i) => (i.json.input_summary as { prompt: string }).prompt)).toEqual(
				['a fox 1', 'a fox 2', 'a red fox 3'],
			);
			const hints = hintsOf(done).join(' ');
			expect(hints).toContain('Item 2: ');
			expect(hints).not.toContain('Items 0');
			const all = await charges(ledger, 4);
			expect(new Set(all.map((e) => e.run_id)).size).toBe(4);
			await n8nApi(state, `/workflows/${flow.id}/deactivate`, 'POST');
		});
	});

	describe('Credit Limit per Day: executions racing for the last credits', () => {
		/** Two executions of 2 images (8 credits each) against a daily limit of 12: one fits, both do not. */
		async function race(name: string, path: string, before?: () => Promise<void>) {
			const { credential, ledger } = await billedAccount(name, { creditLimitPerDay: '12' });
			const flow = await activeWorkflow(
				imageWorkflow(
					name,
					path,
					credential,
					2,
					generateImages('a lighthouse', { onError: 'continueRegularOutput' }),
				),
				path,
			);
			await before?.();
			await Promise.all([flow.start(), flow.start()]);
			const executions = await flow.settled(2);
			const outcomes = executions.flatMap((e) =>
				itemsOf(e).map((i) => String(i.json.code ?? i.json.status)),
			);
			await n8nApi(state, `/workflows/${flow.id}/deactivate`, 'POST');
			const runs = outcomes.filter((o) => o === 'completed').length;
			const charged = (
				await eventually(`${runs} charges`, async () =>
					(await ledger()).length === runs ? ledger() : undefined,
				)
			).reduce((sum, e) => sum + e.credits, 0);
			return { outcomes, charged, overshoot: Math.max(0, charged - 12) };
		}

		it('two executions that read the ledger at the same moment both pass: the overshoot is at most what the other execution submits (forced: each reads GET /usage 1.5 s late)', async () => {
			const result = await race('e2e race forced', 'mediagen-e2e-race-forced', async () => {
				await admin(state, '/faults', 'POST', {
					when: 'before',
					method: 'GET',
					path: '/usage',
					delayMs: 1500,
					count: 2,
				});
			});
			process.stderr.write(`[spend-control] forced race: ${JSON.stringify(result)}\n`);
			expect(result.outcomes.sort()).toEqual(['completed', 'completed', 'completed', 'completed']);
			expect(result.charged).toBe(16);
			expect(result.overshoot).toBe(4);
		});

		it('two executions started together (no delay): what each admits is bounded the same way (measured)', async () => {
			const result = await race('e2e race natural', 'mediagen-e2e-race-natural');
			process.stderr.write(`[spend-control] natural race: ${JSON.stringify(result)}\n`);
			expect(result.charged).toBeLessThanOrEqual(16);
			expect(result.charged).toBeGreaterThanOrEqual(12);
			expect(result.outcomes.filter((o) => o === 'budget_exceeded').length).toBe(
				(16 - result.charged) / PER_IMAGE,
			);
		});

		it("an execution that starts while the other one's runs are in flight counts them: no overshoot", async () => {
			const { credential, ledger } = await billedAccount('e2e in flight', {
				creditLimitPerDay: '12',
			});
			const path = 'mediagen-e2e-in-flight';
			const flow = await activeWorkflow(
				imageWorkflow(
					'e2e in flight',
					path,
					credential,
					2,
					generateImages('a harbour', { onError: 'continueRegularOutput' }),
				),
				path,
			);
			await admin(state, '/options', 'PATCH', { latencyMs: 5000 });
			try {
				const accepted = async () =>
					(await sandboxAdmin<{ data: RequestLogEntry[] }>(state, '/requests')).data.filter(
						(r) => r.method === 'POST' && r.path === '/v1/images/generations' && r.status === 202,
					).length;
				const before = await accepted();
				await flow.start();
				// the first execution's two runs are accepted (in flight for 5 s, not charged yet)
				await eventually('the first execution to submit', async () =>
					(await accepted()) >= before + 2 ? true : undefined,
				);
				await flow.start();
				const executions = await flow.settled(2);
				const outcomes = executions.flatMap((e) =>
					itemsOf(e).map((i) => String(i.json.code ?? i.json.status)),
				);
				expect(outcomes.sort()).toEqual(['budget_exceeded', 'completed', 'completed', 'completed']);
				const refused = executions
					.flatMap((e) => itemsOf(e))
					.find((i) => i.json.code === 'budget_exceeded')!;
				expect(refused.json).toMatchObject({
					budget: 'per_day',
					limit: 12,
					in_flight: 8,
					admitted: 4,
					quoted: PER_IMAGE,
				});
				const charged = await eventually(
					'3 charges',
					async () => ((await ledger()).length === 3 ? ledger() : undefined),
					30_000,
				);
				expect(charged.reduce((sum, e) => sum + e.credits, 0)).toBe(12);
			} finally {
				await admin(state, '/options', 'PATCH', { latencyMs: 300 });
				await n8nApi(state, `/workflows/${flow.id}/deactivate`, 'POST');
			}
		});

		it('the queued items of a batch still running count (issue 32, finding 1): an execution sent while a batch of 5 runs one at a time is refused at a limit of 20, and 20 are charged, not 24', async () => {
			const { credential, ledger } = await billedAccount('e2e queued batch', {
				creditLimitPerDay: '20',
			});
			const notWaiting = (prompt: string, options: Record<string, unknown> = {}) => {
				const node = generateImages(prompt, { onError: 'continueRegularOutput' });
				return {
					...node,
					parameters: { ...node.parameters, waitForCompletion: false, options },
				};
			};
			const batchPath = 'mediagen-e2e-queued-batch';
			const batch = await activeWorkflow(
				imageWorkflow(
					'e2e queued batch',
					batchPath,
					credential,
					5,
					notWaiting('a dune', { [useBatchApi.name]: true, [maxParallelSubmits.name]: 1 }),
				),
				batchPath,
			);
			const onePath = 'mediagen-e2e-after-batch';
			const one = await activeWorkflow(
				imageWorkflow('e2e after batch', onePath, credential, 1, notWaiting('a cliff')),
				onePath,
			);
			await admin(state, '/options', 'PATCH', { latencyMs: 3000 });
			try {
				await batch.start();
				const [sent] = await batch.settled(1);
				expect(itemsOf(sent).map((i) => i.json.status)).toEqual(Array(5).fill('queued'));
				await one.start();
				const [refused] = await one.settled(1);
				expect(itemsOf(refused)[0].json).toMatchObject({
					code: 'budget_exceeded',
					budget: 'per_day',
					limit: 20,
					in_flight: 20,
					quoted: PER_IMAGE,
				});
				const charged = await eventually(
					'5 charges',
					async () => ((await ledger()).length === 5 ? ledger() : undefined),
					60_000,
				);
				expect(charged.reduce((sum, e) => sum + e.credits, 0)).toBe(20);
			} finally {
				await admin(state, '/options', 'PATCH', { latencyMs: 300 });
				await n8nApi(state, `/workflows/${batch.id}/deactivate`, 'POST');
				await n8nApi(state, `/workflows/${one.id}/deactivate`, 'POST');
			}
		});
	});
});
