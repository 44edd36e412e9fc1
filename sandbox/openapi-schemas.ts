/**
 * Schemas of the resources the API document does not show (trained models, styles, producer
 * objects, tasks): the sandbox's own choice (docs/request-fields.md). The document's resources come
 * from test/fixtures/api-resources.ts, transcribed from its field tables.
 */

export type Schema = Record<string, unknown>;

const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const bool: Schema = { type: 'boolean' };
const dateTime: Schema = { type: 'string', format: 'date-time' };
const uri: Schema = { type: 'string', format: 'uri' };
const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type as string, 'null'] });
const constant = (value: string): Schema => ({ type: 'string', const: value });
const oneOfStrings = (...values: string[]): Schema => ({ type: 'string', enum: values });
const timestamps = { created_at: dateTime, updated_at: dateTime };

function object(properties: Record<string, Schema>, description?: string): Schema {
	return {
		type: 'object',
		...(description ? { description } : {}),
		required: Object.keys(properties),
		properties,
	};
}

/** components.schemas the sandbox adds to the document's. */
export const sandboxSchemas: Record<string, Schema> = {
	Lora: object(
		{
			id: str,
			object: constant('lora'),
			name: str,
			kind: oneOfStrings('character', 'style', 'object'),
			trigger_word: nullable(str),
			status: oneOfStrings('training', 'completed', 'failed'),
			steps: int,
			image_count: int,
			run_id: nullable(str),
			...timestamps,
			completed_at: nullable(dateTime),
		},
		'A trained model (LoRA); pass completed ones in loras[] of an image generation',
	),
	ImageStyle: object({
		id: { type: 'string', description: 'Pass as style_id' },
		object: constant('image_style'),
		name: str,
		source: oneOfStrings('preset', 'trained'),
		status: oneOfStrings('training', 'ready', 'failed'),
		skill_id: nullable(str),
		created_at: dateTime,
	}),
	Choice: object(
		{ id: str, object: str, name: str },
		'A preset, style, music or caption choice of a producer',
	),
	ReelSubscription: object({
		id: str,
		object: constant('reel_subscription'),
		name: str,
		topic: str,
		frequency: oneOfStrings('daily', 'weekly', 'monthly'),
		status: oneOfStrings('active', 'paused'),
		duration_seconds: int,
		episode_count: int,
		next_episode_at: nullable(dateTime),
		last_episode_at: nullable(dateTime),
		...timestamps,
	}),
	ReelEpisode: object({
		id: str,
		object: constant('reel_episode'),
		subscription_id: str,
		number: int,
		topic: str,
		status: oneOfStrings('processing', 'completed', 'failed'),
		run_id: nullable(str),
		video_url: nullable(uri),
		created_at: dateTime,
		completed_at: nullable(dateTime),
	}),
	PictureBook: object({
		id: str,
		object: constant('picture_book'),
		title: str,
		status: oneOfStrings('processing', 'completed', 'failed'),
		page_count: int,
		pages: { type: 'array', items: object({ index: int, text: str }) },
		pdf_url: nullable(uri),
		run_id: nullable(str),
		created_at: dateTime,
		completed_at: nullable(dateTime),
	}),
	Game: object(
		{
			id: str,
			object: constant('game'),
			title: str,
			status: oneOfStrings('building', 'ready', 'failed'),
			version: int,
			deployed_version: nullable(int),
			published: bool,
			play_url: uri,
			...timestamps,
		},
		'A browser game; play_url serves the deployed version while it is published',
	),
	ScheduledTask: object({
		id: str,
		object: constant('scheduled_task'),
		name: str,
		prompt: str,
		schedule: { type: 'string', description: 'Five-field cron expression (UTC)' },
		destination: { type: ['string', 'null'], description: 'An http(s) URL or a project ID' },
		status: oneOfStrings('active', 'paused'),
		next_run_at: nullable(dateTime),
		last_run_at: nullable(dateTime),
		...timestamps,
	}),
};

/** Response schema (components.schemas name) of object answers, and item schema of list answers. */
export const responseSchemaOf: Record<string, string> = {
	'POST /oauth/token': 'OAuthToken',
	'POST /cli/auth/sessions': 'CliAuthSessionStart',
	'GET /cli/auth/sessions/{sessionId}': 'CliAuthSessionStatus',
	'POST /cli/auth/sessions/{sessionId}/exchange': 'CliAuthSessionExchange',
	'GET /account': 'Account',
	'GET /account/credits': 'CreditBalance',
	'GET /models': 'Model',
	'GET /models/pricing': 'ModelPricingEntry',
	'GET /usage': 'UsageSummary',
	'POST /uploads': 'Upload',
	'GET /influencers': 'Influencer',
	'GET /influencers/{influencerId}': 'Influencer',
	'GET /runs': 'Run',
	'GET /runs/{runId}': 'Run',
	'GET /runs/{runId}/output': 'RunOutput',
	'GET /batches': 'Batch',
	'GET /batches/{batchId}': 'Batch',
	'POST /batches': 'BatchWithItems',
	'GET /batches/{batchId}/items': 'BatchItem',
	'GET /batches/{batchId}/items/{itemId}': 'BatchItem',
	'POST /batches/{batchId}/items/{itemId}/retry': 'BatchItem',
	'GET /workflows': 'Workflow',
	'GET /workflows/{workflowKey}': 'Workflow',
	'GET /webhooks': 'WebhookEndpoint',
	'POST /webhooks': 'WebhookEndpointCreated',
	'PATCH /webhooks/{endpointId}': 'WebhookEndpoint',
	'GET /webhooks/deliveries': 'WebhookDelivery',
	'POST /webhooks/deliveries/{deliveryId}/replay': 'WebhookDelivery',
	'POST /influencers': 'Influencer',
	'GET /loras': 'Lora',
	'GET /loras/{loraId}': 'Lora',
	'GET /image-styles': 'ImageStyle',
	'GET /faceless-reels/presets': 'Choice',
	'GET /faceless-reels/styles': 'Choice',
	'GET /faceless-reels/music-presets': 'Choice',
	'GET /faceless-reels/caption-presets': 'Choice',
	'GET /explainers/styles': 'Choice',
	'GET /music-videos/styles': 'Choice',
	'GET /picture-books/styles': 'Choice',
	'GET /faceless-reels/subscriptions': 'ReelSubscription',
	'POST /faceless-reels/subscriptions': 'ReelSubscription',
	'PATCH /faceless-reels/subscriptions/{id}': 'ReelSubscription',
	'GET /faceless-reels/subscriptions/{id}/episodes': 'ReelEpisode',
	'GET /picture-books/{id}': 'PictureBook',
	'POST /games/{gameId}/publish': 'Game',
	'GET /tasks': 'ScheduledTask',
	'POST /tasks': 'ScheduledTask',
	'PATCH /tasks/{id}': 'ScheduledTask',
};

