import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { SecretValues } from '../../../src/transport/redact';
import type { ApiClient } from '../../../src/transport/request';
import { DEFAULT_RETRY_LIMITS } from '../../../src/transport/retry-policy';
import {
	leftoverProbeUrl,
	pausedEndpointDescription,
	removeLeftoverPausedEndpoints,
} from '../../../src/webhooks/paused-endpoint';

const node: INode = {
	id: '1',
	name: 'MediaGen Video',
	type: 'mediaGenVideo',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const WAITING = 'http://n8n.test/webhook-waiting';

describe('the probe of a leftover endpoint', () => {
	it('asks beside the resume URL (a path no waiting webhook serves), with the same token', () => {
		expect(leftoverProbeUrl(`${WAITING}/17?signature=abc`)).toBe(
			`${WAITING}/17/mediagen-leftover-probe?signature=abc`,
		);
		expect(leftoverProbeUrl(`${WAITING}/17/?signature=abc`)).toBe(
			`${WAITING}/17/mediagen-leftover-probe?signature=abc`,
		);
	});
});

describe('removeLeftoverPausedEndpoints with more leftovers than one cleanup asks about', () => {
	/** An account with endpoints of paused executions; this n8n says which executions are gone. */
	function account(
		endpoints: Array<{ id: string; executionId: string; deadline: Date }>,
		gone: Set<string>,
	) {
		const live = new Map(endpoints.map((e) => [e.id, e]));
		const probed: string[] = [];
		const urlOf = (executionId: string) => `${WAITING}/${executionId}?signature=t${executionId}`;
		const ctx = {
			getNode: () => node,
			helpers: {
				httpRequestWithAuthentication: async (
					_type: string,
					options: { method: string; url: string },
				) => {
					const path = new URL(options.url).pathname;
					if (options.method === 'GET' && path.endsWith('/webhooks')) {
						const data = [...live.values()].map((e) => ({
							id: e.id,
							object: 'webhook_endpoint',
							url: urlOf(e.executionId),
							description: pausedEndpointDescription({
								executionId: e.executionId,
								workflowId: 'wf',
								workflowName: 'w',
								nodeName: 'n',
								resumeUrl: urlOf(e.executionId),
								deadline: e.deadline,
							}),
						}));
						return {
							statusCode: 200,
							headers: {},
							body: { object: 'list', data, has_more: false },
						};
					}
					if (options.method === 'DELETE') {
						live.delete(path.split('/').pop()!);
						return {
							statusCode: 200,
							headers: {},
							body: { id: path.split('/').pop(), deleted: true },
						};
					}
					throw new Error(`unexpected ${options.method} ${options.url}`);
				},
				httpRequest: async (options: { url: string }) => {
					probed.push(options.url);
					const executionId = new URL(options.url).pathname.split('/')[2];
					return gone.has(executionId)
						? {
								statusCode: 409,
								body: {
									code: 409,
									message: `The execution "${executionId}" has finished with error.`,
								},
							}
						: {
								statusCode: 404,
								body: {
									code: 404,
									message: `The workflow for execution "${executionId}" does not contain a waiting webhook with a matching path/method.`,
								},
							};
				},
			},
		} as unknown as IExecuteFunctions;
		const client = {
			ctx,
			credentialType: 'mediaGenApi',
			baseUrl: 'http://service.test/v1',
			retryLimits: { ...DEFAULT_RETRY_LIMITS, maxTransientRetries: 0 },
			requestTimeoutMs: 1000,
			secrets: new SecretValues(),
		} as ApiClient;
		return { client, live, probed };
	}

	it('asks the ones not asked before first, so long-paused executions do not hide a cancelled one', async () => {
		const now = Date.now();
		const hours = (h: number) => new Date(now + h * 3600_000);
		// twelve executions still paused, deadlines sooner than the cancelled one's
		const paused = Array.from({ length: 12 }, (_, i) => ({
			id: `whe_${i}`,
			executionId: String(100 + i),
			deadline: hours(1 + i),
		}));
		const cancelled = { id: 'whe_cancelled', executionId: '999', deadline: hours(20) };
		const { client, live, probed } = account([...paused, cancelled], new Set(['999']));
		const own = `${WAITING}/5000?signature=own`;

		expect(await removeLeftoverPausedEndpoints(client, own, now)).toEqual([]);
		expect(probed).toHaveLength(10);
		expect(probed.every((url) => url.includes('/mediagen-leftover-probe?'))).toBe(true);

		probed.length = 0;
		expect(await removeLeftoverPausedEndpoints(client, own, now + 1000)).toEqual(['whe_cancelled']);
		expect(
			probed
				.map((url) => new URL(url).pathname.split('/')[2])
				.slice(0, 3)
				.sort(),
		).toEqual(['110', '111', '999']);
		expect(live.has('whe_cancelled')).toBe(false);
		expect(live.size).toBe(12);
	});
});
