import type { Endpoint, FieldSpec } from './types';

const run = {
	node: 'MediaGenRun',
	resource: 'run',
	auth: 'bearer',
	idempotency: 'none',
	scope: 'runs:read',
} as const;

const runId: FieldSpec = {
	name: 'runId',
	displayName: 'Run ID',
	type: 'string',
	required: true,
	default: '',
};

const CAPABILITIES = [
	'image_generation',
	'video_generation',
	'speech_generation',
	'music_generation',
	'sound_effect_generation',
	'transcription',
	'image_editing',
	'video_upscaling',
	'image_upscaling',
	'lipsync_generation',
	'model_3d_generation',
	'game_generation',
	'app_generation',
	'faceless_reel_generation',
];

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
			{
				name: 'capability',
				displayName: 'Capability',
				type: 'options',
				default: '',
				options: [
					{ name: 'Any', value: '' },
					...CAPABILITIES.map((v) => ({ name: v.replace(/_/g, ' '), value: v })),
				],
			},
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
		fields: [runId],
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
		fields: [runId],
	},
];

/** Waiting and downloading read the same endpoints through the shared run waiter. */
export const runExtraOperations: Endpoint[] = [
	{
		...run,
		method: 'GET',
		path: '/runs/{runId}',
		operation: 'wait',
		name: 'Wait for Completion',
		action: 'Wait for a run to finish',
		description: 'Waits until the run is completed (its files as binary) or failed (an error)',
		output: 'run',
		alwaysWaits: true,
		fields: [runId],
	},
	{
		...run,
		method: 'GET',
		path: '/runs/{runId}/output',
		operation: 'download',
		name: 'Download Outputs',
		action: 'Download the outputs of a run',
		description: 'The files of a run as binary (waits if it is still running)',
		output: 'run',
		alwaysWaits: true,
		fields: [runId],
	},
];
