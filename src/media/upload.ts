import { createHash } from 'node:crypto';

import { NodeOperationError, type IBinaryData, type IExecuteFunctions } from 'n8n-workflow';

import { NOTHING_SPENT } from '../options/nothing-spent';
import { apiRequest, unexpectedResponse, type ApiClient } from '../transport/request';
import { mediaDurationSeconds } from './duration';
import type { ByteStream } from './stream-watch';

/** A binary property of an input item, about to be uploaded. */
export interface BinaryInput {
	itemIndex: number;
	property: string;
	mimeType: string;
	fileName?: string;
	/** bytes, and seconds where the header tells (MP4, WAV): checked against the model's file limits */
	size?: number;
	durationSeconds?: number;
	/**
	 * sha256 of the file's bytes: what a request that uploads it is named by in a job's identity
	 * (the asset URL the upload gets is new on every try, the bytes are not)
	 */
	contentHash: string;
}

/** Chunks read from n8n's binary storage: large ones pass over sample data quickly. */
const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * The bytes of an input binary: a stream from n8n's binary storage (on disk by default, S3 or the
 * database in queue mode) when it keeps the file there; the buffer when the binary travels inline.
 */
async function openBinary(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: string,
	binary: IBinaryData,
): Promise<{ body: ByteStream | Buffer; size: number }> {
	if (binary.id) {
		const { fileSize } = await ctx.helpers.getBinaryMetadata(binary.id);
		return { body: await ctx.helpers.getBinaryStream(binary.id, READ_CHUNK_BYTES), size: fileSize };
	}
	const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
	return { body: buffer, size: buffer.length };
}

/** Whether a binary property is a file n8n can read: inline base64 `data` or the `id` of a stored file. */
function holdsFile(binary: unknown): binary is IBinaryData {
	if (typeof binary !== 'object' || binary === null) return false;
	const { id, data } = binary as { id?: unknown; data?: unknown };
	return (typeof id === 'string' && id !== '') || typeof data === 'string';
}

/**
 * What the limit checks need of an input binary, without loading it: its size from n8n's metadata
 * and, for MP4 and WAV, its length from the header (duration.ts reads only up to the header it needs).
 */
export async function describeBinary(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: string,
	fieldLabel = 'Input Binary Field',
): Promise<BinaryInput> {
	const binary = ctx.helpers.assertBinaryData(itemIndex, property) as unknown;
	if (!holdsFile(binary)) {
		// n8n's helpers assume a file here and fail with a TypeError about their own arguments
		throw new NodeOperationError(
			ctx.getNode(),
			`${fieldLabel}: the input binary field "${property}" holds no file; allowed: a file in the item's binary data (data or a stored file id), e.g. from Read/Write Files from Disk or HTTP Request`,
			{
				itemIndex,
				description: NOTHING_SPENT,
			},
		);
	}
	const { body, size } = await openBinary(ctx, itemIndex, property, binary);
	// an empty file would be uploaded and a run made (and charged) from nothing
	if (size === 0)
		throw new NodeOperationError(
			ctx.getNode(),
			`${fieldLabel}: the input binary "${property}" is empty (0 bytes); allowed: a file of 1 byte or more`,
			{ itemIndex, description: NOTHING_SPENT },
		);
	const durationSeconds = await mediaDurationSeconds(body as AsyncIterable<Buffer> | Buffer);
	return {
		itemIndex,
		property,
		mimeType: binary.mimeType,
		fileName: binary.fileName,
		size,
		durationSeconds,
		contentHash: await contentHashOf(ctx, itemIndex, property, binary, body),
	};
}

/**
 * The sha256 of an input binary. A stored file is read once more from n8n's binary storage (the
 * header read above may have consumed part of its stream); inline bytes are hashed as they are.
 */
async function contentHashOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: string,
	binary: IBinaryData,
	read: ByteStream | Buffer,
): Promise<string> {
	const hash = createHash('sha256');
	if (Buffer.isBuffer(read)) return hash.update(read).digest('hex');
	read.destroy();
	const { body } = await openBinary(ctx, itemIndex, property, binary);
	for await (const chunk of body as AsyncIterable<Buffer>) hash.update(chunk);
	return hash.digest('hex');
}

/** What `POST /uploads` answers (the Upload resource). */
export interface UploadedAsset {
	asset_id?: string;
	asset_url: string;
	content_type?: string;
	expires_at?: string;
	[key: string]: unknown;
}

/**
 * Uploads an input binary through `POST /uploads` and its pre-signed PUT, and returns the Upload
 * (its `asset_url` goes in generation fields). The PUT goes without our credential (the URL is
 * signed) and streams the file from n8n's binary storage with its `Content-Length` (pre-signed
 * storage URLs refuse chunked bodies); cancelling the execution stops it.
 */
export async function uploadBinaryAsset(
	client: ApiClient,
	ctx: IExecuteFunctions,
	input: BinaryInput,
): Promise<UploadedAsset> {
	const { body } = await apiRequest<{ upload_url?: string; asset_url?: string }>(client, {
		method: 'POST',
		path: '/uploads',
		body: { content_type: input.mimeType, ...(input.fileName ? { filename: input.fileName } : {}) },
		itemIndex: input.itemIndex,
	});
	if (!body.upload_url || !body.asset_url)
		throw unexpectedResponse(
			client,
			'The upload response has no upload_url or asset_url',
			body,
			input.itemIndex,
		);
	const binary = ctx.helpers.assertBinaryData(input.itemIndex, input.property);
	const file = await openBinary(ctx, input.itemIndex, input.property, binary);
	try {
		await ctx.helpers.httpRequest({
			method: 'PUT',
			url: body.upload_url,
			body: file.body,
			headers: { 'Content-Type': input.mimeType, 'Content-Length': String(file.size) },
			json: false,
			// no byte accepted for this long counts as a lost connection (a large file may take minutes)
			timeout: 120_000,
			// following redirects makes the request helper keep every byte sent (to send it again):
			// the whole file would sit in memory; a pre-signed PUT does not redirect
			disableFollowRedirect: true,
			abortSignal: client.signal,
		});
	} finally {
		// a refused or cancelled PUT leaves the file's stream open otherwise
		if (!Buffer.isBuffer(file.body)) file.body.destroy();
	}
	// the signed PUT URL is a write grant: it stays out of the node's output
	const asset = { ...body };
	delete asset.upload_url;
	return asset as UploadedAsset;
}

/** Uploads an input binary and returns the `asset_url` to pass in a generation field. */
export async function uploadBinary(
	client: ApiClient,
	ctx: IExecuteFunctions,
	input: BinaryInput,
): Promise<string> {
	return (await uploadBinaryAsset(client, ctx, input)).asset_url;
}
