/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { MediaGenAccount } from '../../nodes/MediaGenAccount/MediaGenAccount.node';
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { signPayload } from '../../src/webhooks/signature';
import { runNode } from '../helpers/n8n-harness';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';

describe('MediaGen Account → Webhook operations in n8n-core (against the sandbox)', () => {
	let fx: Fixture;
	let receiver: Receiver;

	beforeEach(async () => {
		fx = await startFixture({ webhookBackoffScale: 0.002 });
		receiver = await startReceiver();
	});
	afterEach(async () => {
		await receiver.close();
		await fx.sandbox.close();
	});

	const account = async (parameters: Record<string, unknown>) => {
		const result = await runNode({
			nodeType: new MediaGenAccount(),
			credentials: fx.credentials,
			parameters: { resource: 'webhook', ...parameters },
		});
		expect(result.error).toBeUndefined();
		// eslint-disable-next-line @typescript-eslint/no-explicit-any -- service JSON, read by path in assertions
		return result.items.map((i) => i.json as Record<string, any>);
	};
	const generate = () =>
		runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: { resource: 'image', operation: 'generate', prompt: 'a kite' },
		});
	async function deliveriesOf(endpointId: string, settled: number) {
		const end = Date.now() + 10_000;
		for (;;) {
			const rows = await account({
				operation: 'listDeliveries',
				returnAll: true,
				additionalFields: { endpointId },
			});
			if (rows.filter((d) => d.status !== 'pending').length >= settled) return rows;
			if (Date.now() > end) throw new Error(`deliveries of ${endpointId} did not settle`);
			await new Promise((r) => setTimeout(r, 30));
		}
	}

	it('round-trips create → list → update → deliveries → replay → delete', async () => {
		// create: the one answer that carries the signing secret
		const [created] = await account({
			operation: 'create',
			url: receiver.url,
			events: ['run.completed'],
			additionalFields: { description: 'ops test' },
		});
		expect(created).toEqual(
			expect.objectContaining({
				id: expect.stringMatching(/^whe_/),
				object: 'webhook_endpoint',
				url: receiver.url,
				events: ['run.completed'],
				status: 'active',
				description: 'ops test',
			}),
		);
		expect(created.signing_secret).toMatch(/^whsec_/);

		// list: masked preview only
		const listed = await account({ operation: 'list', returnAll: true });
		expect(listed).toHaveLength(1);
		expect(listed[0]).toEqual(
			expect.objectContaining({
				id: created.id,
				signing_secret_preview: expect.stringMatching(/^whsec_…/),
			}),
		);
		expect(listed[0]).not.toHaveProperty('signing_secret');

		// update: disabled endpoints receive nothing
		const [disabled] = await account({
			operation: 'update',
			endpointId: created.id,
			additionalFields: {
				status: 'disabled',
				description: 'paused',
				events: ['run.completed', 'run.failed'],
			},
		});
		expect(disabled).toEqual(
			expect.objectContaining({
				status: 'disabled',
				description: 'paused',
				events: ['run.completed', 'run.failed'],
			}),
		);
		await generate();
		expect(receiver.received).toHaveLength(0);
		expect(await account({ operation: 'listDeliveries', returnAll: true })).toHaveLength(0);

		// active again; the receiver refuses once, the retry succeeds
		await account({
			operation: 'update',
			endpointId: created.id,
			additionalFields: { status: 'active' },
		});
		receiver.answers.push(500);
		await generate();
		await receiver.waitFor(2);
		const [delivery] = await deliveriesOf(created.id, 1);
		expect(delivery).toEqual(
			expect.objectContaining({
				object: 'webhook_delivery',
				endpoint_id: created.id,
				event_type: 'run.completed',
				run_id: expect.stringMatching(/^run_/),
				batch_id: null,
				status: 'success',
				attempt_count: 2,
				max_attempts: 5,
				response_status: 200,
				response_body: 'ok',
				last_error: null,
				delivered_at: expect.any(String),
				last_attempt_at: expect.any(String),
			}),
		);
		const [first, second] = receiver.received;
		expect(second.rawBody.equals(first.rawBody)).toBe(true);
		expect(delivery.request_headers['X-Service-Signature']).toBe(
			signPayload(created.signing_secret, second.rawBody),
		);

		// replay: the same event id again, as a new delivery
		const [replayed] = await account({ operation: 'replayDelivery', deliveryId: delivery.id });
		expect(replayed).toEqual(
			expect.objectContaining({
				object: 'webhook_delivery',
				replay_of: delivery.id,
				event_id: delivery.event_id,
				endpoint_id: created.id,
			}),
		);
		expect(replayed.id).not.toBe(delivery.id);
		await receiver.waitFor(3);
		expect(receiver.received[2].body.id).toBe(first.body.id);
		expect(receiver.received[2].headers['x-service-delivery']).toBe(replayed.id);

		// delete
		expect(await account({ operation: 'delete', endpointId: created.id })).toEqual([
			{ success: true },
		]);
		expect(await account({ operation: 'list', returnAll: true })).toEqual([]);
	});

	it('lists deliveries filtered by status and event type', async () => {
		const [endpoint] = await account({
			operation: 'create',
			url: receiver.url,
			events: ['run.completed'],
		});
		receiver.answers.push(500, 500, 500, 500, 500);
		await generate();
		await deliveriesOf(endpoint.id, 1);
		// a delivery that failed every attempt disables the endpoint (sandbox/README.md); enabled again here
		const [again] = await account({
			operation: 'update',
			endpointId: endpoint.id,
			additionalFields: { status: 'active' },
		});
		expect(again.status).toBe('active');
		await generate();
		await deliveriesOf(endpoint.id, 2);
		const failed = await account({
			operation: 'listDeliveries',
			returnAll: true,
			additionalFields: { status: 'failed' },
		});
		const succeeded = await account({
			operation: 'listDeliveries',
			returnAll: true,
			additionalFields: { status: 'success', eventType: 'run.completed' },
		});
		expect(failed.map((d) => [d.attempt_count, d.response_status])).toEqual([[5, 500]]);
		expect(failed[0].last_error).toContain('500');
		expect(succeeded).toHaveLength(1);
		expect(
			await account({
				operation: 'listDeliveries',
				returnAll: true,
				additionalFields: { eventType: 'batch.failed' },
			}),
		).toEqual([]);
	});

	it('requires the URL and at least one event to create, before sending anything', async () => {
		// an expression that yields no events (n8n itself already refuses an empty literal)
		const result = await runNode({
			nodeType: new MediaGenAccount(),
			credentials: fx.credentials,
			parameters: {
				resource: 'webhook',
				operation: 'create',
				url: receiver.url,
				events: '={{ [] }}',
			},
		});
		expect(result.error?.message).toContain('Events: is required');
		expect(fx.sandbox.state.countRequests('POST', '/v1/webhooks')).toBe(0);
	});

	it('surfaces not_found for an unknown endpoint or delivery', async () => {
		const update = await runNode({
			nodeType: new MediaGenAccount(),
			credentials: fx.credentials,
			parameters: {
				resource: 'webhook',
				operation: 'update',
				endpointId: 'whe_nope',
				additionalFields: { status: 'disabled' },
			},
		});
		expect(update.error?.message).toMatch(/^not_found/);
		const replay = await runNode({
			nodeType: new MediaGenAccount(),
			credentials: fx.credentials,
			parameters: { resource: 'webhook', operation: 'replayDelivery', deliveryId: 'whd_nope' },
		});
		expect(replay.error?.message).toMatch(/^not_found/);
	});
});
