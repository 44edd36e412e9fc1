import express, { type Request, type Response } from 'express';

import { ENDPOINT_TABLE, type TableEndpoint } from './endpoint-table';
import { openApiDocument } from './openapi';
import { sendProblem } from './problem';
import { producerStore } from './routes/library-store';
import type { SandboxState } from './state';

/**
 * Routes outside the endpoint table: the published contract (GET /v1/openapi.json) and the public pages
 * of games (play_url) and apps (live_url).
 */
export function publishedRouter(state: SandboxState): express.Router {
	const router = express.Router();
	router.get('/v1/openapi.json', (req, res) => {
		res.json(openApiDocument(`${req.protocol}://${req.get('host')}/v1`));
	});
	// a game's play_url serves its deployed version while it is published; ?version=N previews any finished build
	router.get('/play/:gameId', (req, res) => {
		const game = producerStore(state).games.get(String(req.params.gameId));
		const preview = req.query.version === undefined ? undefined : Number(req.query.version);
		if (!game) return sendProblem(req, res, 404, 'not_found', 'No such game');
		const version =
			preview ?? (game.data.published ? Number(game.data.deployed_version) : undefined);
		const build =
			version === undefined ? undefined : game.builds.find((b) => b.version === version);
		if (!build)
			return sendProblem(
				req,
				res,
				404,
				'not_found',
				preview === undefined ? 'This game is not published' : `No version ${preview}`,
			);
		res.type('html').send(build.html);
	});
	router.get('/live/:appId', (req, res) => {
		const app = producerStore(state).apps.get(String(req.params.appId));
		const build = app?.builds[app.builds.length - 1];
		if (!build)
			return sendProblem(req, res, 404, 'not_found', 'No such app, or it has no finished build');
		res.type('html').send(build.html);
	});
	return router;
}

/** One answer of the API as the sandbox sent it. */
export interface RecordedResponse {
	method: string;
	/** the table's path (template), e.g. /runs/{runId} */
	path: string;
	status: number;
	contentType: string;
	body: unknown;
}

const MAX_RECORDED = 5000;
const recorded = new WeakMap<SandboxState, RecordedResponse[]>();

const matchers = [...ENDPOINT_TABLE]
	.sort((a, b) => a.path.split('{').length - b.path.split('{').length)
	.map((e: TableEndpoint) => ({
		endpoint: e,
		pattern: new RegExp(`^/v1${e.path.replace(/\{\w+\}/g, '[^/]+')}$`),
	}));

/** The table endpoint a request reached (literal paths win over templated ones, as in the router). */
export function endpointOfRequest(method: string, path: string): TableEndpoint | undefined {
	return matchers.find((m) => m.endpoint.method === method && m.pattern.test(path))?.endpoint;
}

/** Responses of API routes since the sandbox started (or since the last `takeRecordedResponses`). */
export function takeRecordedResponses(state: SandboxState): RecordedResponse[] {
	const list = recorded.get(state) ?? [];
	recorded.set(state, []);
	return list;
}

/** Middleware that records every answer of an API route, for the contract test. */
export function responseRecorder(state: SandboxState): express.RequestHandler {
	return (req: Request, res: Response, next) => {
		const endpoint = req.path.startsWith('/v1/')
			? endpointOfRequest(req.method, req.path)
			: undefined;
		if (!endpoint) return next();
		let sent: unknown;
		const send = res.send.bind(res);
		res.send = (body?: unknown) => {
			sent ??= body;
			return send(body);
		};
		res.on('finish', () => {
			if (res.locals.offContract) return;
			const contentType = String(res.get('content-type') ?? '');
			let body: unknown = sent;
			if (/json/.test(contentType) && (typeof sent === 'string' || Buffer.isBuffer(sent))) {
				try {
					body = JSON.parse(sent.toString());
				} catch {
					body = sent.toString();
				}
			}
			const list = recorded.get(state) ?? [];
			list.push({
				method: req.method,
				path: endpoint.path,
				status: res.statusCode,
				contentType,
				body,
			});
			if (list.length > MAX_RECORDED) list.shift();
			recorded.set(state, list);
		});
		next();
	};
}
