import type { IBinaryData, IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

import type { OutputFile } from '../runs/run';
import { baseMimeType, extensionFor, fileNameFromUrl, mimeTypeForExtension } from './mime';

/**
 * Downloads a run's output file into n8n binary data with the MIME type the server sent (or the
 * one its extension implies). Output URLs are signed: no credential goes with them.
 */
export async function downloadOutput(ctx: IExecuteFunctions | IWebhookFunctions, file: OutputFile, fallbackName: string): Promise<IBinaryData> {
	const response = (await ctx.helpers.httpRequest({
		method: 'GET',
		url: file.url,
		encoding: 'arraybuffer',
		returnFullResponse: true,
		json: false,
		timeout: 300_000,
	})) as { body: ArrayBuffer | Buffer; headers: Record<string, string> };
	const urlName = fileNameFromUrl(file.url);
	const urlExtension = urlName?.split('.').pop();
	let mimeType = baseMimeType(response.headers['content-type']);
	if (!mimeType || mimeType === 'application/octet-stream') {
		mimeType = (file.format && mimeTypeForExtension(file.format)) || (urlExtension && mimeTypeForExtension(urlExtension)) || mimeType || 'application/octet-stream';
	}
	const extension = file.format ?? urlExtension ?? extensionFor(mimeType) ?? 'bin';
	const fileName = urlName ?? `${fallbackName}.${extension}`;
	const buffer = Buffer.isBuffer(response.body) ? response.body : Buffer.from(response.body);
	return await ctx.helpers.prepareBinaryData(buffer, fileName, mimeType);
}
