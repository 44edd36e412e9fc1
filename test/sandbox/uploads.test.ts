import axios, { type AxiosInstance } from 'axios';

import type { Sandbox } from '../../sandbox/server';
import { expectProblem, openSandbox, PNG_SIGNATURE, submitImage } from './helpers';

const bytes = Buffer.concat([
	PNG_SIGNATURE,
	Buffer.from('not really an image, but bytes all the same'),
]);

describe('sandbox uploads', () => {
	let sandbox: Sandbox;
	let http: AxiosInstance;

	beforeAll(async () => {
		({ sandbox, http } = await openSandbox({ latencyMs: 50 }));
	});
	afterAll(() => sandbox.close());

	async function createUpload(contentType = 'image/png') {
		const res = await http.post('/uploads', { content_type: contentType, filename: 'input.png' });
		expect(res.status).toBe(201);
		return res.data as {
			asset_id: string;
			upload_url: string;
			asset_url: string;
			content_type: string;
			expires_at: string;
		};
	}

	const put = (url: string, contentType: string, data: Buffer = bytes) =>
		axios.put(url, data, { headers: { 'Content-Type': contentType }, validateStatus: () => true });

	it('signs an upload: upload_url, asset_url, content_type echo and an expiry about 7 days out', async () => {
		const upload = await createUpload();
		expect(upload).toEqual({
			asset_id: expect.any(String),
			upload_url: expect.stringContaining(`${sandbox.origin}/storage/uploads/${upload.asset_id}?`),
			asset_url: expect.stringContaining(`${sandbox.origin}/storage/assets/${upload.asset_id}?`),
			content_type: 'image/png',
			expires_at: expect.any(String),
		});
		const days = (Date.parse(upload.expires_at) - Date.now()) / 86400_000;
		expect(days).toBeGreaterThan(6.9);
		expect(days).toBeLessThanOrEqual(7);
	});

	it('stores bytes PUT with the signed content type and serves them at asset_url', async () => {
		const upload = await createUpload();
		expect((await put(upload.upload_url, 'image/png')).status).toBe(200);
		const read = await axios.get<ArrayBuffer>(upload.asset_url, {
			responseType: 'arraybuffer',
			validateStatus: () => true,
		});
		expect(read.status).toBe(200);
		expect(read.headers['content-type']).toMatch(/^image\/png/);
		expect(Buffer.from(read.data).equals(bytes)).toBe(true);
	});

	it('refuses a PUT with another content type (403) and stores nothing', async () => {
		const upload = await createUpload();
		const res = await put(upload.upload_url, 'image/jpeg');
		expect(res.status).toBe(403);
		expect(sandbox.state.uploads.get(upload.asset_id)?.bytes).toBeUndefined();
		expect((await axios.get(upload.asset_url, { validateStatus: () => true })).status).toBe(404);
	});

	it('refuses a PUT to an upload_url with a forged signature (403)', async () => {
		const upload = await createUpload();
		const res = await put(upload.upload_url.replace(/sig=[^&]+/, 'sig=forged'), 'image/png');
		expect(res.status).toBe(403);
	});

	it('answers 400 unsupported_media_type for a content type it cannot take', async () => {
		const problem = expectProblem(
			await http.post('/uploads', { content_type: 'application/x-msdownload' }),
			400,
			'unsupported_media_type',
		);
		expect(problem.param).toBe('content_type');
	});

	it('accepts an uploaded asset as image_url of a generation', async () => {
		const upload = await createUpload();
		await put(upload.upload_url, 'image/png');
		const res = await submitImage(http, { image_url: upload.asset_url });
		expect(res.status).toBe(202);
		expect(res.data.input_summary.has_image).toBe(true);
	});

	it('answers 400 invalid_parameter naming image_url when the asset was never uploaded', async () => {
		const upload = await createUpload();
		const runs = sandbox.state.runs.size;
		const problem = expectProblem(
			await submitImage(http, { image_url: upload.asset_url }),
			400,
			'invalid_parameter',
		);
		expect(problem.param).toBe('image_url');
		expect(sandbox.state.runs.size).toBe(runs);
	});
});
