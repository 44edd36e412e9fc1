import { NodeApiError, type IBinaryData, type IExecuteFunctions, type IWebhookFunctions, type JsonObject } from 'n8n-workflow';

import { redactUrl } from '../transport/redact';
import { downloadRefusal } from './download-address';
import { baseMimeType, extensionFor, fileNameFromUrl, mimeTypeForExtension, sniffMimeType } from './mime';

/** A file a completed run produced. */
export interface OutputFile {
	url: string;
	/** e.g. "glb" for a 3D format, from the output key */
	format?: string;
}

const MAX_REDIRECTS = 5;

function downloadError(ctx: IExecuteFunctions | IWebhookFunctions, code: string, message: string, url: string): NodeApiError {
	const problem = { code, title: message, detail: `address: ${redactUrl(url)}` };
	const error = new NodeApiError(ctx.getNode(), problem as JsonObject, { message: `${code} — ${message}`, description: problem.detail });
	error.message = `${code} — ${message}`;
	error.context.problem = problem as JsonObject;
	return error;
}

/** The bytes at an output address, following redirects by hand so each address is checked. */
async function fetchOutput(ctx: IExecuteFunctions | IWebhookFunctions, address: string, baseUrl: string): Promise<{ url: string; body: Buffer; headers: Record<string, string> }> {
	let url = address;
	for (let hop = 0; ; hop++) {
		const refusal = downloadRefusal(url, baseUrl);
		if (refusal) throw downloadError(ctx, 'download_refused', `The node does not download this output file: ${refusal}`, url);
		const response = (await ctx.helpers.httpRequest({
			method: 'GET',
			url,
			encoding: 'arraybuffer',
			returnFullResponse: true,
			json: false,
			timeout: 300_000,
			disableFollowRedirect: true,
			ignoreHttpStatusErrors: true,
		})) as { body: ArrayBuffer | Buffer; headers: Record<string, string>; statusCode: number };
		const location = response.headers.location;
		if (response.statusCode >= 300 && response.statusCode < 400 && location) {
			if (hop >= MAX_REDIRECTS) throw downloadError(ctx, 'download_failed', `More than ${MAX_REDIRECTS} redirects while downloading an output file`, url);
			url = new URL(location, url).href;
			continue;
		}
		if (response.statusCode < 200 || response.statusCode >= 300) {
			throw downloadError(ctx, 'download_failed', `HTTP ${response.statusCode} while downloading an output file`, url);
		}
		return { url, body: Buffer.isBuffer(response.body) ? response.body : Buffer.from(response.body), headers: response.headers };
	}
}

/**
 * Downloads a run's output file into n8n binary data. Output URLs are signed: no credential goes
 * with them, redirects are followed by hand so each address is checked (see download-address.ts),
 * and the MIME type is the one the bytes show, else the server's, else the extension's.
 */
export async function downloadOutput(ctx: IExecuteFunctions | IWebhookFunctions, file: OutputFile, fallbackName: string, baseUrl: string): Promise<IBinaryData> {
	const { url, body, headers } = await fetchOutput(ctx, file.url, baseUrl);
	const urlName = fileNameFromUrl(url) ?? fileNameFromUrl(file.url);
	const urlExtension = urlName?.split('.').pop();
	let mimeType = sniffMimeType(body.subarray(0, 16)) ?? baseMimeType(headers['content-type']);
	if (!mimeType || mimeType === 'application/octet-stream') {
		mimeType = (file.format && mimeTypeForExtension(file.format)) || (urlExtension && mimeTypeForExtension(urlExtension)) || mimeType || 'application/octet-stream';
	}
	const extension = file.format ?? urlExtension ?? extensionFor(mimeType) ?? 'bin';
	return await ctx.helpers.prepareBinaryData(body, urlName ?? `${fallbackName}.${extension}`, mimeType);
}

/** A JSON document at an output address (e.g. a workflow's fields at output_url); undefined when it is not JSON. */
export async function downloadJson(ctx: IExecuteFunctions | IWebhookFunctions, address: string, baseUrl: string): Promise<unknown> {
	const { body } = await fetchOutput(ctx, address, baseUrl);
	try {
		return JSON.parse(body.toString('utf8'));
	} catch {
		return undefined;
	}
}
