/* eslint-disable @n8n/community-nodes/require-node-api-error -- the local sandbox service: runs in Node, never shipped (CONTRIBUTING.md, Linting) */
import { newId, nowIso } from '../ids';
import {
	bodyOf,
	listReply,
	principalOf,
	ProblemError,
	type RouteContext,
	type RouteHandler,
} from '../http';
import { ownedBy, producerStore, type Json } from './library-store';
import { stamp } from './producer-runs';

const CRON_FIELD = /^(\*|\d+(-\d+)?)(\/\d+)?(,(\*|\d+(-\d+)?)(\/\d+)?)*$/;

function checkSchedule(value: unknown): string {
	const schedule = String(value ?? '').trim();
	const fields = schedule.split(/\s+/);
	if (fields.length !== 5 || !fields.every((f) => CRON_FIELD.test(f))) {
		throw new ProblemError(
			400,
			'invalid_parameter',
			`schedule must be a five-field cron expression such as "0 9 * * 1", not "${schedule}"`,
			{ param: 'schedule' },
		);
	}
	return schedule;
}

function checkDestination(ctx: RouteContext, value: unknown): string | null {
	if (value === undefined || value === null || value === '') return null;
	const destination = String(value);
	if (destination.startsWith('proj_')) {
		const project = ctx.state.projects.get(destination);
		if (!project || project.accountId !== principalOf(ctx).accountId)
			throw new ProblemError(404, 'not_found', `No project ${destination}`, {
				param: 'destination',
			});
		return destination;
	}
	let url: URL;
	try {
		url = new URL(destination);
	} catch {
		throw new ProblemError(
			400,
			'invalid_parameter',
			'destination must be an http(s) URL or a project ID (proj_…)',
			{ param: 'destination' },
		);
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		throw new ProblemError(
			400,
			'invalid_parameter',
			'destination must be an http(s) URL or a project ID (proj_…)',
			{ param: 'destination' },
		);
	}
	return destination;
}

/** A rough next run time: the next full hour (the sandbox never runs tasks by itself). */
function nextRunAt(status: unknown): string | null {
	if (status !== 'active') return null;
	const next = new Date();
	next.setUTCMinutes(0, 0, 0);
	next.setUTCHours(next.getUTCHours() + 1);
	return next.toISOString();
}

function ownTask(ctx: RouteContext): Json {
	const id = String(ctx.req.params.id);
	const task = producerStore(ctx.state).tasks.get(id);
	if (!task || task.accountId !== principalOf(ctx).accountId)
		throw new ProblemError(404, 'not_found', `No task ${id}`);
	return task.data;
}

function requireText(body: Json, key: string): string {
	if (typeof body[key] !== 'string' || !String(body[key]).trim()) {
		throw new ProblemError(
			400,
			key === 'prompt' ? 'invalid_prompt' : 'invalid_parameter',
			`${key} is required`,
			{ param: key },
		);
	}
	return String(body[key]).trim();
}

/** Handlers of the scheduled-task routes. */
export function taskHandlers(): Record<string, RouteHandler> {
	return {
		'GET /tasks': (ctx) => {
			const status = ctx.req.query.status;
			const tasks = ownedBy(producerStore(ctx.state).tasks, principalOf(ctx).accountId).filter(
				(t) => !status || t.status === status,
			);
			return listReply(ctx.req, tasks);
		},
		'POST /tasks': (ctx) => {
			const body = bodyOf(ctx);
			const at = nowIso();
			const task: Json = {
				id: newId('task'),
				object: 'scheduled_task',
				name: requireText(body, 'name'),
				prompt: requireText(body, 'prompt'),
				schedule: checkSchedule(body.schedule),
				destination: checkDestination(ctx, body.destination),
				status: 'active',
				next_run_at: nextRunAt('active'),
				last_run_at: null,
				created_at: at,
				updated_at: at,
			};
			producerStore(ctx.state).tasks.set(String(task.id), {
				accountId: principalOf(ctx).accountId,
				data: task,
			});
			return { status: 201, body: task };
		},
		'PATCH /tasks/{id}': (ctx) => {
			const task = ownTask(ctx);
			const body = bodyOf(ctx);
			const changes: Json = {};
			if (body.status !== undefined) {
				if (body.status !== 'active' && body.status !== 'paused')
					throw new ProblemError(
						400,
						'invalid_parameter',
						'status must be active (resume) or paused (pause)',
						{ param: 'status' },
					);
				changes.status = body.status;
			}
			if (body.destination !== undefined)
				changes.destination = checkDestination(ctx, body.destination);
			if (body.schedule !== undefined) changes.schedule = checkSchedule(body.schedule);
			if (body.name !== undefined) changes.name = requireText(body, 'name');
			if (body.prompt !== undefined) changes.prompt = requireText(body, 'prompt');
			if (Object.keys(changes).length === 0) {
				throw new ProblemError(
					400,
					'invalid_parameter',
					'Nothing to update: send status, destination, schedule, name or prompt',
					{ param: 'status' },
				);
			}
			Object.assign(task, changes);
			task.next_run_at = nextRunAt(task.status);
			stamp(task);
			return { status: 200, body: task };
		},
		'DELETE /tasks/{id}': (ctx) => {
			const task = ownTask(ctx);
			producerStore(ctx.state).tasks.delete(String(task.id));
			return { status: 204 };
		},
	};
}
