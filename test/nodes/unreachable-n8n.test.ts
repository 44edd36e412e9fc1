/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import type { IDataObject } from 'n8n-workflow';

import { MediaGenVideo } from '../../nodes/MediaGenVideo/MediaGenVideo.node';
import { SANDBOX_ACCOUNT_ID } from '../../sandbox/options';
import { pausedEndpointDescription } from '../../src/webhooks/paused-endpoint';
import { PausedExecutionHost } from '../helpers/paused-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';

const video = new MediaGenVideo();
const shots = (n: number) =>
	Array.from({ length: n }, (_, i) => ({ json: { prompt: `shot ${i}` } }));
const generate: IDataObject = {
	resource: 'video',
	operation: 'generate',
	prompt: '={{ $json.prompt }}',
	duration: 5,
	waitMode: 'parked',
};

let executionCounter = 0;
const nextExecutionId = () => `unreachable-${process.pid}-${++executionCounter}`;

/** Where nothing listens: the sandbox's deliveries there fail with ECONNREFUSED, no answer. */
const CLOSED_PORT_WAITING = 'http://127.0.0.1:9/webhook-waiting';

describe('Wait Mode "Pause the Execution" where the service cannot reach this n8n (issue 33)', () => {
	let fx: Fixture;
	let host: PausedExecutionHost;
	beforeEach(async () => {
		fx = await startFixture({ latencyMs: 800, webhookBackoffScale: 0.01 });
		host = await PausedExecutionHost.start();
	});
	afterEach(async () => {
		await fx.sandbox.close();
		await host.close();
	});

	const hintsOf = (run: {
		run: {
			data: {
				resultData: { runData: Record<string, Array<{ hints?: Array<{ message: string }> }>> };
			};
		};
	}) => (run.run.data.resultData.runData.MediaGen?.[0]?.hints ?? []).map((h) => h.message);
	const endpoints = () => fx.sandbox.services.webhooks.listEndpoints(SANDBOX_ACCOUNT_ID);

	it('a .invalid webhook address: waits in the execution, delivers the finished videos, registers nothing, removes an expired leftover endpoint there and says which rule and what to do', async () => {
		// an endpoint left by an execution stranded at this address, its deadline more than 15 minutes past
		const stranded = 'https://n8n.home.invalid/webhook-waiting/old-7?signature=s';
		const deadline = new Date(Date.now() - 3_600_000);
		fx.sandbox.services.webhooks.createEndpoint(SANDBOX_ACCOUNT_ID, {
			url: stranded,
			events: ['run.completed'],
			description: pausedEndpointDescription({
				executionId: 'old-7',
				workflowId: 'wf',
				workflowName: 'w',
				nodeName: 'MediaGen',
				resumeUrl: stranded,
				deadline,
			}),
		});
		expect(endpoints()).toHaveLength(1);
		const done = await host.run({
			nodeType: video,
			credentials: fx.credentials,
			parameters: generate,
			input: shots(2),
			executionId: nextExecutionId(),
			webhookWaitingBaseUrl: 'https://n8n.home.invalid/webhook-waiting',
		});
		expect(done.error).toBeUndefined();
		expect(done.run.status).not.toBe('waiting');
		expect(done.items.map((i) => i.json.status)).toEqual(['completed', 'completed']);
		expect(hintsOf(done)[0]).toBe(
			"Waited in this execution instead of pausing it: the service cannot reach this n8n at n8n.home.invalid: a .invalid name, which never resolves (RFC 6761) (rule reserved_name); waiting here holds a worker until the runs finish. To pause instead, set n8n's WEBHOOK_URL to an address the service can reach (a public address or a tunnel).",
		);
		expect(fx.sandbox.state.countRequests('POST', '/v1/webhooks')).toBe(0);
		expect(endpoints()).toEqual([]);
	});

	it("an address the service's deliveries got no answer from: the next pause there waits in the execution instead, quoting the service's error", async () => {
		// the first execution has no evidence yet: the address (loopback, like the service) is reachable by its form
		const first = await host.run({
			nodeType: video,
			credentials: fx.credentials,
			parameters: generate,
			input: shots(1),
			executionId: nextExecutionId(),
			webhookWaitingBaseUrl: CLOSED_PORT_WAITING,
		});
		expect(first.run.status).toBe('waiting');
		// its run finishes and every attempt to deliver its event fails (back-off scaled down)
		const deliveries = () => fx.sandbox.services.webhooks.listDeliveries(SANDBOX_ACCOUNT_ID);
		for (
			const started = Date.now();
			!deliveries().some((d) => d.attempt_count > 0 && d.last_error);

		) {
			if (Date.now() - started > 20_000) throw new Error('no failed delivery attempt');
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		expect(deliveries()[0].response_status).toBeNull();

		const second = await host.run({
			nodeType: video,
			credentials: fx.credentials,
			parameters: generate,
			input: shots(1),
			executionId: nextExecutionId(),
			webhookWaitingBaseUrl: CLOSED_PORT_WAITING,
		});
		expect(second.run.status).not.toBe('waiting');
		expect(second.items.map((i) => i.json.status)).toEqual(['completed']);
		expect(hintsOf(second)[0]).toMatch(
			/^Waited in this execution instead of pausing it: the service cannot reach this n8n at http:\/\/127\.0\.0\.1:9: its latest delivery there at .* UTC got no answer \(ECONNREFUSED.*\) \(rule failed_deliveries\); waiting here holds a worker until the runs finish\. To pause instead, set n8n's WEBHOOK_URL/,
		);
		// only the first execution's endpoint was ever registered
		expect(fx.sandbox.state.countRequests('POST', '/v1/webhooks')).toBe(1);
	});

	it('an address the deliveries reached (n8n answered) still pauses', async () => {
		const first = await host.run({
			nodeType: video,
			credentials: fx.credentials,
			parameters: generate,
			input: shots(1),
			executionId: nextExecutionId(),
		});
		expect(first.run.status).toBe('waiting');
		await host.finished(first.executionId);
		const second = await host.run({
			nodeType: video,
			credentials: fx.credentials,
			parameters: generate,
			input: shots(1),
			executionId: nextExecutionId(),
		});
		expect(second.run.status).toBe('waiting');
		expect((await host.finished(second.executionId)).items.map((i) => i.json.status)).toEqual([
			'completed',
		]);
	});
});
