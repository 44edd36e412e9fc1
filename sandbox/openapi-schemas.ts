/**
 * Resource schemas of the published contract (OpenAPI 3.1 = JSON Schema 2020-12), written from
 * the API document's field tables and decisions.md. Fields the document lists are required;
 * further fields are allowed (the service may add some).
 */

export type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const num: Schema = { type: 'number' };
const bool: Schema = { type: 'boolean' };
const dateTime: Schema = { type: 'string', format: 'date-time' };
const uri: Schema = { type: 'string', format: 'uri' };
const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type as string, 'null'] });
const nullableObject: Schema = { type: ['object', 'null'] };
const constant = (value: string): Schema => ({ type: 'string', const: value });
const oneOfStrings = (...values: string[]): Schema => ({ type: 'string', enum: values });
const stringArray: Schema = { type: 'array', items: str };

/** An object whose listed properties are all required. */
function object(properties: Record<string, Schema>, description?: string, optional: string[] = []): Schema {
	return {
		type: 'object',
		...(description ? { description } : {}),
		required: Object.keys(properties).filter((k) => !optional.includes(k)),
		properties,
	};
}

export const CAPABILITIES = [
	'image_generation', 'video_generation', 'speech_generation', 'music_generation', 'sound_effect_generation', 'transcription',
	'image_editing', 'video_upscaling', 'image_upscaling', 'lipsync_generation', 'model_3d_generation', 'game_generation',
	'app_generation', 'faceless_reel_generation',
];

const RUN_STATUSES = ['queued', 'processing', 'completed', 'failed'];
const EVENT_TYPES = ['run.completed', 'run.failed', 'batch.completed', 'batch.failed'];

const runError: Schema = {
	type: ['object', 'null'],
	required: ['code'],
	properties: { code: str, message: str },
};

const runOutput: Schema = {
	type: ['object', 'null'],
	description:
		'Completed media runs carry output_url (the main file); images add images[].url, 3D model_urls (format → URL), games play_url, apps live_url, drafts draft_cache_url, transcriptions text and segments',
	properties: {
		output_url: uri,
		images: { type: 'array', items: { type: 'object', required: ['url'], properties: { url: uri } } },
		model_urls: { type: 'object', additionalProperties: uri },
		play_url: uri,
		live_url: uri,
		draft_cache_url: uri,
		text: str,
		segments: { type: 'array', items: { type: 'object' } },
	},
};

const timestamps = { created_at: dateTime, updated_at: dateTime };

