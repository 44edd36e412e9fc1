import {
	NodeApiError,
	NodeOperationError,
	type IBinaryData,
	type IBinaryKeyData,
	type IExecuteFunctions,
	type IPollFunctions,
	type IWebhookFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { egressRefusalOf } from '../transport/egress-refusal';
import { redactUrl } from '../transport/redact';
import { downloadRefusal, isInternalHost } from './download-address';
import {
	baseMimeType,
	extensionFor,
	fileNameFromUrl,
	mimeTypeForExtension,
	sniffMimeType,
} from './mime';
import { peekHead, watchBytes, type ByteStream } from './stream-watch';

type DownloadContext = IExecuteFunctions | IWebhookFunctions | IPollFunctions;

/** A file a completed run produced. */
export interface OutputFile {
	url: string;
	/** e.g. "glb" for a 3D format, from the output key */
	format?: string;
}

/** How one output file may be downloaded. */
export interface DownloadLimits {
	/** the run (or batch item) the file belongs to: every error names it */
	runId: string;
	/** largest file accepted, in bytes (Max Output Size) */
	maxBytes: number;
	/** the execution's cancel signal: a cancelled execution stops the download */
	signal?: AbortSignal;
}

export const BYTES_PER_MB = 1024 * 1024;
/** Max Output Size when the node has no such option (the trigger) or it is not set. */
export const DEFAULT_MAX_OUTPUT_MB = 2048;
/** The highest Max Output Size accepted (1 TB): any number a user means fits. */
export const MAX_OUTPUT_MB = 1024 * 1024;
/** A JSON document at an output address (a workflow's fields) is read into memory: it is small. */
const MAX_JSON_BYTES = 16 * BYTES_PER_MB;
const MAX_REDIRECTS = 5;
/** Enough of a file's start to tell its media type (mime.ts reads at most 12 bytes). */
const SNIFF_BYTES = 16;

function downloadError(
	ctx: DownloadContext,
	code: string,
	message: string,
	url: string,
	runId: string,
	description?: string,
): NodeApiError {
	const problem = { code, title: message, detail: `address: ${redactUrl(url)}`, run_id: runId };
	const error = new NodeApiError(ctx.getNode(), problem as JsonObject, {
		message: `${code} — ${message}`,
		description: [description, problem.detail].filter(Boolean).join(' · '),
	});
	error.message = `${code} — ${message}`;
	error.context.problem = problem as JsonObject;
	return error;
}

const megabytes = (bytes: number) => `${Math.round((bytes / BYTES_PER_MB) * 10) / 10} MB`;

function tooLarge(
	ctx: DownloadContext,
	limits: DownloadLimits,
	url: string,
	size?: number,
): NodeApiError {
	const limitMb = megabytes(limits.maxBytes);
	return downloadError(
		ctx,
		'output_too_large',
		size === undefined
			? `An output file of run ${limits.runId} grew past Max Output Size (${limitMb}) while downloading; nothing was kept`
			: `An output file of run ${limits.runId} is ${megabytes(size)}, more than Max Output Size (${limitMb}); it was not downloaded`,
		url,
		limits.runId,
		'The run completed (and is charged). Raise Options → Max Output Size, or turn on Return URLs Only and fetch the file elsewhere.',
	);
}

function cancelled(ctx: DownloadContext, limits: DownloadLimits, url: string): NodeApiError {
	return downloadError(
		ctx,
		'cancelled',
		`Downloading an output file of run ${limits.runId} stopped: the execution was cancelled`,
		url,
		limits.runId,
	);
}

/** An output file's answer, open as a stream; `close` ends its connection (a no-op once all was read). */
interface OpenedOutput {
	url: string;
	body: ByteStream;
	headers: Record<string, string>;
	close: () => void;
}

/**
 * An output address opened as a stream, following redirects by hand so each address is checked.
 * Output URLs are signed: no credential goes with them. Each hop has its own abort controller:
 * destroying the stream n8n's request helper returns does not close the connection when nothing
 * was read yet, aborting the request does (and the execution's cancel signal aborts it too).
 */
async function openOutput(
	ctx: DownloadContext,
	address: string,
	baseUrl: string,
	limits: DownloadLimits,
): Promise<OpenedOutput> {
	let url = address;
	for (let hop = 0; ; hop++) {
		const refusal =
			downloadRefusal(url, baseUrl) ?? (await resolvedAddressRefusal(ctx, url, baseUrl));
		if (refusal)
			throw downloadError(
				ctx,
				'download_refused',
				`The node does not download this output file of run ${limits.runId}: ${refusal}`,
				url,
				limits.runId,
			);
		const connection = new AbortController();
		const abort = () => connection.abort();
		limits.signal?.addEventListener('abort', abort, { once: true });
		const close = () => {
			limits.signal?.removeEventListener('abort', abort);
			connection.abort();
		};
		let response: { body: ByteStream; headers: Record<string, string>; statusCode: number };
		try {
			if (limits.signal?.aborted) throw new Error('cancelled');
			response = (await ctx.helpers.httpRequest({
				method: 'GET',
				url,
				encoding: 'stream',
				returnFullResponse: true,
				json: false,
				// no byte for this long counts as a lost connection (a slow but steady download goes on)
				timeout: 300_000,
				disableFollowRedirect: true,
				ignoreHttpStatusErrors: true,
				abortSignal: connection.signal,
			})) as typeof response;
		} catch (error) {
			close();
			if (limits.signal?.aborted) throw cancelled(ctx, limits, url);
			const refused = egressRefusalOf(error);
			if (refused) {
				throw downloadError(
					ctx,
					'download_refused',
					`n8n's SSRF protection refused an output file of run ${limits.runId}: ${refused.message}`,
					url,
					limits.runId,
					refused.description,
				);
			}
			const code = (error as { code?: unknown }).code;
			throw downloadError(
				ctx,
				'download_failed',
				`Could not download an output file of run ${limits.runId} (${typeof code === 'string' ? code : 'no answer'})`,
				url,
				limits.runId,
			);
		}
		const { statusCode, headers, body } = response;
		// an aborted connection errors the stream: that must not throw out of the process
		body.on('error', () => undefined);
		if (statusCode >= 300 && statusCode < 400 && headers.location) {
			close();
			if (hop >= MAX_REDIRECTS)
				throw downloadError(
					ctx,
					'download_failed',
					`More than ${MAX_REDIRECTS} redirects while downloading an output file of run ${limits.runId}`,
					url,
					limits.runId,
				);
			url = new URL(headers.location, url).href;
			continue;
		}
		if (statusCode < 200 || statusCode >= 300) {
			close();
			throw downloadError(
				ctx,
				'download_failed',
				`HTTP ${statusCode} while downloading an output file of run ${limits.runId}`,
				url,
				limits.runId,
			);
		}
		return { url, body, headers, close };
	}
}

/** Whether the URL's host is written as an IP address (the address table judges those without DNS). */
const isIpLiteral = (hostname: string) =>
	hostname.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(hostname);

/** What n8n's egress filter (n8n 2.41.1 has one) says of a URL: refused, allowed, or nothing (no filter, no answer, DNS failed). */
async function egressVerdict(
	ctx: DownloadContext,
	url: string,
): Promise<'refused' | 'allowed' | undefined> {
	const helpers = ctx.helpers as Partial<Pick<DownloadContext['helpers'], 'getSecureEgressFilter'>>;
	if (typeof helpers.getSecureEgressFilter !== 'function') return undefined;
	try {
		const result = (await helpers.getSecureEgressFilter('enforced').validateUrl(url)) as {
			ok?: boolean;
		};
		return result.ok === false ? 'refused' : 'allowed';
	} catch {
		// an unresolvable name is not refused here: the download fails on its own, with its reason
		return undefined;
	}
}

/**
 * Host names are resolved with n8n's egress filter (its SSRF rules: N8N_SSRF_BLOCKED_IP_RANGES and
 * the allow lists, applied here whether or not the instance turned N8N_SSRF_PROTECTION_ENABLED on):
 * a name that resolves to a loopback, private or link-local address is refused like an IP literal
 * of one, unless the Base URL's host resolves to one too (a service on a private network). A check
 * before the connection, not at it: only n8n's own protection, turned on, also stops a name whose
 * answer changes in between (DNS rebinding). n8n versions without the filter: no check here.
 */
async function resolvedAddressRefusal(
	ctx: DownloadContext,
	url: string,
	baseUrl: string,
): Promise<string | undefined> {
	const target = new URL(url);
	const base = new URL(baseUrl);
	if (isIpLiteral(target.hostname) || isInternalHost(base.hostname)) return undefined;
	if ((await egressVerdict(ctx, url)) !== 'refused') return undefined;
	if (!isIpLiteral(base.hostname) && (await egressVerdict(ctx, baseUrl)) === 'refused')
		return undefined;
	return `its host name resolves to an address n8n's SSRF rules block (loopback, private, link-local, …), and the Base URL's does not (set N8N_SSRF_ALLOWED_HOSTNAMES to allow it)`;
}

/** The media type the first bytes show, else the server's, else the extension's. */
function mediaTypeOf(
	head: Buffer,
	contentType: string | undefined,
	file: OutputFile,
	urlExtension: string | undefined,
): string {
	const mimeType = sniffMimeType(head) ?? baseMimeType(contentType);
	if (mimeType && mimeType !== 'application/octet-stream') return mimeType;
	return (
		(file.format && mimeTypeForExtension(file.format)) ||
		(urlExtension && mimeTypeForExtension(urlExtension)) ||
		mimeType ||
		'application/octet-stream'
	);
}

/**
 * Downloads a run's output file into n8n binary data as a stream: n8n writes it to its binary
 * storage (on disk by default) as it arrives, so no file is ever held in memory. The first bytes
 * are read ahead for the media type, the size is checked against `Content-Length` and again while
 * the bytes flow, and the execution's cancel signal stops the download.
 */
export async function downloadOutput(
	ctx: DownloadContext,
	file: OutputFile,
	fallbackName: string,
	baseUrl: string,
	limits: DownloadLimits,
): Promise<IBinaryData> {
	const { url, body, headers, close } = await openOutput(ctx, file.url, baseUrl, limits);
	const failure: { reason?: 'too_large' | 'broken' } = {};
	body.on('error', () => (failure.reason ??= 'broken'));
	try {
		const declared = Number(headers['content-length']);
		if (Number.isFinite(declared) && declared > limits.maxBytes)
			throw tooLarge(ctx, limits, url, declared);
		const { head, ended } = await peekHead(body, SNIFF_BYTES);
		if (head.length > limits.maxBytes) throw tooLarge(ctx, limits, url);
		if (!ended) watchBytes(body, limits.maxBytes, () => (failure.reason = 'too_large'));
		const urlName = fileNameFromUrl(url) ?? fileNameFromUrl(file.url);
		const urlExtension = urlName?.split('.').pop();
		const mimeType = mediaTypeOf(
			head.subarray(0, SNIFF_BYTES),
			headers['content-type'],
			file,
			urlExtension,
		);
		const extension = file.format ?? urlExtension ?? extensionFor(mimeType) ?? 'bin';
		return await ctx.helpers.prepareBinaryData(
			ended ? head : body,
			urlName ?? `${fallbackName}.${extension}`,
			mimeType,
		);
	} catch (error) {
		throw storingFailure(ctx, error, failure.reason, limits, url);
	} finally {
		close();
	}
}

/**
 * Every output file of a run (or batch item) as the item's binaries, one after another: the first
 * under `field`, the next under `field_1`, `field_2`, … (the order of `output_urls`).
 */
export async function downloadOutputs(
	ctx: DownloadContext,
	files: OutputFile[],
	field: string,
	baseUrl: string,
	limits: DownloadLimits,
): Promise<IBinaryKeyData> {
	const binary: IBinaryKeyData = {};
	for (const [index, file] of files.entries()) {
		binary[index === 0 ? field : `${field}_${index}`] = await downloadOutput(
			ctx,
			file,
			`${limits.runId}${index ? `_${index}` : ''}`,
			baseUrl,
			limits,
		);
	}
	return binary;
}

/** Why storing a download failed, as the item's error. */
function storingFailure(
	ctx: DownloadContext,
	error: unknown,
	reason: 'too_large' | 'broken' | undefined,
	limits: DownloadLimits,
	url: string,
): Error {
	if (error instanceof NodeApiError && error.context.problem) return error;
	if (reason === 'too_large') return tooLarge(ctx, limits, url);
	if (limits.signal?.aborted) return cancelled(ctx, limits, url);
	if (reason === 'broken')
		return downloadError(
			ctx,
			'download_failed',
			`The connection broke while downloading an output file of run ${limits.runId}`,
			url,
			limits.runId,
		);
	return new NodeOperationError(ctx.getNode(), error as Error, {
		description: `n8n could not store an output file of run ${limits.runId}`,
	});
}

/** A JSON document at an output address (e.g. a workflow's fields at output_url); undefined when it is not JSON. */
export async function downloadJson(
	ctx: DownloadContext,
	address: string,
	baseUrl: string,
	limits: Omit<DownloadLimits, 'maxBytes'>,
): Promise<unknown> {
	const jsonLimits = { ...limits, maxBytes: MAX_JSON_BYTES };
	const { url, body, close } = await openOutput(ctx, address, baseUrl, jsonLimits);
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of body as AsyncIterable<Buffer>) {
			size += chunk.length;
			if (size > MAX_JSON_BYTES) break;
			chunks.push(chunk);
		}
	} catch {
		if (limits.signal?.aborted) throw cancelled(ctx, jsonLimits, url);
		throw downloadError(
			ctx,
			'download_failed',
			`The connection broke while downloading the output document of run ${limits.runId}`,
			url,
			limits.runId,
		);
	} finally {
		close();
	}
	if (size > MAX_JSON_BYTES)
		throw downloadError(
			ctx,
			'output_too_large',
			`The output document of run ${limits.runId} is larger than ${megabytes(MAX_JSON_BYTES)}`,
			url,
			limits.runId,
		);
	try {
		return JSON.parse(Buffer.concat(chunks).toString('utf8'));
	} catch {
		return undefined;
	}
}
