/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// Output files stream into n8n's binary storage (on disk here, as in n8n 2.x by default): the bytes
// stored are the bytes sent, the media type is the one the first bytes show, Max Output Size is
// checked against Content-Length and while the bytes flow, and cancelling the execution stops it.
import { createHash } from 'node:crypto';

import axios from 'axios';
import type { INodeExecutionData } from 'n8n-workflow';

import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenVideo } from '../../nodes/MediaGenVideo/MediaGenVideo.node';
import { startRelayed, type FileRelay } from '../helpers/file-relay';
import { binaryBytes, runNode, storedBinaryFiles } from '../helpers/n8n-harness';
import type { Fixture } from '../helpers/sandbox-fixture';

const MB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('streamed output downloads', () => {
	let fx: Fixture;
	let relay: FileRelay;
	let executionCount = 0;

	beforeEach(async () => {
		({ fx, relay } = await startRelayed({ latencyMs: 50 }));
	});
	afterEach(async () => {
		await relay.close();
		await fx.sandbox.close();
	});

	const video = (
		options: Record<string, unknown> = {},
		extra: Partial<Parameters<typeof runNode>[0]> = {},
	) => {
		const executionId = `stream-${++executionCount}`;
		const run = runNode({
			nodeType: new MediaGenVideo(),
			credentials: fx.credentials,
			parameters: {
				resource: 'video',
				operation: 'generate',
				prompt: 'a long take',
				duration: 5,
				options,
			},
			workflowId: 'wf-stream',
			executionId,
			...extra,
		});
		return { run, stored: () => storedBinaryFiles('wf-stream', executionId) };
	};
	const runIdOf = () => [...fx.sandbox.state.runs.keys()][0];

	it('stores a multi-MB video as the bytes the service sent, typed by its first bytes (not the text/html label), on disk', async () => {
		fx.sandbox.state.options.videoOutputBytes = 6 * MB + 3;
		relay.mode = 'mislabelled';
		const { run, stored } = video();
		const { items, error } = await run;
		expect(error).toBeUndefined();
		const binary = items[0].binary!.data;
		expect(binary.mimeType).toBe('video/mp4');
		expect(binary.fileName).toMatch(/\.mp4$/);
		expect(binary.id).toBeDefined();
		expect(stored()).toHaveLength(2); // the file and its metadata
		const served = Buffer.from(
			(
				await axios.get<ArrayBuffer>((items[0].json.output_urls as string[])[0], {
					responseType: 'arraybuffer',
				})
			).data,
		);
		const kept = await binaryBytes(binary);
		expect(kept.length).toBe(6 * MB + 3);
		expect(sha256(kept)).toBe(sha256(served));
	});

	it('types a small PNG by its bytes too, and keeps every byte of a file that arrives in one piece', async () => {
		relay.mode = 'mislabelled';
		const { items, error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: { resource: 'image', operation: 'generate', prompt: 'a fox' },
		});
		expect(error).toBeUndefined();
		const binary = items[0].binary!.data;
		expect(binary.mimeType).toBe('image/png');
		const served = Buffer.from(
			(
				await axios.get<ArrayBuffer>((items[0].json.output_urls as string[])[0], {
					responseType: 'arraybuffer',
				})
			).data,
		);
		expect((await binaryBytes(binary)).equals(served)).toBe(true);
	});

	// 32 MB: more than the loopback socket buffers take, so a client that stops reading shows
	it('refuses a file whose Content-Length passes Max Output Size, naming the run, before reading it; nothing is stored', async () => {
		fx.sandbox.state.options.videoOutputBytes = 32 * MB;
		const { run, stored } = video({ maxOutputSize: 1 });
		const { error } = await run;
		expect(error?.message).toBe(
			`output_too_large — An output file of run ${runIdOf()} is 32 MB, more than Max Output Size (1 MB); it was not downloaded`,
		);
		expect(error?.description).toContain('Raise Options → Max Output Size');
		await relay.files[0].done;
		expect(relay.files[0].closedEarly).toBe(true);
		expect(relay.files[0].sent).toBeLessThan(32 * MB);
		expect(stored()).toEqual([]);
	});

	it('stops a file without Content-Length once it passes Max Output Size while streaming; nothing is stored', async () => {
		fx.sandbox.state.options.videoOutputBytes = 32 * MB;
		relay.mode = 'chunked';
		const { run, stored } = video({ maxOutputSize: 1 });
		const { error } = await run;
		expect(error?.message).toBe(
			`output_too_large — An output file of run ${runIdOf()} grew past Max Output Size (1 MB) while downloading; nothing was kept`,
		);
		await relay.files[0].done;
		expect(relay.files[0].closedEarly).toBe(true);
		expect(relay.files[0].sent).toBeLessThan(32 * MB);
		expect(stored()).toEqual([]);
	});

	it('with Continue On Fail, the too-large item fails alone and names its run', async () => {
		fx.sandbox.state.options.videoOutputBytes = 3 * MB;
		const { run } = video({ maxOutputSize: 1 }, { settings: { onError: 'continueRegularOutput' } });
		const { items } = await run;
		expect((items[0] as INodeExecutionData).json).toEqual(
			expect.objectContaining({ code: 'output_too_large', run_id: runIdOf() }),
		);
	});

	it('stops a download when the execution is cancelled: the connection closes and nothing is stored', async () => {
		fx.sandbox.state.options.videoOutputBytes = 8 * MB;
		relay.mode = 'stalled';
		const { run, stored } = video(
			{},
			{
				onStarted: (cancel) => {
					const timer = setInterval(() => {
						if (relay.files[0]?.sent) {
							clearInterval(timer);
							cancel();
						}
					}, 20);
				},
			},
		);
		await run;
		await relay.files[0].done;
		expect(relay.files[0].closedEarly).toBe(true);
		expect(relay.files[0].sent).toBeLessThan(8 * MB);
		expect(stored()).toEqual([]);
	});
});
