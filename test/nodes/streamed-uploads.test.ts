/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// An input binary that n8n keeps in its binary storage (on disk by default) is never loaded: its
// size comes from n8n's metadata, its length from its header, and the upload streams the file.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { MediaGenAudio } from '../../nodes/MediaGenAudio/MediaGenAudio.node';
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { makePng } from '../../sandbox/png';
import { startRelayed, type FileRelay } from '../helpers/file-relay';
import { monoWav } from '../helpers/media';
import { runNode, storedBinary } from '../helpers/n8n-harness';
import { posts, type Fixture } from '../helpers/sandbox-fixture';

const MB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('streamed uploads of input binaries kept on disk', () => {
	let fx: Fixture;
	let relay: FileRelay;
	beforeEach(async () => {
		({ fx, relay } = await startRelayed({ latencyMs: 50 }));
	});
	afterEach(async () => {
		await relay.close();
		await fx.sandbox.close();
	});

	const transcribe = (binary: Awaited<ReturnType<typeof storedBinary>>) =>
		runNode({
			nodeType: new MediaGenAudio(),
			credentials: fx.credentials,
			parameters: {
				resource: 'audio',
				operation: 'transcribe',
				audioUrlSource: 'binary',
				audioUrlBinaryProperty: 'recording',
			},
			input: [{ json: {}, binary: { recording: binary } }],
		});

	it('streams the file to the pre-signed URL with its Content-Length: the service receives exactly its bytes', async () => {
		const recording = monoWav(20 * MB, 8000);
		const binary = await storedBinary(recording, 'audio/wav', 'interview.wav');
		expect(binary.id).toBeDefined();
		const { items, error } = await transcribe(binary);
		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('completed');
		const put = relay.requests.find(
			(r) => r.method === 'PUT' && r.path.startsWith('/storage/uploads/'),
		)!;
		expect(put.headers['content-length']).toBe(String(recording.length));
		expect(put.headers['transfer-encoding']).toBeUndefined();
		const kept = [...fx.sandbox.state.uploads.values()][0];
		expect(sha256(readFileSync(kept.spool!.path))).toBe(sha256(recording));
	});

	// A client that follows redirects keeps every byte it sent, to send them again: a whole file in memory.
	it('does not follow a redirect of the upload PUT (it would hold the file to resend it): the 307 fails the item', async () => {
		relay.redirectPuts = true;
		const binary = await storedBinary(monoWav(2 * MB, 8000), 'audio/wav', 'interview.wav');
		const { error } = await transcribe(binary);
		// the redirect itself is the item's failure (a followed one ends at the sandbox, which refuses the resent body)
		expect(`${error?.message} ${error?.description}`).toContain('status code 307');
		expect(relay.requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
	});

	it('refuses a recording longer than the model allows from its header, before anything is sent', async () => {
		// 20 MB of 1 kHz 8-bit mono plays ~20,971 s; the transcription model takes at most 7,200 s
		const binary = await storedBinary(monoWav(20 * MB, 1000), 'audio/wav', 'long.wav');
		const { error } = await transcribe(binary);
		expect(error?.message).toBe(
			'Audio: "20971.5 s" is not allowed by the model Scribe (transcription.scribe-1); allowed: at most 7200 s',
		);
		expect(relay.requests.filter((r) => r.method !== 'GET')).toEqual([]);
		expect(posts(fx.sandbox, '/uploads')).toHaveLength(0);
	});

	it('takes the size of a file on disk from n8n’s metadata: a 21 MB image is refused by a 20 MB model limit before anything is sent', async () => {
		const png = Buffer.concat([makePng(8, 8, 1), Buffer.alloc(21 * MB)]);
		const binary = await storedBinary(png, 'image/png', 'big.png');
		const { error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: {
				resource: 'image',
				operation: 'removeBackground',
				imageUrlSource: 'binary',
				imageUrlBinaryProperty: 'photo',
			},
			input: [{ json: {}, binary: { photo: binary } }],
		});
		expect(error?.message).toBe(
			'Image: "21 MB" is not allowed by the model Cutout (image_edit.cutout); allowed: at most 20 MB',
		);
		expect(posts(fx.sandbox, '/uploads')).toHaveLength(0);
	});
});