/** components.schemas */
export const componentSchemas: Record<string, Schema> = {
	Error: object(
		{
			type: { type: 'string', description: 'URI of the form {base_url origin}/errors/<code>' },
			title: str,
			status: int,
			detail: { type: 'string', description: 'Human text; never branch on it' },
			code: { type: 'string', description: 'Stable machine code: branch on this' },
			request_id: str,
			param: { type: 'string', description: 'The parameter at fault (invalid_parameter and similar)' },
			required_scope: { type: 'string', description: 'On insufficient_scope: the scope the route needs' },
			quote: { ...ref('CostEstimate'), description: 'On quote_expired / quote_mismatch: a fresh quote' },
		},
		'Problem document (application/problem+json)',
		['param', 'required_scope', 'quote'],
	),
	OAuthToken: object({
		access_token: str,
		token_type: constant('Bearer'),
		expires_in: { type: 'integer', description: 'Seconds' },
		scope: { type: 'string', description: 'Space-separated scopes' },
	}),
	Account: object({
		id: str,
		object: constant('account'),
		display_name: str,
		email: str,
		plan: str,
		status: oneOfStrings('active'),
		...timestamps,
	}),
	CreditBalance: object({ account_id: str, balance: num, currency: oneOfStrings('credits') }),
	Model: object(
		{
			id: { type: 'string', description: 'Alias of the form <family>.<name>', pattern: '^[a-z0-9_]+\\.[A-Za-z0-9._-]+$' },
			object: constant('model'),
			capability: oneOfStrings(...CAPABILITIES),
			name: str,
			description: str,
			status: oneOfStrings('available', 'preview'),
			is_default: bool,
			limits: { type: 'object', description: 'Free-form per model; keys listed under Limits' },
			capabilities: {
				type: 'object',
				properties: Object.fromEntries(
					['text_to_output', 'image_to_output', 'reference_images', 'source_video', 'motion_control', 'first_last_frame'].map((k) => [k, bool]),
				),
			},
		},
		'A public model alias',
		['capabilities'],
	),
	ModelPricingEntry: object(
		{
			model: str,
			capability: str,
			unit: oneOfStrings('per_image', 'per_second', 'per_character'),
			credits: num,
			operation_key: str,
			notes: nullable(str),
		},
		undefined,
		['notes'],
	),
	CostEstimate: object(
		{
			object: constant('cost_estimate'),
			model: nullable(str),
			credits: num,
			currency: constant('credits'),
			quote_token: { type: 'string', description: 'Opaque; send it with the submit to bind the price' },
			expires_at: dateTime,
		},
		'Estimate with a signed quote token (decisions.md)',
	),
	UsageSummary: object({
		object: constant('usage_summary'),
		period: object({ start: dateTime, end: dateTime }),
		group_by: oneOfStrings('model', 'capability', 'day', 'none'),
		totals: object({ credits_spent: num, runs_count: int, successful_runs: int, failed_runs: int }),
		breakdown: {
			type: 'array',
			items: object({ group: str, credits_spent: num, runs_count: int, successful_runs: int, failed_runs: int, avg_credits_per_run: num }),
		},
	}),
	Run: object({
		id: str,
		object: constant('run'),
		status: oneOfStrings(...RUN_STATUSES),
		capability: str,
		endpoint: { type: 'string', description: 'Operation name of the submit' },
		model: nullable(str),
		request_id: str,
		input_summary: nullableObject,
		output: runOutput,
		usage: { type: ['object', 'null'], properties: { credits: num } },
		error: runError,
		resource_id: nullable(str),
		provider_request_id: nullable(str),
		...timestamps,
		completed_at: nullable(dateTime),
	}),
	RunOutput: object({
		id: str,
		object: constant('run_output'),
		status: oneOfStrings(...RUN_STATUSES),
		capability: str,
		output: runOutput,
		error: runError,
		completed_at: nullable(dateTime),
	}),
	Batch: object({
		id: str,
		object: constant('batch'),
		mode: oneOfStrings('workflow', 'operation'),
		target: { type: 'string', description: 'Workflow key or operation name' },
		status: oneOfStrings('queued', 'processing', 'completed', 'failed', 'partial'),
		total_items: int,
		completed_items: int,
		failed_items: int,
		concurrency: int,
		input_summary: nullableObject,
		output: nullableObject,
		error: nullableObject,
		...timestamps,
		completed_at: nullable(dateTime),
	}),
	BatchWithItems: {
		allOf: [ref('Batch'), { type: 'object', required: ['items'], properties: { items: { type: 'array', items: ref('BatchItem') } } }],
		description: 'Batch creation: the Batch plus its items',
	},
	BatchItem: object({
		id: str,
		object: constant('batch_item'),
		batch_id: str,
		index: { type: 'integer', minimum: 0 },
		target: str,
		status: oneOfStrings(...RUN_STATUSES),
		run_id: nullable(str),
		input_summary: nullableObject,
		output: nullableObject,
		error: nullableObject,
		...timestamps,
		completed_at: nullable(dateTime),
	}),
	Workflow: object({
		id: oneOfStrings('storyboard', 'hook_pack', 'ugc_ad', 'creative_pack', 'product_ad_variants'),
		object: constant('workflow'),
		name: str,
		description: str,
		status: oneOfStrings('available'),
		input_schema: { type: 'object' },
		output_schema: { type: 'object' },
	}),
	WebhookEndpoint: object({
		id: str,
		object: constant('webhook_endpoint'),
		url: uri,
		description: nullable(str),
		status: oneOfStrings('active', 'disabled'),
		events: { type: 'array', items: oneOfStrings(...EVENT_TYPES) },
		signing_secret_preview: { type: 'string', description: 'Masked preview of the secret' },
		...timestamps,
		last_delivery_at: nullable(dateTime),
	}),
	WebhookEndpointCreated: {
		allOf: [ref('WebhookEndpoint'), { type: 'object', required: ['signing_secret'], properties: { signing_secret: { type: 'string', description: 'Only the create response carries it' } } }],
	},
	WebhookDelivery: object({
		id: str,
		object: constant('webhook_delivery'),
		endpoint_id: str,
		event_type: oneOfStrings(...EVENT_TYPES),
		run_id: nullable(str),
		batch_id: nullable(str),
		status: oneOfStrings('pending', 'success', 'failed'),
		attempt_count: int,
		max_attempts: int,
		response_status: nullable(int),
		response_body: nullable(str),
		last_error: nullable(str),
		request_headers: { type: 'object', additionalProperties: str, description: 'Includes X-Service-Signature: sha256=<hex>' },
		...timestamps,
		last_attempt_at: nullable(dateTime),
		next_attempt_at: nullable(dateTime),
		delivered_at: nullable(dateTime),
	}),
	WebhookEvent: object(
		{
			id: { type: 'string', pattern: '^evt_' },
			object: constant('event'),
			type: oneOfStrings(...EVENT_TYPES),
			created_at: dateTime,
			data: object({ object: { oneOf: [ref('Run'), ref('Batch')] } }),
		},
		'Body of a webhook delivery, signed with X-Service-Signature: sha256=HMAC-SHA256(signing_secret, raw body) in lowercase hex',
	),
	Upload: object({
		asset_id: str,
		upload_url: { ...uri, description: 'Pre-signed PUT address; upload within 15 minutes' },
		asset_url: { ...uri, description: 'Signed read address, valid 7 days; pass it as image_url, video_url and similar' },
		content_type: str,
		expires_at: dateTime,
	}),
	Influencer: object({
		id: { type: 'string', description: 'Pass to mentions[].influencer_id' },
		object: constant('influencer'),
		handle: { type: 'string', description: 'Without the leading @' },
		display_name: str,
		status: { ...oneOfStrings('draft', 'ready', 'archived'), description: 'Only ready influencers can be referenced in mentions' },
		source_type: oneOfStrings('uploaded', 'generated'),
		preview_url: nullable(uri),
		...timestamps,
	}),
	Mention: object({ handle: str, influencer_id: str }, 'Influencer reference in an image prompt'),
	CliAuthSessionStart: object({
		session_id: str,
		verification_url: uri,
		expires_at: dateTime,
		requested_scopes: stringArray,
		label: str,
	}),
	CliAuthSessionStatus: object({
		session_id: str,
		status: oneOfStrings('pending', 'approved', 'consumed', 'denied', 'expired'),
		label: str,
		requested_scopes: stringArray,
		expires_at: dateTime,
	}),
	CliAuthSessionExchange: object({
		api_key: { type: 'string', description: 'Returned exactly once; it does not expire' },
		scopes: stringArray,
		label: str,
		session_expires_at: dateTime,
	}),

	// Resources whose fields the API document does not show: the sandbox's (and this package's) choice.
	Lora: object({
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
	}, 'A trained model (LoRA); pass completed ones in loras[] of an image generation'),
	ImageStyle: object(
		{
			id: { type: 'string', description: 'Pass as style_id' },
			object: constant('image_style'),
			name: str,
			source: oneOfStrings('preset', 'trained'),
			status: oneOfStrings('training', 'ready', 'failed'),
			skill_id: nullable(str),
			created_at: dateTime,
		},
	),
	Choice: object({ id: str, object: str, name: str }, 'A preset, style, music or caption choice of a producer'),
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
	Game: object({
		id: str,
		object: constant('game'),
		title: str,
		status: oneOfStrings('building', 'ready', 'failed'),
		version: int,
		deployed_version: nullable(int),
		published: bool,
		play_url: uri,
		...timestamps,
	}, 'A browser game; play_url serves the deployed version while it is published'),
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

/** Response schema (components.schemas name) of 'object' endpoints, and item schema of 'list' endpoints. */
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

/** Success statuses other than the rule (run 202, list 200, create 201, delete 204, otherwise 200). */
export const successStatusOf: Record<string, string> = {
	// a replay queues a new delivery attempt of the event and answers before it is made
	'POST /webhooks/deliveries/{deliveryId}/replay': '202',
	// brand ingestion reads the site in the background
	'POST /brands/ingestions': '202',
	// these create a resource
	'POST /cli/auth/sessions': '201',
	'POST /moodboards/presets/{presetId}/fork': '201',
	'POST /marketing/products': '201',
};

/** Estimates answer a CostEstimate (decisions.md). */
export function isEstimatePath(path: string): boolean {
	return /\/(estimate-cost|estimate|estimate-episode)$/.test(path);
}

/** Request-body schemas of fields the catalog types only as JSON. */
export const jsonFieldSchemas: Record<string, Schema> = {
	loras: {
		type: 'array',
		minItems: 1,
		maxItems: 3,
		items: { type: 'object', required: ['id'], properties: { id: str, scale: num } },
	},
	mentions: { type: 'array', items: ref('Mention') },
};
