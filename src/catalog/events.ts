/** Webhook events of the API document, as data: the trigger and the webhook operations offer them. */

/** The event kinds of the API document's Events section. */
export const EVENT_TYPES = ['run.completed', 'run.failed', 'batch.completed', 'batch.failed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The event kinds as n8n options, sorted by name; `action` is how n8n's trigger panel lists them. */
export const EVENT_OPTIONS = [
	{
		name: 'Batch Completed',
		value: 'batch.completed',
		action: 'When a batch completes',
		description: 'Every item of a batch finished with a result; the event carries the batch',
	},
	{ name: 'Batch Failed', value: 'batch.failed', action: 'When a batch fails', description: 'Every item of a batch failed; the event carries the batch' },
	{
		name: 'Run Completed',
		value: 'run.completed',
		action: 'When a generation completes',
		description: 'An image, video, audio or other generation finished: its files are ready (from any workflow, the API or the web app)',
	},
	{ name: 'Run Failed', value: 'run.failed', action: 'When a generation fails', description: 'A generation failed; the event carries the run and its error code' },
];
