/** Webhook events of the API document, as data: the trigger and the webhook operations offer them. */

/** The event kinds of the API document's Events section. */
export const EVENT_TYPES = [
	'run.completed',
	'run.failed',
	'batch.completed',
	'batch.failed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The event kinds as n8n options, the one most workflows start on first (a generation finished):
 * the trigger's list and its default. Four options: n8n's rule to sort option lists by name starts
 * at five.
 */
export const EVENT_OPTIONS = [
	{
		name: 'Run Completed',
		value: 'run.completed',
		description:
			'An image, video, audio or other generation finished: its files are ready (from any workflow, the API or the web app)',
	},
	{
		name: 'Run Failed',
		value: 'run.failed',
		description: 'A generation failed; the event carries the run and its error code',
	},
	{
		name: 'Batch Completed',
		value: 'batch.completed',
		description: 'Every item of a batch finished with a result; the event carries the batch',
	},
	{
		name: 'Batch Failed',
		value: 'batch.failed',
		description: 'Every item of a batch failed; the event carries the batch',
	},
];
