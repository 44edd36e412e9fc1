import type { Endpoint, FieldSpec } from './types';

/** Scheduled tasks: a prompt run on a schedule, its results sent to a destination. */
const task = {
	node: 'MediaGenProducer',
	resource: 'task',
	auth: 'bearer',
	idempotency: 'none',
} as const;

const taskId: FieldSpec = {
	name: 'id',
	displayName: 'Task ID',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'task_…',
};

const schedule: FieldSpec = {
	name: 'schedule',
	displayName: 'Schedule',
	type: 'string',
	default: '',
	placeholder: '0 9 * * 1',
	description: 'When the task runs: a five-field cron expression (UTC)',
};

const destination: FieldSpec = {
	name: 'destination',
	displayName: 'Destination',
	type: 'string',
	default: '',
	placeholder: 'https://example.com/hook or proj_…',
	description: 'Where results go: an https URL (POSTed to) or a project ID (filed there)',
};

export const taskEndpoints: Endpoint[] = [
	{
		...task,
		method: 'GET',
		path: '/tasks',
		scope: 'tasks:read',
		operation: 'list',
		name: 'List',
		action: 'List scheduled tasks',
		description: 'Scheduled tasks of the account',
		output: 'list',
		fields: [
			{
				name: 'status',
				displayName: 'Status',
				type: 'options',
				default: '',
				options: [
					{ name: 'Any', value: '' },
					...['active', 'paused'].map((v) => ({ name: v, value: v })),
				],
			},
		],
	},
	{
		...task,
		method: 'POST',
		path: '/tasks',
		scope: 'tasks:write',
		operation: 'create',
		name: 'Create',
		action: 'Create a scheduled task',
		description: 'Run a prompt on a schedule and send the results to a destination',
		output: 'object',
		fields: [
			{ name: 'name', displayName: 'Name', type: 'string', required: true, default: '' },
			{
				name: 'prompt',
				displayName: 'Prompt',
				type: 'text',
				required: true,
				default: '',
				description: 'What the task does each time it runs',
			},
			{ ...schedule, required: true },
			{ ...destination, primary: true },
		],
	},
	{
		...task,
		method: 'PATCH',
		path: '/tasks/{id}',
		scope: 'tasks:write',
		operation: 'update',
		name: 'Update',
		action: 'Pause, resume or re-route a scheduled task',
		description: 'Pause or resume a task, send its results elsewhere, or change its schedule',
		output: 'object',
		fields: [
			taskId,
			{
				name: 'status',
				displayName: 'Status',
				type: 'options',
				primary: true,
				default: '',
				options: [
					{ name: 'Unchanged', value: '' },
					{ name: 'Pause', value: 'paused', description: 'Stop running until resumed' },
					{ name: 'Resume', value: 'active', description: 'Run on schedule again' },
				],
			},
			{
				...destination,
				description: 'Re-route: send results here from now on (an https URL or a project ID)',
			},
			schedule,
			{ name: 'name', displayName: 'Name', type: 'string', default: '' },
			{ name: 'prompt', displayName: 'Prompt', type: 'text', default: '' },
		],
	},
	{
		...task,
		method: 'DELETE',
		path: '/tasks/{id}',
		scope: 'tasks:write',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete a scheduled task',
		description: 'Delete a scheduled task',
		output: 'empty',
		fields: [taskId],
	},
];
