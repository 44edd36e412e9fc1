/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { MediaGenPollingTrigger } from '../../nodes/MediaGenPollingTrigger/MediaGenPollingTrigger.node';
import { SANDBOX_API_KEY } from '../../sandbox/options';
import { createClient } from '../../src/transport/request';
import { pollFinished, type PollCursor } from '../../src/webhooks/poll-events';
import { binaryBytes } from '../helpers/n8n-harness';
import { startPollHarness, type PollHarness } from '../helpers/poll-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';

const trigger = new MediaGenPollingTrigger();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('MediaGen Polling Trigger in n8n-core (poll() against the sandbox)', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture({ latencyMs: 0 });
	});
	afterEach(async () => {
		await fx.sandbox.close();
	});

	let submitted = 0;
	/** Submits an image run that finishes after `latencyMs` (and fails when `fail`); returns its id. */
	const submit = async (latencyMs: number, fail = false): Promise<string> => {
		fx.sandbox.state.options.latencyMs = latencyMs;
		const res = await fetch(`${fx.sandbox.baseUrl}/images/generations`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${SANDBOX_API_KEY}`,
				'content-type': 'application/json',
				'idempotency-key': `poll-test-${process.pid}-${++submitted}`,
			},
			body: JSON.stringify({
				prompt: `picture ${submitted}`,
				model: 'image.aurora-2',
				...(fail ? { sandbox_fail: 'provider_error' } : {}),
			}),
		});
		expect(res.status).toBe(202);
		return String(((await res.json()) as IDataObject).id);
	};
	const runStatus = (id: string) => fx.sandbox.state.runs.get(id)?.run.status;
	const until = async (done: () => boolean, timeoutMs = 20_000) => {
		for (const end = Date.now() + timeoutMs; !done(); await sleep(50))
			if (Date.now() > end) throw new Error('timed out');
	};
	const emittedRunIds = (h: PollHarness) =>
		h.executions.flat().map((i) => String(i.json.run_id ?? i.json.id));

	it('20 runs made and finished between polls in any order, a restart in between: each finished run passed on once, none missed', async () => {
		const harness = await startPollHarness({
			nodeType: trigger,
			parameters: { events: ['run.completed', 'run.failed'] },
			credentials: fx.credentials,
		});
		const before = await submit(0);
		await until(() => runStatus(before) === 'completed');
		// activation: a baseline, nothing from before is passed on
		expect(await harness.activate()).toBeNull();

		// 12 runs: some finish at once, some fail, three take longer than the next poll
		const first: string[] = [];
		for (let i = 0; i < 12; i++) first.push(await submit(i % 4 === 0 ? 1500 : 0, i % 5 === 2));
		await until(
			() =>
				first.filter((id) => runStatus(id) === 'queued' || runStatus(id) === 'processing')
					.length === 3,
		);
		const second = await harness.poll();
		expect(second![0]).toHaveLength(9);
		// n8n restarts: the workflow comes back with the static data the last emit saved
		harness.restart();
		expect((harness.staticData().runs as PollCursor).pending).toHaveLength(3);

		const later: string[] = [];
		for (let i = 0; i < 8; i++) later.push(await submit(i === 0 ? 600 : 0, i === 5));
		// a poll while the slow ones are still running passes on only what finished
		await until(() =>
			later.slice(1).every((id) => runStatus(id) === 'completed' || runStatus(id) === 'failed'),
		);
		await harness.poll();
		await until(() =>
			[...first, ...later].every(
				(id) => runStatus(id) === 'completed' || runStatus(id) === 'failed',
			),
		);
		await harness.poll();
		expect(await harness.poll()).toBeNull();

		const all = [...first, ...later];
		const emitted = emittedRunIds(harness);
		expect(emitted).not.toContain(before);
		expect([...emitted].sort()).toEqual([...all].sort());
		expect(new Set(emitted).size).toBe(emitted.length);
		// what each item says: the run's outcome as the webhook trigger gives it
		const items = new Map(harness.executions.flat().map((i) => [String(i.json.run_id), i]));
		for (const id of all)
			expect({ id, event: items.get(id)!.json.event }).toEqual({
				id,
				event: runStatus(id) === 'completed' ? 'run.completed' : 'run.failed',
			});
		expect(items.get(first[2])!.json.event).toBe('run.failed');
	});

	it('more than one page of runs between polls, and a pending run below them: every finished run once (pages of 10)', async () => {
		const harness = await startPollHarness({
			nodeType: trigger,
			parameters: { events: ['run.completed'] },
			credentials: fx.credentials,
		});
		const client = await createClient(harness.context(), 'mediaGenApi');
		const slow = await submit(2500);
		let { finished, cursor } = await pollFinished(client, 'run', undefined, 10);
		expect({ finished, pending: cursor.pending }).toEqual({ finished: [], pending: [slow] });

		const runs: string[] = [];
		for (let i = 0; i < 20; i++) runs.push(await submit(0));
		await until(() => runs.every((id) => runStatus(id) === 'completed'));
		const requestsBefore = fx.sandbox.state.requests.length;
		({ finished, cursor } = await pollFinished(client, 'run', cursor, 10));
		expect(finished.map((r) => r.id).sort()).toEqual([...runs].sort());
		// two pages of new runs, a third to reach the pending run
		expect(fx.sandbox.state.requests.length - requestsBefore).toBe(3);
		expect(cursor).toEqual({ newest: runs[19], pending: [slow] });

		await until(() => runStatus(slow) === 'completed');
		({ finished, cursor } = await pollFinished(client, 'run', cursor, 10));
		expect(finished.map((r) => r.id)).toEqual([slow]);
		expect(cursor).toEqual({ newest: runs[19], pending: [] });
		({ finished } = await pollFinished(client, 'run', cursor, 10));
		expect(finished).toEqual([]);
	});

	it('a pending run the service no longer knows (not_found) is dropped from the cursor; the poll goes on', async () => {
		const harness = await startPollHarness({
			nodeType: trigger,
			parameters: { events: ['run.completed'] },
			credentials: fx.credentials,
		});
		const client = await createClient(harness.context(), 'mediaGenApi');
		const id = await submit(0);
		await until(() => runStatus(id) === 'completed');
		const { finished, cursor } = await pollFinished(client, 'run', {
			newest: id,
			pending: ['run_gone'],
		});
		expect({ finished, cursor }).toEqual({ finished: [], cursor: { newest: id, pending: [] } });
	});

	it('a restart after a poll that started nothing reads the same window again: nothing missed, nothing twice', async () => {
		const harness = await startPollHarness({
			nodeType: trigger,
			parameters: { events: ['run.completed'] },
			credentials: fx.credentials,
		});
		expect(await harness.activate()).toBeNull();
		const slow = await submit(1500);
		// this poll sees the run unfinished and starts nothing: n8n saves nothing
		expect(await harness.poll()).toBeNull();
		harness.restart();
		await until(() => runStatus(slow) === 'completed');
		const started = await harness.poll();
		expect(started![0].map((i) => i.json.run_id)).toEqual([slow]);
		harness.restart();
		expect(await harness.poll()).toBeNull();
	});

	it('with Download Outputs, a completed run comes with its file as binary data, as from the webhook trigger', async () => {
		const harness = await startPollHarness({
			nodeType: trigger,
			parameters: { events: ['run.completed'], options: { downloadOutputs: true } },
			credentials: fx.credentials,
		});
		expect(await harness.activate()).toBeNull();
		const id = await submit(0);
		await until(() => runStatus(id) === 'completed');
		const [[item]] = (await harness.poll()) as INodeExecutionData[][];
		expect(item.json).toEqual(
			expect.objectContaining({
				run_id: id,
				status: 'completed',
				event: 'run.completed',
				event_id: null,
			}),
		);
		expect(item.binary!.data.mimeType).toBe('image/png');
		expect((await binaryBytes(item.binary!.data)).subarray(1, 4).toString()).toBe('PNG');
	});

	it('Start On and the filters: an unselected event starts nothing, but is not passed on later either', async () => {
		const harness = await startPollHarness({
			nodeType: trigger,
			parameters: { events: ['run.failed'] },
			credentials: fx.credentials,
		});
		expect(await harness.activate()).toBeNull();
		const ok = await submit(0);
		const bad = await submit(0, true);
		await until(() => runStatus(ok) === 'completed' && runStatus(bad) === 'failed');
		const started = await harness.poll();
		expect(started![0].map((i) => [i.json.run_id, i.json.event])).toEqual([[bad, 'run.failed']]);
		expect(await harness.poll()).toBeNull();
	});

	it('batch events: a finished batch once, as batch.completed', async () => {
		const harness = await startPollHarness({
			nodeType: trigger,
			parameters: { events: ['batch.completed', 'batch.failed'] },
			credentials: fx.credentials,
		});
		expect(await harness.activate()).toBeNull();
		const res = await fetch(`${fx.sandbox.baseUrl}/batches`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${SANDBOX_API_KEY}`,
				'content-type': 'application/json',
				'idempotency-key': `poll-batch-${process.pid}`,
			},
			body: JSON.stringify({
				mode: 'operation',
				target: 'POST /images/generations',
				items: [{ prompt: 'a' }, { prompt: 'b' }],
			}),
		});
		const batch = (await res.json()) as IDataObject;
		expect(res.status).toBeLessThan(300);
		let started: INodeExecutionData[][] | null = null;
		for (const end = Date.now() + 20_000; !started && Date.now() < end; await sleep(200))
			started = await harness.poll();
		expect(started![0].map((i) => [i.json.batch_id ?? i.json.id, i.json.event])).toEqual([
			[batch.id, 'batch.completed'],
		]);
		expect(await harness.poll()).toBeNull();
	});

	it('Fetch Test Event (manual): the latest finished run, without touching the cursor', async () => {
		const harness = await startPollHarness({
			nodeType: trigger,
			parameters: { events: ['run.completed'] },
			credentials: fx.credentials,
		});
		const id = await submit(0);
		await until(() => runStatus(id) === 'completed');
		const shown = await harness.poll('manual');
		expect(shown![0].map((i) => i.json.run_id)).toEqual([id]);
		expect(harness.staticData()).toEqual({});
	});
});
