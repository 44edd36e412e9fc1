/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { SANDBOX_API_KEY } from '../../sandbox/options';
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenTrigger } from '../../nodes/MediaGenTrigger/MediaGenTrigger.node';
import type { WebhookDelivery } from '../../sandbox/webhooks';
import type { TriggerStaticData } from '../../src/webhooks/trigger-secret';
import { signPayload } from '../../src/webhooks/signature';
import { binaryBytes, runNode } from '../helpers/n8n-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';
import { startTriggerHarness, type TriggerHarness } from '../helpers/trigger-harness';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('MediaGen Trigger with n8n-core hook and webhook contexts (against the sandbox)', () => {
	let fx: Fixture;
	let trigger: TriggerHarness;
	const harnesses: TriggerHarness[] = [];

	async function openTrigger(
		parameters: Record<string, unknown> = {},
		extra: Partial<Parameters<typeof startTriggerHarness>[0]> = {},
	) {
		const harness = await startTriggerHarness({
			nodeType: new MediaGenTrigger(),
			credentials: fx.credentials,
			parameters: { events: ['run.completed'], ...parameters },
			...extra,
		});
		harnesses.push(harness);
		return harness;
	}
	const staticData = (h: TriggerHarness) => h.staticData() as TriggerStaticData;
	/** The signing secret of the endpoint a trigger registered, as the service keeps it (the node keeps it only sealed). */
	const secretOf = (h: TriggerHarness) =>
		(
			fx.sandbox.services.webhooks as unknown as { endpoints: Map<string, { secret: string }> }
		).endpoints.get(staticData(h).endpointId!)!.secret;
	const endpoints = () => fx.sandbox.services.webhooks.listEndpoints('acc_sandbox');
	const deliveries = () => fx.sandbox.services.webhooks.listDeliveries('acc_sandbox');
	const generateImage = async (extra: Record<string, unknown> = {}) => {
		const { items, error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: { resource: 'image', operation: 'generate', prompt: 'a red fox', ...extra },
		});
		expect(error).toBeUndefined();
		return items[0].json as { id: string; status: string };
	};
	async function settledDeliveries(count: number): Promise<WebhookDelivery[]> {
		const end = Date.now() + 10_000;
		for (;;) {
			const done = deliveries().filter((d) => d.status !== 'pending');
			if (done.length >= count) return done;
			if (Date.now() > end)
				throw new Error(`expected ${count} settled deliveries, got ${done.length}`);
			await new Promise((r) => setTimeout(r, 25));
		}
	}

	beforeEach(async () => {
		fx = await startFixture({ webhookBackoffScale: 0.002 });
	});
	afterEach(async () => {
		for (const h of harnesses.splice(0)) await h.close();
		await fx.sandbox.close();
	});

	it('create registers the production URL with the events and a description naming the workflow, and keeps id and secret in static data', async () => {
		trigger = await openTrigger(
			{ events: ['run.completed', 'batch.failed'] },
			{ workflowName: 'Render notifications', workflowId: 'wf-42' },
		);
		expect(await trigger.hook('checkExists')).toBe(false);
		expect(await trigger.hook('create')).toBe(true);

		const [endpoint] = endpoints();
		expect(endpoints()).toHaveLength(1);
		expect(endpoint).toEqual(
			expect.objectContaining({
				url: trigger.productionUrl,
				events: ['run.completed', 'batch.failed'],
				status: 'active',
				signing_secret_preview: expect.stringMatching(/^whsec_…/),
			}),
		);
		expect(endpoint).not.toHaveProperty('signing_secret');
		expect(endpoint.description).toContain('Render notifications');
		expect(endpoint.description).toContain('wf-42');
		const data = staticData(trigger);
		expect(data.endpointId).toBe(endpoint.id);
		// the secret only sealed: nothing in the static data gives it away
		expect(data.sealedSigningSecret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
		expect(data.signingSecret).toBeUndefined();
		expect(secretOf(trigger)).toMatch(/^whsec_/);
		expect(JSON.stringify(trigger.staticData())).not.toContain(secretOf(trigger));
		expect(JSON.stringify(trigger.staticData())).not.toContain(secretOf(trigger).slice(6));
		expect(await trigger.hook('checkExists')).toBe(true);
		expect(endpoints()).toHaveLength(1);
	});

	it('checkExists forgets an endpoint that vanished at the service, so activation registers a new one', async () => {
		trigger = await openTrigger();
		await trigger.hook('create');
		const first = staticData(trigger).endpointId!;
		fx.sandbox.services.webhooks.deleteEndpoint('acc_sandbox', first);

		expect(await trigger.hook('checkExists')).toBe(false);
		expect(staticData(trigger).endpointId).toBeUndefined();
		expect(staticData(trigger).sealedSigningSecret).toBeUndefined();
		await trigger.hook('create');
		expect(staticData(trigger).endpointId).not.toBe(first);
		expect(endpoints().map((e) => e.id)).toEqual([staticData(trigger).endpointId]);
	});

	it('checkExists follows every page of GET /webhooks to find its endpoint', async () => {
		trigger = await openTrigger();
		await trigger.hook('create');
		for (let i = 0; i < 120; i++)
			fx.sandbox.services.webhooks.createEndpoint('acc_sandbox', {
				url: `https://example.com/other/${i}`,
				description: null,
				events: ['run.failed'],
			});
		expect(await trigger.hook('checkExists')).toBe(true);
		expect(fx.sandbox.state.countRequests('GET', '/v1/webhooks')).toBeGreaterThanOrEqual(2);
	});

	it('checkExists brings the endpoint events in line with the node', async () => {
		trigger = await openTrigger({ events: ['run.completed'] });
		await trigger.hook('create');
		trigger.node.parameters.events = ['run.completed', 'run.failed'];
		expect(await trigger.hook('checkExists')).toBe(true);
		expect(endpoints()[0].events).toEqual(['run.completed', 'run.failed']);
	});

	it('checkExists enables a disabled endpoint again (same id and secret), so an active workflow does not wait in silence', async () => {
		trigger = await openTrigger({ events: ['run.completed'] });
		await trigger.hook('create');
		const { endpointId, sealedSigningSecret } = staticData(trigger);
		await disableAtService(endpointId!);
		expect(endpoints()[0].status).toBe('disabled');
		expect(await trigger.hook('checkExists')).toBe(true);
		expect(endpoints()).toEqual([expect.objectContaining({ id: endpointId, status: 'active' })]);
		expect(staticData(trigger).sealedSigningSecret).toBe(sealedSigningSecret);
	});

	async function disableAtService(endpointId: string) {
		const disabled = await fetch(`${fx.sandbox.baseUrl}/webhooks/${endpointId}`, {
			method: 'PATCH',
			headers: { authorization: `Bearer ${SANDBOX_API_KEY}`, 'content-type': 'application/json' },
			body: JSON.stringify({ status: 'disabled' }),
		});
		expect(disabled.status).toBe(200);
	}

	it('checkExists registers a new endpoint when the service refuses to enable the disabled one (code invalid_parameter): the old one is deleted', async () => {
		trigger = await openTrigger({ events: ['run.completed'] });
		await trigger.hook('create');
		const { endpointId: old } = staticData(trigger);
		const oldSecret = secretOf(trigger);
		await disableAtService(old!);
		fx.sandbox.injectFault({
			method: 'PATCH',
			path: '/webhooks/',
			when: 'before',
			status: 400,
			code: 'invalid_parameter',
			count: 1,
		});

		expect(await trigger.hook('checkExists')).toBe(false);
		expect(endpoints()).toHaveLength(0);
		expect(staticData(trigger).endpointId).toBeUndefined();
		expect(
			fx.sandbox.state.requests.filter((r) => r.method === 'DELETE').map((r) => [r.path, r.status]),
		).toEqual([[`/v1/webhooks/${old}`, 204]]);
		await trigger.hook('create');
		const renewed = staticData(trigger);
		expect(renewed.endpointId).not.toBe(old);
		expect(secretOf(trigger)).not.toBe(oldSecret);
		expect(endpoints()).toEqual([
			expect.objectContaining({
				id: renewed.endpointId,
				url: trigger.productionUrl,
				status: 'active',
				events: ['run.completed'],
			}),
		]);
	});

	it.each([
		[403, 'insufficient_scope'],
		[409, 'endpoint_locked'],
	])(
		'checkExists reports a failed re-enable whose code is no refusal of the change (%s %s) and keeps the endpoint',
		async (status, code) => {
			trigger = await openTrigger({ events: ['run.completed'] });
			await trigger.hook('create');
			const { endpointId } = staticData(trigger);
			await disableAtService(endpointId!);
			fx.sandbox.injectFault({
				method: 'PATCH',
				path: '/webhooks/',
				when: 'before',
				status,
				code,
				count: 1,
			});

			await expect(trigger.hook('checkExists')).rejects.toThrow(new RegExp(`^${code}`));
			expect(endpoints()).toEqual([
				expect.objectContaining({ id: endpointId, status: 'disabled' }),
			]);
			expect(staticData(trigger).endpointId).toBe(endpointId);
			expect(fx.sandbox.state.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
		},
	);

	it('takes only the code not_found as "already gone" on delete: a bare 404 (e.g. from a proxy) is reported', async () => {
		trigger = await openTrigger();
		await trigger.hook('create');
		fx.sandbox.injectFault({
			method: 'DELETE',
			path: '/webhooks/',
			when: 'before',
			status: 404,
			count: 1,
		});
		await expect(trigger.hook('delete')).rejects.toThrow();
		expect(staticData(trigger).endpointId).toBeDefined();
	});

	it('delete removes the endpoint at the service and clears static data; a second delete is harmless', async () => {
		trigger = await openTrigger();
		await trigger.hook('create');
		expect(await trigger.hook('delete')).toBe(true);
		expect(endpoints()).toHaveLength(0);
		expect(staticData(trigger).endpointId).toBeUndefined();
		expect(await trigger.hook('delete')).toBe(true);
	});

	it('reports errors of create instead of swallowing them (missing scope → insufficient_scope)', async () => {
		fx.credentials.set('mediaGenApi', {
			baseUrl: fx.sandbox.baseUrl,
			apiKey: fx.sandbox.state.createApiKey(['webhooks:read']),
		});
		trigger = await openTrigger();
		await expect(trigger.hook('create')).rejects.toThrow(/insufficient_scope/);
		expect(staticData(trigger).endpointId).toBeUndefined();
	});

	it('reports errors of delete other than an endpoint already gone', async () => {
		trigger = await openTrigger();
		await trigger.hook('create');
		fx.sandbox.injectFault({
			method: 'DELETE',
			path: '/webhooks/',
			when: 'before',
			status: 400,
			count: 1,
		});
		await expect(trigger.hook('delete')).rejects.toThrow();
		expect(staticData(trigger).endpointId).toBeDefined();
		expect(endpoints()).toHaveLength(1);
	});

	it('registers and removes its endpoint with the OAuth2 credential too', async () => {
		trigger = await openTrigger({}, { credentialType: 'mediaGenOAuth2Api' });
		await trigger.hook('create');
		expect(endpoints().map((e) => e.url)).toEqual([trigger.productionUrl]);
		expect(await trigger.hook('checkExists')).toBe(true);
		await trigger.hook('delete');
		expect(endpoints()).toHaveLength(0);
		expect(fx.sandbox.state.tokensIssued).toBeGreaterThanOrEqual(1);
	});

	it('refuses to register without any event, naming the field', async () => {
		trigger = await openTrigger({ events: [] });
		const refusal = await trigger
			.hook('create')
			.catch((error: Error & { description?: string }) => error);
		expect(refusal).toBeInstanceOf(Error);
		expect((refusal as Error).message).toBe(
			'Start On: choose at least one event; allowed: Run Completed, Run Failed, Batch Completed, Batch Failed',
		);
		expect((refusal as { description?: string }).description).toMatch(
			/^API field events \(.*run\.completed.*\)\. No endpoint was registered or changed, and no credits were spent\.$/,
		);
		expect(endpoints()).toHaveLength(0);
	});

	it('emits one item for a real sandbox delivery of a run made by an action node', async () => {
		trigger = await openTrigger({ events: ['run.completed'] });
		await trigger.hook('create');
		const run = await generateImage();

		const [call] = await trigger.waitForCalls(1);
		expect(call.status).toBe(200);
		expect(call.emitted).toHaveLength(1);
		const item = call.emitted![0];
		expect(item.json).toEqual(
			expect.objectContaining({
				type: 'run.completed',
				event_id: expect.stringMatching(/^evt_/),
				created_at: expect.any(String),
				delivery_id: call.headers['x-service-delivery'],
				run: expect.objectContaining({
					id: run.id,
					status: 'completed',
					capability: 'image_generation',
				}),
			}),
		);
		expect(item.binary).toBeUndefined();
		expect(call.headers['x-service-event']).toBe('run.completed');
		expect(call.headers['x-service-signature']).toBe(signPayload(secretOf(trigger), call.rawBody));

		const [delivery] = await settledDeliveries(1);
		expect(delivery).toEqual(
			expect.objectContaining({
				status: 'success',
				attempt_count: 1,
				response_status: 200,
				run_id: run.id,
				event_type: 'run.completed',
			}),
		);
		expect(delivery.request_headers['X-Service-Signature']).toBe(
			call.headers['x-service-signature'],
		);
	});

	it('answers 401 to a forged or unsigned request and starts nothing', async () => {
		trigger = await openTrigger({ events: ['run.completed'] });
		await trigger.hook('create');
		const body = JSON.stringify({
			id: 'evt_forged',
			object: 'event',
			type: 'run.completed',
			created_at: new Date().toISOString(),
			data: { object: { id: 'run_x', status: 'completed' } },
		});
		const send = (headers: Record<string, string>) =>
			fetch(trigger.productionUrl, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', ...headers },
				body,
			});

		const forged = await send({ 'X-Service-Signature': signPayload('whsec_guessed', body) });
		const unsigned = await send({});
		const bare = await send({
			'X-Service-Signature': signPayload(secretOf(trigger), body).slice(7),
		});
		expect([forged.status, unsigned.status, bare.status]).toEqual([401, 401, 401]);
		expect(await forged.json()).toEqual({ error: 'unauthorized', reason: 'signature_mismatch' });
		expect((await trigger.waitForCalls(3)).map((c) => c.emitted)).toEqual([
			undefined,
			undefined,
			undefined,
		]);

		const genuine = await send({ 'X-Service-Signature': signPayload(secretOf(trigger), body) });
		expect(genuine.status).toBe(200);
		expect((await trigger.waitForCalls(4))[3].emitted?.[0].json.event_id).toBe('evt_forged');
	});

	it('rejects a correctly signed event older than the configured age with 401', async () => {
		trigger = await openTrigger({ events: ['run.completed'], options: { maxEventAgeMinutes: 5 } });
		await trigger.hook('create');
		const secret = secretOf(trigger);
		const event = (minutesAgo: number) =>
			JSON.stringify({
				id: `evt_${minutesAgo}`,
				object: 'event',
				type: 'run.completed',
				created_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
				data: { object: { id: 'run_y', status: 'completed' } },
			});
		const post = (body: string) =>
			fetch(trigger.productionUrl, {
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					'X-Service-Signature': signPayload(secret, body),
				},
				body,
			});
		expect((await post(event(30))).status).toBe(401);
		expect((await post(event(1))).status).toBe(200);
		expect((await trigger.waitForCalls(2)).map((c) => Boolean(c.emitted))).toEqual([false, true]);
	});

	it('drops a replayed event (same event id) when Ignore Repeated Events is on, and passes it on when off', async () => {
		trigger = await openTrigger({ events: ['run.completed'], ignoreRepeatedEvents: true });
		await trigger.hook('create');
		await generateImage();
		const [first] = await trigger.waitForCalls(1);
		const [original] = await settledDeliveries(1);
		fx.sandbox.services.webhooks.replay('acc_sandbox', original.id);
		const calls = await trigger.waitForCalls(2);
		expect(calls[1].status).toBe(200);
		expect(calls[1].emitted).toBeUndefined();
		expect(JSON.parse(calls[1].rawBody.toString()).id).toBe(
			JSON.parse(first.rawBody.toString()).id,
		);

		// n8n loads the workflow again for every request: the changed setting applies to the next delivery
		trigger.node.parameters.ignoreRepeatedEvents = false;
		fx.sandbox.services.webhooks.replay('acc_sandbox', original.id);
		const third = (await trigger.waitForCalls(3))[2];
		expect(third.emitted?.[0].json.event_id).toBe(first.emitted?.[0].json.event_id);
	});

	it('filters by capability and model, and skips events the node did not select', async () => {
		trigger = await openTrigger({
			events: ['run.completed'],
			options: { capabilities: 'video_generation' },
		});
		await trigger.hook('create');
		await generateImage();
		const [skipped] = await trigger.waitForCalls(1);
		expect(skipped.status).toBe(200);
		expect(skipped.emitted).toBeUndefined();

		trigger.node.parameters.options = {
			capabilities: 'image_generation, video_generation',
			models: 'image.aurora-2',
		};
		await generateImage();
		const second = (await trigger.waitForCalls(2))[1];
		expect(second.emitted?.[0].json.run).toEqual(
			expect.objectContaining({ model: 'image.aurora-2' }),
		);

		trigger.node.parameters.options = { models: 'image.aurora-1' };
		await generateImage();
		expect((await trigger.waitForCalls(3))[2].emitted).toBeUndefined();
	});

	it('downloads the outputs of a completed run as binary when asked', async () => {
		trigger = await openTrigger({
			events: ['run.completed'],
			options: { downloadOutputs: true, binaryPropertyName: 'image' },
		});
		await trigger.hook('create');
		await generateImage({ count: 2 });
		const [call] = await trigger.waitForCalls(1);
		const item = call.emitted![0];
		expect(Object.keys(item.binary ?? {})).toEqual(['image', 'image_1']);
		expect(item.binary!.image.mimeType).toBe('image/png');
		expect((await binaryBytes(item.binary!.image)).subarray(0, 8)).toEqual(PNG_SIGNATURE);
		expect(item.json.output_urls).toHaveLength(2);
	});

	it('works on the test URL: registers it, receives there, and delete removes it', async () => {
		trigger = await openTrigger({ events: ['run.completed'] });
		expect(await trigger.hook('checkExists', { test: true })).toBe(false);
		await trigger.hook('create', { test: true });
		expect(endpoints().map((e) => e.url)).toEqual([trigger.testUrl]);
		await generateImage();
		const [call] = await trigger.waitForCalls(1);
		expect(call.path).toContain('/webhook-test/');
		expect(call.emitted).toHaveLength(1);
		await trigger.hook('delete', { test: true });
		expect(endpoints()).toHaveLength(0);
	});

	it('does not take the production endpoint for the test URL', async () => {
		trigger = await openTrigger();
		await trigger.hook('create');
		expect(await trigger.hook('checkExists', { test: true })).toBe(false);
		expect(staticData(trigger).endpointId).toBe(endpoints()[0].id);
	});

	describe("Simplify (version 2, on by default; n8n's webhook triggers such as Netlify's and Form.io's offer it too)", () => {
		it("a completed run: the run flat like an action node's simplified item (files, prompt, model, credits, run id, status), then the event", async () => {
			trigger = await openTrigger(
				{ events: ['run.completed'], options: { downloadOutputs: true } },
				{ typeVersion: 2 },
			);
			await trigger.hook('create');
			const run = await generateImage({ count: 2 });
			const [call] = await trigger.waitForCalls(1);
			const item = call.emitted![0];
			const source = fx.sandbox.state.runs.get(run.id)!.run as unknown as {
				output: {
					output_url: string;
					images: Array<{ url: string }>;
					width: number;
					height: number;
				};
				model: string;
				usage: { credits: number };
			};
			expect(item.json).toEqual({
				output_url: source.output.output_url,
				output_urls: source.output.images.map((i) => i.url),
				prompt: 'a red fox',
				width: source.output.width,
				height: source.output.height,
				model: source.model,
				credits: source.usage.credits,
				run_id: run.id,
				status: 'completed',
				event: 'run.completed',
				event_id: expect.stringMatching(/^evt_/),
			});
			expect(Object.keys(item.binary ?? {})).toEqual(['data', 'data_1']);
			expect(item.binary!.data.mimeType).toBe('image/png');
		});

		it('off: the event as the service sent it', async () => {
			trigger = await openTrigger(
				{ events: ['run.completed'], simplify: false },
				{ typeVersion: 2 },
			);
			await trigger.hook('create');
			const run = await generateImage();
			const [call] = await trigger.waitForCalls(1);
			expect(Object.keys(call.emitted![0].json)).toEqual([
				'type',
				'event_id',
				'created_at',
				'delivery_id',
				'run',
			]);
			expect(call.emitted![0].json.run).toEqual(
				expect.objectContaining({ id: run.id, object: 'run' }),
			);
		});

		it('a failed run says why', async () => {
			await fx.sandbox.close();
			fx = await startFixture({ failureRate: 1, webhookBackoffScale: 0.002 });
			trigger = await openTrigger({ events: ['run.failed'] }, { typeVersion: 2 });
			await trigger.hook('create');
			await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: { resource: 'image', operation: 'generate', prompt: 'x' },
			});
			const [call] = await trigger.waitForCalls(1);
			expect(call.emitted![0].json).toEqual({
				prompt: 'x',
				model: expect.stringMatching(/^image\./),
				run_id: expect.stringMatching(/^run_/),
				status: 'failed',
				error: expect.any(String),
				error_code: 'provider_error',
				event: 'run.failed',
				event_id: expect.stringMatching(/^evt_/),
			});
		});
	});

	it('receives run.failed only where subscribed, with the run error', async () => {
		await fx.sandbox.close();
		fx = await startFixture({ failureRate: 1, webhookBackoffScale: 0.002 });
		const failures = await openTrigger({ events: ['run.failed'] });
		const successes = await openTrigger({ events: ['run.completed'] });
		await failures.hook('create');
		await successes.hook('create');
		await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: { resource: 'image', operation: 'generate', prompt: 'x' },
		});
		const [call] = await failures.waitForCalls(1);
		expect(call.emitted?.[0].json).toEqual(
			expect.objectContaining({
				type: 'run.failed',
				run: expect.objectContaining({
					status: 'failed',
					error: expect.objectContaining({ code: 'provider_error' }),
				}),
			}),
		);
		await settledDeliveries(1);
		expect(successes.calls).toHaveLength(0);
		expect(deliveries()).toHaveLength(1);
	});

	describe('as n8n keeps static data: loaded for each request, saved whole after it (issue 24)', () => {
		const signed = (secret: string, id: string) => {
			const body = JSON.stringify({
				id,
				object: 'event',
				type: 'run.completed',
				created_at: new Date().toISOString(),
				data: { object: { id: `run_${id}`, object: 'run', status: 'completed' } },
			});
			return {
				body,
				headers: {
					'Content-Type': 'application/json',
					'X-Service-Signature': signPayload(secret, body),
				},
			};
		};
		/** A delivery, answered and done: n8n saves the static data after the node answered. */
		const post = async (
			h: TriggerHarness,
			delivery: { body: string; headers: Record<string, string> },
		) => {
			const before = h.calls.length;
			const answer = await fetch(h.productionUrl, { method: 'POST', ...delivery });
			await h.waitForCalls(before + 1);
			return answer;
		};
		const started = (h: TriggerHarness) =>
			h.calls.filter((c) => c.emitted).map((c) => String(c.emitted![0].json.event_id));

		it('loses no remembered id when 20 different events arrive at once: each one repeated afterwards starts nothing', async () => {
			trigger = await openTrigger();
			await trigger.hook('create');
			const ids = Array.from({ length: 20 }, (_, i) => `evt_burst_${i}`);
			await Promise.all(
				ids.map((id) =>
					fetch(trigger.productionUrl, { method: 'POST', ...signed(secretOf(trigger), id) }),
				),
			);
			await trigger.waitForCalls(20);
			expect(started(trigger).sort()).toEqual([...ids].sort());
			// every delivery saved its own copy of the static data, and none dropped another's id
			expect(Object.keys(staticData(trigger).seenEvents ?? {}).sort()).toEqual([...ids].sort());
			for (const id of ids)
				expect((await post(trigger, signed(secretOf(trigger), id))).status).toBe(200);
			expect(started(trigger)).toHaveLength(20);
		});

		it('starts one execution for 20 copies of one event arriving at once', async () => {
			trigger = await openTrigger();
			await trigger.hook('create');
			const copy = signed(secretOf(trigger), 'evt_twenty_copies');
			const answers = await Promise.all(
				Array.from(
					{ length: 20 },
					async () =>
						(await fetch(trigger.productionUrl, { method: 'POST', ...copy })).json() as Promise<
							Record<string, unknown>
						>,
				),
			);
			await trigger.waitForCalls(20);
			expect(started(trigger)).toEqual(['evt_twenty_copies']);
			expect(answers.filter((a) => a.ignored === 'repeated_event')).toHaveLength(19);
		});

		it('takes over an endpoint an earlier version registered (secret in clear): deliveries verify, and the secret is sealed on first use', async () => {
			trigger = await openTrigger();
			await trigger.hook('create');
			const secret = secretOf(trigger);
			const { endpointId, webhookUrl } = staticData(trigger);
			// the static data as versions before issue 24 left it
			trigger.setStaticData({
				endpointId,
				signingSecret: secret,
				webhookUrl,
				recentEventIds: ['evt_before'],
			});
			expect((await post(trigger, signed(secret, 'evt_after'))).status).toBe(200);
			expect(started(trigger)).toEqual(['evt_after']);
			expect(await (await post(trigger, signed(secret, 'evt_before'))).json()).toEqual({
				received: true,
				ignored: 'repeated_event',
			});
			const migrated = staticData(trigger);
			expect(migrated.signingSecret).toBeUndefined();
			expect(migrated.sealedSigningSecret).toEqual(expect.any(String));
			expect(JSON.stringify(trigger.staticData())).not.toContain(secret);
			expect((await post(trigger, signed(secret, 'evt_later'))).status).toBe(200);
			expect(started(trigger)).toEqual(['evt_after', 'evt_later']);
			// activation with the old layout seals too
			trigger.setStaticData({ endpointId, signingSecret: secret, webhookUrl });
			expect(await trigger.hook('checkExists')).toBe(true);
			expect(staticData(trigger)).toEqual({
				endpointId,
				sealedSigningSecret: expect.any(String),
				webhookUrl,
			});
			expect(endpoints().map((e) => e.id)).toEqual([endpointId]);
		});

		it("keeps verifying with a secret this process opened before the credential's API key changed (until it restarts)", async () => {
			trigger = await openTrigger();
			await trigger.hook('create');
			const secret = secretOf(trigger);
			expect((await post(trigger, signed(secret, 'evt_before_rotation'))).status).toBe(200);
			fx.credentials.set('mediaGenApi', {
				baseUrl: fx.sandbox.baseUrl,
				apiKey: fx.sandbox.state.createApiKey(['webhooks:read', 'webhooks:write'], 'rotated key'),
			});
			expect((await post(trigger, signed(secret, 'evt_after_rotation'))).status).toBe(200);
			expect(started(trigger)).toEqual(['evt_before_rotation', 'evt_after_rotation']);
		});

		it("after the credential's API key changed: deliveries are refused (credential_changed) until activation registers a new endpoint and deletes the old one", async () => {
			trigger = await openTrigger();
			await trigger.hook('create');
			const oldEndpoint = staticData(trigger).endpointId;
			const oldSecret = secretOf(trigger);
			fx.credentials.set('mediaGenApi', {
				baseUrl: fx.sandbox.baseUrl,
				apiKey: fx.sandbox.state.createApiKey(['webhooks:read', 'webhooks:write'], 'rotated key'),
			});
			const refused = await post(trigger, signed(oldSecret, 'evt_after_rotation'));
			expect([refused.status, await refused.json()]).toEqual([
				401,
				{ error: 'unauthorized', reason: 'credential_changed' },
			]);
			expect(await trigger.hook('checkExists')).toBe(false);
			expect(endpoints()).toEqual([]);
			await trigger.hook('create');
			expect(staticData(trigger).endpointId).not.toBe(oldEndpoint);
			expect((await post(trigger, signed(secretOf(trigger), 'evt_after_rotation'))).status).toBe(
				200,
			);
			expect(started(trigger)).toEqual(['evt_after_rotation']);
		});
	});
});
