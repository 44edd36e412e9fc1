import type { Request, Response } from 'express';

import { newId } from './ids';

const TITLES: Record<number, string> = {
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	409: 'Conflict',
	410: 'Gone',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	501: 'Not Implemented',
	503: 'Service Unavailable',
};

/** Sends an RFC 9457 problem document with the service's fields (type, title, status, detail, code, request_id). */
export function sendProblem(
	req: Request,
	res: Response,
	status: number,
	code: string,
	detail: string,
	extra: Record<string, unknown> = {},
): void {
	const origin = `${req.protocol}://${req.get('host')}`;
	res
		.status(status)
		.type('application/problem+json')
		.send(
			JSON.stringify({
				type: `${origin}/errors/${code}`,
				title: TITLES[status] ?? 'Error',
				status,
				detail,
				code,
				request_id: (res.locals.requestId as string | undefined) ?? newId('req'),
				...extra,
			}),
		);
}
