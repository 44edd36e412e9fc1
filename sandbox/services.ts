/* eslint-disable @n8n/community-nodes/require-node-api-error -- the local sandbox service: runs in Node, never shipped (CONTRIBUTING.md, Linting) */
import { ProblemError, type RouteContext } from './http';
import { QuoteSigner } from './quotes';
import { RunEngine } from './runs';
import { bufferSource, keptSource, SpoolFolder, type ByteSource } from './large-files';
import { uploadedBytes, type SandboxState } from './state';
import { UrlSigner } from './storage';
import { WebhookEngine } from './webhooks';

/** The sandbox's shared machinery that route handlers use. */
export class SandboxServices {
	readonly urls = new UrlSigner();
	/** where large uploads are kept while the sandbox runs */
	readonly spool = new SpoolFolder();
	readonly quotes: QuoteSigner;
	readonly runs: RunEngine;
	readonly webhooks: WebhookEngine;
	origin = 'http://127.0.0.1';

	constructor(readonly state: SandboxState) {
		this.quotes = new QuoteSigner(() => state.options.quoteTtlSeconds);
		this.runs = new RunEngine(state, this.urls, () => this.origin);
		this.webhooks = new WebhookEngine(state);
	}

	/** The bytes behind one of the sandbox's own asset URLs (the service measures what it stores). */
	storedBytes(origin: string, url: unknown): ByteSource | undefined {
		if (typeof url !== 'string') return undefined;
		try {
			const parsed = new URL(url);
			if (parsed.origin !== origin || !parsed.pathname.startsWith('/storage/assets/'))
				return undefined;
			const kept = uploadedBytes(this.state.uploads.get(parsed.pathname.split('/').pop() ?? ''));
			return kept && keptSource(kept);
		} catch {
			return undefined;
		}
	}

	/**
	 * The bytes behind an input URL that the sandbox itself holds: an uploaded asset, or a file an
	 * earlier run produced (a workflow passing one node's output URL to the next). Used to shape
	 * outputs like their inputs; limit checks read uploads only (storedBytes).
	 */
	heldBytes(origin: string, url: unknown): ByteSource | undefined {
		const asset = this.storedBytes(origin, url);
		if (asset || typeof url !== 'string') return asset;
		try {
			const parsed = new URL(url);
			const [, runId, name] = /^\/storage\/files\/([^/]+)\/([^/]+)$/.exec(parsed.pathname) ?? [];
			if (parsed.origin !== origin || !runId) return undefined;
			const file = this.state.runs.get(runId)?.files.get(decodeURIComponent(name));
			return file && bufferSource(file.bytes);
		} catch {
			return undefined;
		}
	}

	/**
	 * A media URL the service would fetch: sandbox assets must be uploaded and unexpired; other
	 * hosts cannot be reached from here and are accepted as they are.
	 */
	assertFetchable(ctx: RouteContext, url: string, param: string): void {
		let parsed: URL;
		try {
			parsed = new URL(url);
		} catch {
			throw new ProblemError(400, 'invalid_parameter', `${param} is not a URL`, { param });
		}
		if (parsed.origin !== ctx.origin || !parsed.pathname.startsWith('/storage/')) return;
		const check = this.urls.check(
			parsed.pathname,
			parsed.searchParams.get('expires'),
			parsed.searchParams.get('sig'),
		);
		if (check !== 'ok')
			throw new ProblemError(400, 'invalid_parameter', `${param}: the asset URL is ${check}`, {
				param,
			});
		const assetId = parsed.pathname.split('/').pop() ?? '';
		if (parsed.pathname.startsWith('/storage/assets/')) {
			const upload = this.state.uploads.get(assetId);
			if (!uploadedBytes(upload))
				throw new ProblemError(
					400,
					'invalid_parameter',
					`${param}: nothing was uploaded to asset ${assetId}`,
					{ param },
				);
		}
	}
}
