import type { Endpoint } from './types';

const run = { node: 'MediaGenRun', resource: 'run', auth: 'bearer', idempotency: 'none', scope: 'runs:read' } as const;

export const runEndpoints: Endpoint[] = [
	{
		...run,
		method: 'GET',
		path: '/runs',
		operation: 'list',
		name: 'List',
		action: 'List runs',
		description: 'Runs, newest first, filtered by status and capability',
		output: 'list',
		fields: [
			{
				name: 'status',
				displayName: 'Status',
				type: 'options',
				default: '',
				options: [
					{ name: 'Any', value: '' },
					...['queued', 'processing', 'completed', 'failed'].map((v) => ({ name: v, value: v })),
				],
			},
			{ name: 'capability', displayName: 'Capability', type: 'string', default: '' },
		],
	},
	{
		...run,
		method: 'GET',
		path: '/runs/{runId}',
		operation: 'get',
		name: 'Get',
		action: 'Get a run',
		description: 'A run with its status and output',
		output: 'object',
		fields: [{ name: 'runId', displayName: 'Run ID', type: 'string', required: true, default: '' }],
	},
	{
		...run,
		method: 'GET',
		path: '/runs/{runId}/output',
		operation: 'getOutput',
		name: 'Get Output',
		action: 'Get the output of a run',
		description: 'The output object of a run',
		output: 'object',
		fields: [{ name: 'runId', displayName: 'Run ID', type: 'string', required: true, default: '' }],
	},
];
