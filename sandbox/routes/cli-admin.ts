/* eslint-disable @n8n/community-nodes/require-node-api-error -- the local sandbox service: runs in Node, never shipped (CONTRIBUTING.md, Linting) */
import express from 'express';

import { ProblemError } from '../http';
import { sendProblem } from '../problem';
import type { SandboxState } from '../state';
import { consentPage, decideCliSession } from './cli-auth';

/**
 * Sandbox-only stand-in for the browser step of the CLI sign-in, under /_sandbox/cli:
 * GET verify/{id} (the consent page at verification_url), POST sessions/{id}/approve | deny.
 */
export function cliAdminRouter(state: SandboxState): express.Router {
	const router = express.Router();
	const guard =
		(fn: (req: express.Request, res: express.Response) => void) =>
		(req: express.Request, res: express.Response) => {
			try {
				fn(req, res);
			} catch (error) {
				if (error instanceof ProblemError)
					sendProblem(req, res, error.status, error.code, error.message, error.extra);
				else throw error;
			}
		};
	router.get(
		'/verify/:id',
		guard((req, res) => void res.type('html').send(consentPage(state, String(req.params.id)))),
	);
	for (const decision of ['approve', 'deny'] as const) {
		router.post(
			`/sessions/:id/${decision}`,
			guard((req, res) => void res.json(decideCliSession(state, String(req.params.id), decision))),
		);
	}
	return router;
}