/** Success statuses other than the rule (submit 202, DELETE 204, otherwise 200). */
export const successStatusOf: Record<string, string> = {
	// these create a resource
	'POST /uploads': '201',
	'POST /batches': '201',
	'POST /webhooks': '201',
	'POST /influencers': '201',
	'POST /projects': '201',
	'POST /elements': '201',
	'POST /brands': '201',
	'POST /moodboards/presets/{presetId}/fork': '201',
	'POST /videos/timelines': '201',
	'POST /marketing/products': '201',
	'POST /faceless-reels/subscriptions': '201',
	'POST /tasks': '201',
	'POST /cli/auth/sessions': '201',
	// a replay queues a new delivery attempt of the event and answers before it is made
	'POST /webhooks/deliveries/{deliveryId}/replay': '202',
	// brand ingestion reads the site in the background
	'POST /brands/ingestions': '202',
	// removing items answers the project as it is now
	'DELETE /projects/{projectId}/items': '200',
};

/** GET routes that answer one object although their path ends in a literal segment (all other such GETs are lists). */
export const SINGLE_OBJECT_GETS = new Set([
	'GET /account',
	'GET /account/credits',
	'GET /usage',
	'GET /marketing/settings',
	'GET /runs/{runId}/output',
]);

/** Query parameters of routes (besides limit and starting_after of lists). */
export const queryParametersOf: Record<
	string,
	Array<{ name: string; required?: boolean; schema: Schema; description: string }>
> = {
	'GET /models': [
		{
			name: 'capability',
			schema: { type: 'string' },
			description: 'Only aliases of this capability',
		},
	],
	'GET /usage': [
		{
			name: 'group_by',
			schema: { type: 'string', enum: ['model', 'capability', 'day', 'none'] },
			description: 'Breakdown grouping',
		},
		{
			name: 'start',
			schema: { type: 'string', format: 'date-time' },
			description: 'Period start (default 30 days ago)',
		},
		{
			name: 'end',
			schema: { type: 'string', format: 'date-time' },
			description: 'Period end (default now)',
		},
	],
	'GET /runs': [
		{
			name: 'status',
			schema: { type: 'string', enum: ['queued', 'processing', 'completed', 'failed'] },
			description: 'decisions.md: filter by status',
		},
		{
			name: 'capability',
			schema: { type: 'string' },
			description: 'decisions.md: filter by capability',
		},
	],
	'GET /influencers': [
		{
			name: 'status',
			schema: { type: 'string', enum: ['draft', 'ready', 'archived'] },
			description: 'Filter by status',
		},
	],
	'GET /webhooks/deliveries': [
		{ name: 'endpoint_id', schema: { type: 'string' }, description: 'Deliveries to one endpoint' },
		{
			name: 'status',
			schema: { type: 'string', enum: ['pending', 'success', 'failed'] },
			description: 'Filter by status',
		},
		{
			name: 'event_type',
			schema: {
				type: 'string',
				enum: ['run.completed', 'run.failed', 'batch.completed', 'batch.failed'],
			},
			description: 'Filter by event kind',
		},
	],
	'GET /elements': [
		{
			name: 'type',
			schema: { type: 'string', enum: ['character', 'object', 'location', 'style'] },
			description: 'Filter by type',
		},
	],
	'GET /loras': [
		{
			name: 'status',
			schema: { type: 'string', enum: ['training', 'completed', 'failed'] },
			description: 'Filter by status',
		},
	],
	'GET /tasks': [
		{
			name: 'status',
			schema: { type: 'string', enum: ['active', 'paused'] },
			description: 'Filter by status',
		},
	],
	'GET /presets': [
		{ name: 'category', schema: { type: 'string' }, description: 'Filter by category' },
	],
	'GET /marketing/templates': [
		{ name: 'category', schema: { type: 'string' }, description: 'Filter by category' },
	],
	'GET /marketing/hooks': [
		{ name: 'category', schema: { type: 'string' }, description: 'Filter by category' },
	],
	'DELETE /projects/{projectId}/items': [
		{
			name: 'run_ids',
			required: true,
			schema: { type: 'string' },
			description: 'Comma-separated run ids to remove',
		},
	],
};

/** Estimates answer a CostEstimate (decisions.md). */
export function isEstimatePath(path: string): boolean {
	return /\/(estimate-cost|estimate|estimate-episode)$/.test(path);
}
