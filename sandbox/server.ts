/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the local sandbox service: runs in Node, never shipped (CONTRIBUTING.md, Linting) */
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

import express, { type Request, type Response } from 'express';

import { sandboxHandlers } from './handlers';
import { cliAdminRouter } from './routes/cli-admin';
import { newId } from './ids';
import { receiveBody, sendKept, sendOutput } from './large-files';
import { defaultSandboxOptions, type SandboxOptions } from './options';
import { sendProblem } from './problem';
import { publishedRouter, responseRecorder } from './published';
import { apiRouter } from './router';
import { SandboxServices } from './services';
import { SandboxState, uploadedBytes, type Fault } from './state';

export interface Sandbox {
	state: SandboxState;
	services: SandboxServices;
	/** http://127.0.0.1:<port> */
	origin: string;
	/** origin + /v1: what the credentials' Base URL takes */
	baseUrl: string;
	injectFault(fault: Omit<Fault, 'remaining'> & { count?: number }): void;
	close(): Promise<void>;
}

/** The largest body a pre-signed upload accepts (the API document's largest file limit is 500 MB). */
const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;

/** Signed storage: pre-signed upload PUTs, asset reads, run output files. */
function storageRouter(state: SandboxState, services: SandboxServices): express.Router {
	const router = express.Router();
	const refuse = (req: Request, res: Response, reason: string) =>
		sendProblem(req, res, 403, 'signature_rejected', `The signed URL is ${reason}`);
	// The body is received as it arrives (large ones into a temporary file), never held whole.
	router.put('/uploads/:assetId', async (req, res) => {
		const check = services.urls.check(`/storage${req.path}`, req.query.expires, req.query.sig);
		if (check !== 'ok') return refuse(req, res, check);
		const assetId = String(req.params.assetId);
		const upload = state.uploads.get(assetId);
		if (!upload) return sendProblem(req, res, 404, 'not_found', 'No such upload');
		const contentType = (req.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
		if (contentType !== upload.content_type) {
			return sendProblem(
				req,
				res,
				403,
				'signature_rejected',
				`The upload was signed for ${upload.content_type}, not ${contentType || 'no content type'}`,
			);
		}
		const kept = await receiveBody(
			req,
			() => services.spool.file(`${assetId}-${Date.now()}`),
			MAX_UPLOAD_BYTES,
		);
		if (!kept)
			return sendProblem(
				req,
				res,
				413,
				'payload_too_large',
				`An upload may hold at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`,
			);
		if (upload.spool) rmSync(upload.spool.path, { force: true });
		upload.bytes = kept.bytes;
		upload.spool = kept.path ? { path: kept.path, size: kept.size } : undefined;
		res.status(200).end();
	});
	router.get('/assets/:assetId', (req, res) => {
		const check = services.urls.check(`/storage${req.path}`, req.query.expires, req.query.sig);
		if (check !== 'ok') return refuse(req, res, check);
		const upload = state.uploads.get(String(req.params.assetId));
		const kept = uploadedBytes(upload);
		if (!upload || !kept)
			return sendProblem(req, res, 404, 'not_found', 'Nothing was uploaded to this asset');
		sendKept(res, kept, upload.content_type);
	});
	router.get('/files/:runId/:name', (req, res) => {
		const check = services.urls.check(`/storage${req.path}`, req.query.expires, req.query.sig);
		if (check !== 'ok') return refuse(req, res, check);
		const file = state.runs.get(String(req.params.runId))?.files.get(String(req.params.name));
		if (!file) return sendProblem(req, res, 404, 'not_found', 'No such file');
		sendOutput(res, file);
	});
	return router;
}

/** Sandbox-only helpers for tests and the playground (not part of the API). */
function adminRouter(state: SandboxState): express.Router {
	const router = express.Router();
	router.use(express.json());
	router.get('/state', (_req, res) => {
		const runs = [...state.runs.values()];
		res.json({
			runs: runs.length,
			runs_by_status: runs.reduce<Record<string, number>>(
				(acc, r) => ({ ...acc, [r.run.status]: (acc[r.run.status] ?? 0) + 1 }),
				{},
			),
			charges: state.ledger.length,
			credits_charged: state.ledger.reduce((n, e) => n + e.credits, 0),
			tokens_issued: state.tokensIssued,
			requests: state.requests.length,
		});
	});
	router.get('/ledger', (_req, res) => res.json({ object: 'list', data: state.ledger }));
	router.get('/requests', (_req, res) => res.json({ object: 'list', data: state.requests }));
	router.post('/keys', (req, res) => {
		const scopes = Array.isArray(req.body?.scopes) ? (req.body.scopes as string[]) : [];
		res
			.status(201)
			.json({ api_key: state.createApiKey(scopes, String(req.body?.label ?? 'test key')) });
	});
	router.post('/accounts', (req, res) => {
		const { accountId, apiKey } = state.createAccount(
			String(req.body?.display_name ?? 'Test Studio'),
		);
		res.status(201).json({ account_id: accountId, api_key: apiKey });
	});
	router.delete('/faults', (_req, res) => {
		state.faults.length = 0;
		res.status(204).end();
	});
	router.post('/faults', (req, res) => {
		const { count, ...fault } = req.body as Fault & { count?: number };
		state.faults.push({ ...fault, remaining: count ?? 1 });
		res.status(201).json({ queued: state.faults.length });
	});
	router.patch('/options', (req, res) => {
		Object.assign(state.options, req.body);
		res.json(state.options);
	});
	router.use('/cli', cliAdminRouter(state));
	return router;
}

export function createSandboxApp(state: SandboxState, services: SandboxServices): express.Express {
	const app = express();
	app.disable('x-powered-by');
	app.set('etag', false);
	app.use((req, res, next) => {
		res.locals.requestId = newId('req');
		// 'close' also fires for connections the sandbox dropped on purpose (logged with status 0)
		res.on('close', () => {
			const path = req.originalUrl.split('?')[0];
			const body: unknown =
				path.startsWith('/v1/') && path !== '/v1/oauth/token' ? req.body : undefined;
			state.requests.push({
				method: req.method,
				path,
				status: res.writableFinished ? res.statusCode : 0,
				idempotencyKey: req.get('idempotency-key'),
				body,
				at: Date.now(),
			});
		});
		next();
	});
	app.use(responseRecorder(state));
	app.use(publishedRouter(state));
	app.use('/storage', storageRouter(state, services));
	app.use('/_sandbox', adminRouter(state));
	// JSON only: the API document's bodies are JSON (a form-encoded body reaches handlers unparsed)
	app.use('/v1', express.json({ limit: '10mb', type: ['application/json', 'application/*+json'] }));
	app.use('/v1', apiRouter(state, services, sandboxHandlers(services)));
	app.use((req, res) =>
		sendProblem(req, res, 404, 'not_found', `No route ${req.method} ${req.path}`),
	);
	return app;
}

/** Starts a sandbox on 127.0.0.1 (port 0 = an ephemeral port). */
export async function startSandbox(
	options: Partial<SandboxOptions> & { port?: number; host?: string } = {},
): Promise<Sandbox> {
	const { port = 0, host = '127.0.0.1', ...rest } = options;
	const state = new SandboxState({ ...defaultSandboxOptions, ...rest });
	const services = new SandboxServices(state);
	const app = createSandboxApp(state, services);
	const server: Server = await new Promise((resolve, reject) => {
		const s = app.listen(port, host, () => resolve(s));
		s.once('error', reject);
	});
	server.keepAliveTimeout = 5000;
	const origin = `http://${host}:${(server.address() as AddressInfo).port}`;
	services.origin = origin;
	return {
		state,
		services,
		origin,
		baseUrl: `${origin}/v1`,
		injectFault: ({ count, ...fault }) => state.faults.push({ ...fault, remaining: count ?? 1 }),
		close: async () => {
			services.runs.stop();
			services.webhooks.stop();
			state.events.removeAllListeners();
			server.closeAllConnections();
			services.spool.remove();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
