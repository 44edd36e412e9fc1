import type { AxiosInstance } from 'axios';

import type { Sandbox } from '../../sandbox/server';
import { createHmac } from 'node:crypto';

import { signatureOf } from '../../sandbox/webhook-signature';
import { emitEvent, WEBHOOK_MAX_ATTEMPTS } from '../../sandbox/webhooks';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { clientFor, expectProblem, openSandbox, sleep, submitImage, waitForRun } from './helpers';

describe('sandbox webhook signature (decisions.md)', () => {
	it('is sha256= and the lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the signing secret (vectors from Python hmac)', () => {
		expect(signatureOf('whsec_test', Buffer.from('{"id":"evt_1","object":"event"}'))).toBe(
			'sha256=31b662f7aa40f16a8c73d53d7c22c283b3d804a99e141c1912ae12208c5cea39',
		);
		expect(signatureOf('sécret', Buffer.from('héllo \u2603', 'utf8'))).toBe(
			'sha256=205ac79207aa62fd0bb67890f1d45776aaaf593c5a0cfebbfe716f47da4e11a6',
		);
	});
});

describe('sandbox webhooks: endpoints, signed deliveries, retries and replay', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;
	let receiver: Receiver;

	beforeEach(async () => {
		({ sandbox, http } = await openSandbox({ webhookBackoffScale: 0.002 }));
		receiver = await startReceiver();
	});
	afterEach(async () => {
		await receiver.close();
		await sandbox.close();
	});

	const createEndpoint = async (events: string[] = ['run.completed'], url = receiver.url) => {
		const res = await http.post('/webhooks', { url, events, description: 'test' });
		expect(res.status).toBe(201);
		return res.data as { id: string; signing_secret: string };
	};
	async function settled(count: number, query = '') {
		const end = Date.now() + 10_000;
		for (;;) {
			const res = await http.get(`/webhooks/deliveries?limit=100${query}`);
			const done = (res.data.data as Array<{ status: string }>).filter(
				(d) => d.status !== 'pending',
			);
			if (done.length >= count) return res.data.data as Array<Record<string, unknown>>;
			if (Date.now() > end) throw new Error(`expected ${count} settled deliveries`);
			await sleep(20);
		}
	}
	const completeRun = async () => {
		const submit = await submitImage(http);
		return await waitForRun(http, submit.data.id);
	};

	it('returns the signing secret on create only; the list shows a masked preview', async () => {
		const created = await createEndpoint(['run.completed', 'batch.completed']);
		expect(created).toEqual(
			expect.objectContaining({
				id: expect.stringMatching(/^whe_/),
				object: 'webhook_endpoint',
				url: receiver.url,
				description: 'test',
				status: 'active',
				events: ['run.completed', 'batch.completed'],
				signing_secret: expect.stringMatching(/^whsec_[0-9a-f]{48}$/),
				signing_secret_preview: `whsec_…${created.signing_secret.slice(-4)}`,
				created_at: expect.any(String),
				updated_at: expect.any(String),
				last_delivery_at: null,
			}),
		);
		const list = await http.get('/webhooks');
		expect(list.data).toEqual({
			object: 'list',
			data: [expect.not.objectContaining({ signing_secret: expect.anything() })],
			has_more: false,
		});
		expect(JSON.stringify(list.data)).not.toContain(created.signing_secret);
	});

	it('validates url, events and status, and needs the webhooks scopes', async () => {
		expectProblem(
			await http.post('/webhooks', { url: 'ftp://x', events: ['run.completed'] }),
			400,
			'invalid_parameter',
		);
		expect((await http.post('/webhooks', { url: receiver.url, events: [] })).data.param).toBe(
			'events',
		);
		expect(
			(await http.post('/webhooks', { url: receiver.url, events: ['run.started'] })).data.param,
		).toBe('events');
		const { id } = await createEndpoint();
		expect((await http.patch(`/webhooks/${id}`, { status: 'paused' })).data.param).toBe('status');
		expectProblem(
			await http.patch('/webhooks/whe_missing', { status: 'disabled' }),
			404,
			'not_found',
		);

		const reader = clientFor(sandbox.baseUrl, sandbox.state.createApiKey(['webhooks:read']));
		expect((await reader.get('/webhooks')).status).toBe(200);
		expect(
			expectProblem(
				await reader.post('/webhooks', { url: receiver.url, events: ['run.completed'] }),
				403,
				'insufficient_scope',
			).required_scope,
		).toBe('webhooks:write');
		expectProblem(
			await clientFor(sandbox.baseUrl, sandbox.state.createApiKey(['runs:read'])).get(
				'/webhooks/deliveries',
			),
			403,
			'insufficient_scope',
		);
	});

	it('POSTs the decisions.md payload with signature, event, delivery and content-type headers', async () => {
		const { id, signing_secret: secret } = await createEndpoint();
		const run = await completeRun();
		const [received] = await receiver.waitFor(1);
		expect(received.headers['content-type']).toBe('application/json');
		expect(received.headers['x-service-event']).toBe('run.completed');
		expect(received.headers['x-service-signature']).toBe(
			`sha256=${createHmac('sha256', secret).update(received.rawBody).digest('hex')}`,
		);
		expect(received.body).toEqual({
			id: expect.stringMatching(/^evt_/),
			object: 'event',
			type: 'run.completed',
			created_at: expect.any(String),
			data: { object: expect.objectContaining({ id: run.id, status: 'completed' }) },
		});
		const [delivery] = await settled(1);
		expect(received.headers['x-service-delivery']).toBe(delivery.id);
		expect(delivery).toEqual(
			expect.objectContaining({
				object: 'webhook_delivery',
				endpoint_id: id,
				event_type: 'run.completed',
				run_id: run.id,
				batch_id: null,
				status: 'success',
				attempt_count: 1,
				max_attempts: WEBHOOK_MAX_ATTEMPTS,
				response_status: 200,
				response_body: 'ok',
				last_error: null,
				created_at: expect.any(String),
				updated_at: expect.any(String),
				last_attempt_at: expect.any(String),
				next_attempt_at: null,
				delivered_at: expect.any(String),
			}),
		);
		expect(delivery.request_headers).toEqual(
			expect.objectContaining({
				'X-Service-Signature': received.headers['x-service-signature'],
				'X-Service-Event': 'run.completed',
				'X-Service-Delivery': delivery.id,
				'Content-Type': 'application/json',
			}),
		);
		expect((await http.get('/webhooks')).data.data[0].last_delivery_at).toEqual(expect.any(String));
	});

	it('retries non-2xx answers with back-off and records each attempt, the same bytes every time', async () => {
		await createEndpoint();
		receiver.answers.push(500, 503);
		await completeRun();
		await receiver.waitFor(3);
		const [delivery] = await settled(1);
		expect(delivery).toEqual(
			expect.objectContaining({
				status: 'success',
				attempt_count: 3,
				response_status: 200,
				last_error: null,
			}),
		);
		const bodies = receiver.received.map((r) => r.rawBody.toString());
		expect(new Set(bodies).size).toBe(1);
		expect(new Set(receiver.received.map((r) => r.headers['x-service-delivery'])).size).toBe(1);
	});

	it('gives up after max_attempts, keeps the last status, body and error, and disables the endpoint (sandbox choice)', async () => {
		const { id } = await createEndpoint();
		receiver.answers.push(...Array(WEBHOOK_MAX_ATTEMPTS).fill(500));
		await completeRun();
		const [delivery] = await settled(1);
		expect(delivery).toEqual(
			expect.objectContaining({
				status: 'failed',
				attempt_count: WEBHOOK_MAX_ATTEMPTS,
				response_status: 500,
				response_body: 'refused with 500',
				delivered_at: null,
				next_attempt_at: null,
			}),
		);
		expect(delivery.last_error).toContain('500');
		expect(receiver.received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
		const endpoint = (await http.get('/webhooks')).data.data.find(
			(e: { id: string }) => e.id === id,
		);
		expect(endpoint.status).toBe('disabled');
		// a disabled endpoint receives nothing (API document, Events rule 1) until it is enabled again
		await completeRun();
		await sleep(100);
		expect(receiver.received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
		expect((await http.patch(`/webhooks/${id}`, { status: 'active' })).data.status).toBe('active');
		await completeRun();
		await receiver.waitFor(WEBHOOK_MAX_ATTEMPTS + 1);
	});

	it('records a connection failure as last_error and retries it', async () => {
		const url = receiver.url;
		await receiver.close();
		await createEndpoint(['run.completed'], url);
		await completeRun();
		const [delivery] = await settled(1);
		expect(delivery).toEqual(
			expect.objectContaining({
				status: 'failed',
				attempt_count: WEBHOOK_MAX_ATTEMPTS,
				response_status: null,
			}),
		);
		expect(delivery.last_error).toMatch(/ECONNREFUSED/);
		receiver = await startReceiver();
	});

	it('sends nothing to a disabled endpoint or for events it did not subscribe to', async () => {
		const { id } = await createEndpoint();
		const failedOnly = await createEndpoint(['run.failed']);
		expect((await http.patch(`/webhooks/${id}`, { status: 'disabled' })).data.status).toBe(
			'disabled',
		);
		await completeRun();
		await sleep(100);
		expect(receiver.received).toHaveLength(0);
		expect((await http.get('/webhooks/deliveries')).data.data).toEqual([]);
		expect(failedOnly.id).toEqual(expect.any(String));
	});

	it('stops retrying once the endpoint is disabled', async () => {
		const { id } = await createEndpoint();
		sandbox.state.options.webhookBackoffScale = 0.1; // 500 ms before the first retry: time to disable
		receiver.answers.push(500, 500, 500, 500, 500);
		await submitImage(http);
		await receiver.waitFor(1);
		await http.patch(`/webhooks/${id}`, { status: 'disabled' });
		const [delivery] = await settled(1);
		expect(delivery.status).toBe('failed');
		expect(delivery.last_error).toBe('The endpoint is disabled');
		expect(receiver.received.length).toBeLessThan(WEBHOOK_MAX_ATTEMPTS);
	});

	it('replays a delivery: the same event id again as a new delivery; refuses for a disabled or unknown one', async () => {
		const { id } = await createEndpoint();
		await completeRun();
		const [original] = await settled(1);
		const replay = await http.post(`/webhooks/deliveries/${original.id}/replay`);
		expect(replay.status).toBe(202);
		expect(replay.data).toEqual(
			expect.objectContaining({
				object: 'webhook_delivery',
				replay_of: original.id,
				event_id: original.event_id,
				run_id: original.run_id,
				status: 'pending',
			}),
		);
		await receiver.waitFor(2);
		expect(receiver.received[1].rawBody.equals(receiver.received[0].rawBody)).toBe(true);
		expect(receiver.received[1].headers['x-service-delivery']).toBe(replay.data.id);

		await http.patch(`/webhooks/${id}`, { status: 'disabled' });
		expectProblem(
			await http.post(`/webhooks/deliveries/${original.id}/replay`),
			409,
			'endpoint_disabled',
		);
		expectProblem(await http.post('/webhooks/deliveries/whd_missing/replay'), 404, 'not_found');
	});

	it('delivers batch events announced with emitEvent, with batch_id', async () => {
		const { signing_secret: secret } = await createEndpoint(['batch.completed']);
		emitEvent(sandbox.state, 'batch.failed', { id: 'batch_1', object: 'batch', status: 'failed' });
		emitEvent(sandbox.state, 'batch.completed', {
			id: 'batch_2',
			object: 'batch',
			status: 'completed',
		});
		const [received] = await receiver.waitFor(1);
		expect(received.body).toEqual(
			expect.objectContaining({
				type: 'batch.completed',
				data: { object: { id: 'batch_2', object: 'batch', status: 'completed' } },
			}),
		);
		expect(received.headers['x-service-signature']).toBe(
			`sha256=${createHmac('sha256', secret).update(received.rawBody).digest('hex')}`,
		);
		const deliveries = await settled(1);
		expect(deliveries).toEqual([
			expect.objectContaining({
				event_type: 'batch.completed',
				batch_id: 'batch_2',
				run_id: null,
				status: 'success',
			}),
		]);
	});

	it('filters deliveries by endpoint, status and event type, and deletes endpoints', async () => {
		const a = await createEndpoint();
		const b = await createEndpoint(['run.completed', 'run.failed']);
		await completeRun();
		await settled(2);
		const ofA = (await http.get('/webhooks/deliveries', { params: { endpoint_id: a.id } })).data
			.data;
		expect(ofA).toHaveLength(1);
		expect(ofA[0].endpoint_id).toBe(a.id);
		expect(
			(await http.get('/webhooks/deliveries', { params: { status: 'failed' } })).data.data,
		).toEqual([]);
		expect(
			(await http.get('/webhooks/deliveries', { params: { event_type: 'run.completed' } })).data
				.data,
		).toHaveLength(2);
		expect((await http.delete(`/webhooks/${b.id}`)).status).toBe(204);
		expectProblem(await http.delete(`/webhooks/${b.id}`), 404, 'not_found');
		expect((await http.get('/webhooks')).data.data.map((e: { id: string }) => e.id)).toEqual([
			a.id,
		]);
	});
});
