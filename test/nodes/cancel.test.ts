/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { runNode } from '../helpers/n8n-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';

describe('cancelling the execution while the node waits', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture({ latencyMs: 60_000 });
	});
	afterEach(async () => fx.sandbox.close());

	it('stops polling: no request reaches the service after the cancel', async () => {
		let cancelledAt = 0;
		const polls = () =>
			fx.sandbox.state.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/runs'))
				.length;
		let pollsAtCancel = -1;
		const done = runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: { resource: 'image', operation: 'generate', prompt: '={{ $json.p }}' },
			input: [{ json: { p: 'a' } }, { json: { p: 'b' } }, { json: { p: 'c' } }],
			onStarted: (cancel) => {
				const timer = setInterval(() => {
					if (polls() >= 2) {
						clearInterval(timer);
						pollsAtCancel = polls();
						cancelledAt = Date.now();
						cancel();
					}
				}, 20);
			},
		});
		await done;
		expect(cancelledAt).toBeGreaterThan(0);
		const settled = polls();
		// Any poll already in flight at the cancel may land; after that, silence for 3 s.
		await new Promise((r) => setTimeout(r, 3000));
		expect(polls()).toBe(settled);
		expect(settled - pollsAtCancel).toBeLessThanOrEqual(1);
		expect(fx.sandbox.state.runs.size).toBe(3);
	});
});
