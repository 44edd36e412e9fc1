/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenTrigger } from '../../nodes/MediaGenTrigger/MediaGenTrigger.node';
import type { TriggerStaticData } from '../../src/webhooks/trigger-secret';
import { runNode } from '../helpers/n8n-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';
import { startTriggerHarness, type TriggerHarness } from '../helpers/trigger-harness';

const REMEDY =
	"set n8n's WEBHOOK_URL to an address the service can reach (a public address or a tunnel), or use MediaGen Polling Trigger";

describe('publishing MediaGen Trigger where the service cannot reach n8n (issue 33)', () => {
	let fx: Fixture;
	const harnesses: TriggerHarness[] = [];
	const openTrigger = async (webhookOrigin: string) => {
		const harness = await startTriggerHarness({
			nodeType: new MediaGenTrigger(),
			credentials: fx.credentials,
			parameters: { events: ['run.completed'] },
			webhookOrigin,
		});
		harnesses.push(harness);
		return harness;
	};
	const endpoints = () => fx.sandbox.services.webhooks.listEndpoints('acc_sandbox');
	const deliveries = () => fx.sandbox.services.webhooks.listDeliveries('acc_sandbox');
	const generateImage = async () => {
		const { error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: { resource: 'image', operation: 'generate', prompt: 'a red fox' },
		});
		expect(error).toBeUndefined();
	};
	const firstAttempt = async () => {
		for (
			const end = Date.now() + 15_000;
			!deliveries().some((d) => d.attempt_count > 0 && d.last_error);
			await new Promise((r) => setTimeout(r, 50))
		) {
			if (Date.now() > end) throw new Error('no failed delivery attempt');
		}
		return deliveries()[0];
	};
	const failure = async (promise: Promise<unknown>) =>
		(await promise.then(
			() => undefined,
			(error: unknown) => error,
		)) as (Error & { description?: string }) | undefined;

	beforeEach(async () => {
		fx = await startFixture({ webhookBackoffScale: 0.002 });
	});
	afterEach(async () => {
		for (const h of harnesses.splice(0)) await h.close();
		await fx.sandbox.close();
	});

	it.each([false, true])(
		'a .invalid webhook address fails activation (test event: %s) with the rule and the remedy, and registers nothing',
		async (test) => {
			const trigger = await openTrigger('https://n8n.office.invalid');
			expect(await trigger.hook('checkExists', { test })).toBe(false);
			const error = await failure(trigger.hook('create', { test }));
			expect(error?.message).toBe(
				`MediaGen cannot send events to this n8n at n8n.office.invalid (rule reserved_name): ${REMEDY}`,
			);
			expect(error?.description).toBe(
				`The service cannot reach this n8n at n8n.office.invalid: a .invalid name, which never resolves (RFC 6761) (rule reserved_name). The service delivers each event to https://n8n.office.invalid/${test ? 'webhook-test' : 'webhook'}/${trigger.node.webhookId}/webhook. To receive them, set n8n's WEBHOOK_URL to an address the service can reach (a public address or a tunnel); or use MediaGen Polling Trigger, which asks the service for finished runs and needs no inbound connection.`,
			);
			expect(endpoints()).toEqual([]);
		},
	);

	it("a name the service's delivery could not resolve: published once (its form gave no reason), the next activation fails, quoting the service's error", async () => {
		// a local-network name: a service on a local address (the sandbox) may resolve it, so its form passes
		const trigger = await openTrigger('http://n8n.nowhere.example:5678');
		expect(await trigger.hook('create')).toBe(true);
		await generateImage();
		const attempt = await firstAttempt();
		expect({ status: attempt.response_status, error: attempt.last_error }).toEqual({
			status: null,
			error: expect.stringMatching(/ENOTFOUND|EAI_AGAIN/),
		});
		const error = await failure(trigger.hook('checkExists'));
		expect(error?.message).toBe(
			`MediaGen cannot send events to this n8n at http://n8n.nowhere.example:5678 (rule failed_deliveries): ${REMEDY}`,
		);
		expect(error?.description).toMatch(
			/^The service cannot reach this n8n at http:\/\/n8n\.nowhere\.example:5678: its latest delivery there at .* got no answer \((ENOTFOUND|EAI_AGAIN).*\(rule failed_deliveries\)\. The service delivers each event to /,
		);
		// the endpoint registered before stays as it was: n8n tries again and shows the error
		expect(endpoints().map((e) => e.id)).toEqual([
			(trigger.staticData() as TriggerStaticData).endpointId,
		]);
	});

	it('an n8n that refused connections for a while (down for a restart) is published again: only a name that did not resolve counts', async () => {
		const trigger = await openTrigger('http://127.0.0.1:9');
		expect(await trigger.hook('create')).toBe(true);
		await generateImage();
		expect((await firstAttempt()).last_error).toMatch(/ECONNREFUSED/);
		expect(await trigger.hook('checkExists')).toBe(true);
		expect(endpoints().map((e) => e.url)).toEqual([
			`http://127.0.0.1:9/webhook/${trigger.node.webhookId}/webhook`,
		]);
	});
});
