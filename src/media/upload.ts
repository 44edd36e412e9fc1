import { createHash } from 'node:crypto';

import type { IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, unexpectedResponse, type ApiClient } from '../transport/request';
import { mediaDurationSeconds } from './duration';

/** A binary property of an input item, about to be uploaded. */
export interface BinaryInput {
	itemIndex: number;
	property: string;
	mimeType: string;
	fileName?: string;
	/** sha256 of the bytes: stands for the upload in idempotency keys (the asset URL differs each time) */
	sha256: string;
	/** bytes, and seconds where the header tells (MP4, WAV): checked against the model's file limits */
	size?: number;
	durationSeconds?: number;
}

export async function describeBinary(ctx: IExecuteFunctions, itemIndex: number, property: string): Promise<BinaryInput> {
	const binary = ctx.helpers.assertBinaryData(itemIndex, property);
	const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
	return {
		itemIndex,
		property,
		mimeType: binary.mimeType,
		fileName: binary.fileName,
		sha256: createHash('sha256').update(buffer).digest('hex'),
		size: buffer.length,
		durationSeconds: mediaDurationSeconds(buffer),
	};
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
 * (its `asset_url` goes in generation fields). The PUT goes without our credential: the URL is signed.
 */
export async function uploadBinaryAsset(client: ApiClient, ctx: IExecuteFunctions, input: BinaryInput): Promise<UploadedAsset> {
	const { body } = await apiRequest<{ upload_url?: string; asset_url?: string }>(client, {
		method: 'POST',
		path: '/uploads',
		body: { content_type: input.mimeType, ...(input.fileName ? { filename: input.fileName } : {}) },
		itemIndex: input.itemIndex,
	});
	if (!body.upload_url || !body.asset_url) throw unexpectedResponse(client, 'The upload response has no upload_url or asset_url', body, input.itemIndex);
	const bytes = await ctx.helpers.getBinaryDataBuffer(input.itemIndex, input.property);
	await ctx.helpers.httpRequest({
		method: 'PUT',
		url: body.upload_url,
		body: bytes,
		headers: { 'Content-Type': input.mimeType },
		json: false,
		timeout: 120_000,
	});
	// the signed PUT URL is a write grant: it stays out of the node's output
	const asset = { ...body };
	delete asset.upload_url;
	return asset as UploadedAsset;
}

/** Uploads an input binary and returns the `asset_url` to pass in a generation field. */
export async function uploadBinary(client: ApiClient, ctx: IExecuteFunctions, input: BinaryInput): Promise<string> {
	return (await uploadBinaryAsset(client, ctx, input)).asset_url;
}
