import { createHash } from 'node:crypto';

import { tableEndpoint } from '../endpoint-table';
import {
	bodyOf,
	listReply,
	principalOf,
	ProblemError,
	type Reply,
	type RouteContext,
	type RouteHandler,
} from '../http';
import { newId, nowIso } from '../ids';
import { moduleState, notFound, optionalString, requireString, stringArray } from '../module-state';
import { imageOutputs, type OutputMaker } from '../outputs';
import { checkRequest } from '../parameters/validate';
import type { SandboxServices } from '../services';
import type { Principal, SandboxState } from '../state';
import {
	isWorkflowKey,
	WORKFLOW_KEYS,
	workflowInputChecks,
	workflowResource,
	WORKFLOWS,
	type WorkflowKey,
} from '../workflow-table';
import { checkRoute, createPaidRun } from './generation';

/** Credits of one workflow run (the sandbox's price list). */
const WORKFLOW_PRICE: Record<WorkflowKey, (params: Record<string, unknown>) => number> = {
	storyboard: () => 8,
	hook_pack: () => 3,
	ugc_ad: () => 4,
	creative_pack: () => 10,
	product_ad_variants: (p) => 2 * (Number(p.variant_count ?? 3) || 3),
};

function pick<T>(list: readonly T[], seed: string, index: number): T {
	const n = createHash('sha256').update(`${seed}#${index}`).digest().readUInt32BE(0);
	return list[n % list.length];
}

/** The `index`th of a seeded rotation of `list`: different values for consecutive indexes, as a writer varies them. */
function rotate<T>(list: readonly T[], seed: string, index: number): T {
	const start = createHash('sha256').update(seed).digest().readUInt32BE(0);
	return list[(start + index) % list.length];
}

/** A subject as it reads inside a sentence: "A reusable bottle…" → "a reusable bottle…" (names keep their capitals). */
const inSentence = (subject: string) =>
	subject.replace(/^(A|An|The)(?= [a-z])/, (article) => article.toLowerCase());

const OPENERS = [
	'Stop scrolling and meet',
	'Nobody tells you about',
	'I tried',
	'Here is why everyone wants',
	'The one thing about',
	'POV: you just found',
];
const AD_ANGLES = ['benefit', 'problem-solution', 'social proof', 'urgency', 'story'] as const;
/** An ad body for each angle, from what the product is (its description, else its name) and who it is for. */
const AD_BODIES: Record<(typeof AD_ANGLES)[number], (about: string, audience: string) => string> = {
	benefit: (about, audience) => `${about}. Made for ${audience}.`,
	'problem-solution': (about) => `The fix you were looking for: ${about}.`,
	'social proof': (about, audience) =>
		`${audience.charAt(0).toUpperCase()}${audience.slice(1)} love it. ${about}.`,
	urgency: (about, audience) => `${about}. Only a few left for ${audience}.`,
	story: (about, audience) => `${about}. Every one made with care for ${audience}.`,
};
const CTAS = [
	'Tap the link to try it today.',
	'Order now and see the difference.',
	'Follow for part two.',
	'Grab yours before it sells out.',
];

function scriptFor(params: Record<string, unknown>, seed: string) {
	const topic = String(params.prompt ?? params.product_name ?? 'this product');
	const keywords = Array.isArray(params.keywords) ? (params.keywords as string[]) : [];
	const hooks = [0, 1, 2].map(
		(i) =>
			`${rotate(OPENERS, seed, i)} ${inSentence(topic)}${keywords[i] ? ` (${keywords[i]})` : ''}`,
	);
	const body = `${topic}: made for ${String(params.audience ?? 'people like you')}, in a ${String(params.tone || 'casual')} voice.`;
	const callToAction = pick(CTAS, seed, 9);
	return {
		hooks,
		body,
		call_to_action: callToAction,
		full_script: [hooks[0], body, callToAction].join('\n\n'),
	};
}

/** Plausible output of each workflow, in its declared output fields. */
function workflowOutput(state: SandboxState, principal: Principal, key: WorkflowKey): OutputMaker {
	return (runId, params) => {
		// the same brief gives the same texts (so a playground example costs the same every time it runs)
		const seed = JSON.stringify(params);
		switch (key) {
			case 'storyboard': {
				const projectId = newId('proj');
				state.projects.set(projectId, {
					id: projectId,
					name: String(params.title || params.prompt || 'Storyboard'),
					accountId: principal.accountId,
					items: [],
				});
				return {
					files: [],
					extra: {
						project_id: projectId,
						status: 'in_progress',
						current_stage: 'script',
						next_action: 'review_script',
					},
				};
			}
			case 'hook_pack':
			case 'ugc_ad':
				return { files: [], extra: scriptFor(params, seed) };
			case 'creative_pack': {
				// The document does not say where workflow outputs live: this workflow keeps its declared
				// output fields only in a JSON file at output.output_url (run.output holds just that URL).
				const name = String(params.product_name || params.prompt || 'Product');
				const fields = {
					product: {
						name,
						url: params.product_url ?? null,
						description: params.product_description ?? null,
						category: params.category ?? null,
						image_urls: params.image_urls ?? [],
					},
					analysis: {
						audience: params.audience ?? 'general',
						selling_points: ['quality', 'price', 'design'].map((s) => `${name}: ${s}`),
						recommended_tone: params.tone || 'casual',
					},
					...scriptFor({ ...params, prompt: name }, seed),
				};
				return {
					files: [
						{
							name: `${runId}.json`,
							contentType: 'application/json',
							bytes: Buffer.from(JSON.stringify(fields, null, 2)),
							slot: 'main',
						},
					],
				};
			}
			case 'product_ad_variants': {
				const count = Number(params.variant_count ?? 3) || 3;
				const name = String(params.product_name || params.prompt || 'the product');
				const about = String(params.product_description || name).replace(/[.!\s]+$/, '');
				const audience = String(params.audience || 'everyone');
				const variants = Array.from({ length: count }, (_, i) => {
					const angle = rotate(AD_ANGLES, seed, i);
					return {
						angle,
						headline: `${rotate(OPENERS, seed, i)} ${inSentence(name)}`,
						body: AD_BODIES[angle](about, audience),
						call_to_action: rotate(CTAS, seed, i),
					};
				});
				return { files: [], extra: { variant_count: count, variants } };
			}
		}
	};
}

/** Inputs every workflow run takes besides its own: billing, filing, the price binding, and the sandbox's failure switch. */
const SUBMIT_FIELDS = new Set(['team_id', 'project_id', 'quote_token', 'sandbox_fail']);

/**
 * Creates a workflow run (for POST /workflows/{key}/runs and for batch items of mode workflow).
 * Checks the input against the workflow's input fields (API document, Workflow table): required
 * prompt, allowed tone / length / aspect_ratio, variant_count 1 to 5, URIs; other fields are refused
 * as input_schema says (additionalProperties: false).
 */
export function createWorkflowRun(
	ctx: RouteContext,
	services: SandboxServices,
	key: string,
	params: Record<string, unknown>,
): Reply {
	if (!isWorkflowKey(key)) throw notFound('workflow', key);
	const unknown = Object.keys(params).find(
		(name) => !(name in WORKFLOWS[key].inputs) && !SUBMIT_FIELDS.has(name),
	);
	if (unknown) {
		throw new ProblemError(
			400,
			'invalid_parameter',
			`${unknown} is not an input of workflow ${key} (inputs: ${Object.keys(WORKFLOWS[key].inputs).join(', ')})`,
			{ param: unknown },
		);
	}
	checkRequest(ctx, services, { params: workflowInputChecks(key) }, params);
	const summary: Record<string, unknown> = { workflow: key };
	for (const k of ['prompt', 'product_name', 'tone', 'length', 'variant_count'])
		if (params[k] !== undefined) summary[k] = params[k];
	return createPaidRun(ctx, services, {
		endpoint: tableEndpoint('POST', '/workflows/{workflowKey}/runs')!,
		params,
		price: WORKFLOW_PRICE[key](params),
		makeOutput: workflowOutput(ctx.state, principalOf(ctx), key),
		inputSummary: summary,
		quoteKey: `workflow:${key}`,
	});
}

interface Preset {
	id: string;
	object: 'preset';
	name: string;
	description: string;
	category: string;
	capability: string;
	credits: number;
	inputs: Array<{ name: string; type: string; required: boolean }>;
}

interface UserWorkflow {
	id: string;
	object: 'user_workflow';
	name: string;
	description: string;
	inputs: Array<{ name: string; type: string; required: boolean }>;
	credits_per_run: number;
	created_at: string;
	updated_at: string;
}

const seeded = moduleState(() => {
	const at = nowIso();
	const presets: Preset[] = [
		{
			id: 'preset_product_marble',
			object: 'preset',
			name: 'Product on Marble',
			description: 'Studio product shot on white marble',
			category: 'product',
			capability: 'image_generation',
			credits: 4,
			inputs: [
				{ name: 'image_url', type: 'uri', required: true },
				{ name: 'prompt', type: 'string', required: false },
			],
		},
		{
			id: 'preset_neon_portrait',
			object: 'preset',
			name: 'Neon Portrait',
			description: 'Portrait lit by neon signs',
			category: 'portrait',
			capability: 'image_generation',
			credits: 3,
			inputs: [{ name: 'prompt', type: 'string', required: true }],
		},
		{
			id: 'preset_flat_lay',
			object: 'preset',
			name: 'Flat Lay',
			description: 'Top-down flat lay composition',
			category: 'product',
			capability: 'image_generation',
			credits: 3,
			inputs: [{ name: 'prompt', type: 'string', required: true }],
		},
	];
	const userWorkflows: UserWorkflow[] = [
		{
			id: 'uwf_thumbnail',
			object: 'user_workflow',
			name: 'YouTube Thumbnail',
			description: 'Prompt → image → upscale',
			inputs: [{ name: 'prompt', type: 'string', required: true }],
			credits_per_run: 6,
			created_at: at,
			updated_at: at,
		},
		{
			id: 'uwf_catalog',
			object: 'user_workflow',
			name: 'Catalog Shot',
			description: 'Background removal then a studio backdrop',
			inputs: [{ name: 'image_url', type: 'uri', required: true }],
			credits_per_run: 5,
			created_at: at,
			updated_at: at,
		},
	];
	return {
		presets,
		userWorkflows,
		/** run id → user workflow id */
		userWorkflowRuns: new Map<string, string>(),
		products: new Map<string, Record<string, unknown> & { id: string; accountId: string }>(),
	};
});

function missingInputs(
	inputs: Array<{ name: string; required: boolean }>,
	params: Record<string, unknown>,
): void {
	for (const input of inputs) {
		if (input.required && (params[input.name] === undefined || params[input.name] === '')) {
			throw new ProblemError(
				400,
				input.name === 'prompt' ? 'invalid_prompt' : 'invalid_parameter',
				`${input.name} is required`,
				{ param: input.name },
			);
		}
	}
}

function presetOf(ctx: RouteContext): Preset {
	const id = String(ctx.req.params.presetId);
	const preset = seeded(ctx.state).presets.find((p) => p.id === id);
	if (!preset) throw notFound('preset', id);
	return preset;
}

function userWorkflowOf(ctx: RouteContext): UserWorkflow {
	const id = String(ctx.req.params.workflowId);
	const workflow = seeded(ctx.state).userWorkflows.find((w) => w.id === id);
	if (!workflow) throw notFound('user workflow', id);
	return workflow;
}

const analysisOutput: OutputMaker = (runId, params) => {
	const seed = `${runId}|${String(params.ad_copy ?? params.video_url ?? params.image_url)}`;
	const score = (i: number) => 40 + (createHash('sha256').update(`${seed}${i}`).digest()[0] % 60);
	return {
		files: [],
		extra: {
			platform: params.platform || null,
			score: score(0),
			analysis: {
				hook_strength: score(1),
				clarity: score(2),
				pacing: score(3),
				call_to_action: score(4),
				brand_presence: score(5),
			},
			recommendations: [
				'Show the product in the first two seconds',
				'Shorten the opening line',
				'End on one clear call to action',
			],
		},
	};
};

const MARKETING = {
	templates: [
		{
			id: 'tpl_unboxing',
			object: 'marketing_template',
			name: 'Unboxing',
			category: 'ugc',
			aspect_ratio: '9:16',
			duration_seconds: 20,
		},
		{
			id: 'tpl_before_after',
			object: 'marketing_template',
			name: 'Before / After',
			category: 'demo',
			aspect_ratio: '1:1',
			duration_seconds: 15,
		},
		{
			id: 'tpl_testimonial',
			object: 'marketing_template',
			name: 'Testimonial',
			category: 'ugc',
			aspect_ratio: '9:16',
			duration_seconds: 30,
		},
	],
	adFormats: [
		{
			id: 'story_9x16',
			object: 'ad_format',
			name: 'Story',
			aspect_ratio: '9:16',
			max_duration_seconds: 60,
		},
		{
			id: 'feed_1x1',
			object: 'ad_format',
			name: 'Feed square',
			aspect_ratio: '1:1',
			max_duration_seconds: 60,
		},
		{
			id: 'landscape_16x9',
			object: 'ad_format',
			name: 'Landscape',
			aspect_ratio: '16:9',
			max_duration_seconds: 120,
		},
	],
	formats: [
		{ id: 'mp4_1080p', object: 'format', container: 'mp4', resolution: '1080p' },
		{ id: 'mp4_720p', object: 'format', container: 'mp4', resolution: '720p' },
		{ id: 'png', object: 'format', container: 'png', resolution: null },
	],
	hooks: [
		{
			id: 'hook_question',
			object: 'marketing_hook',
			text: 'Did you know…?',
			category: 'curiosity',
		},
		{
			id: 'hook_pov',
			object: 'marketing_hook',
			text: 'POV: you finally found…',
			category: 'relatable',
		},
		{
			id: 'hook_stop',
			object: 'marketing_hook',
			text: 'Stop scrolling if…',
			category: 'pattern_interrupt',
		},
	],
	avatars: [
		{
			id: 'avatar_maya',
			object: 'avatar',
			name: 'Maya',
			style: 'casual',
			language: 'en',
			preview_url: null,
		},
		{
			id: 'avatar_jon',
			object: 'avatar',
			name: 'Jon',
			style: 'professional',
			language: 'en',
			preview_url: null,
		},
	],
};

function byCategory<T extends { category?: string }>(ctx: RouteContext, list: T[]): T[] {
	const category = ctx.req.query.category;
	return typeof category === 'string' && category
		? list.filter((e) => e.category === category)
		: list;
}

/** Handlers of workflows, presets, user workflows, ad analysis and the marketing catalogs. */
export function workflowHandlers(services: SandboxServices): Record<string, RouteHandler> {
	return {
		'GET /workflows': (ctx) =>
			listReply(ctx.req, WORKFLOW_KEYS.map(workflowResource) as Array<{ id: string }>),
		'GET /workflows/{workflowKey}': (ctx) => {
			const key = String(ctx.req.params.workflowKey);
			if (!isWorkflowKey(key)) throw notFound('workflow', key);
			return { status: 200, body: workflowResource(key) };
		},
		'POST /workflows/{workflowKey}/runs': (ctx) =>
			createWorkflowRun(ctx, services, String(ctx.req.params.workflowKey), bodyOf(ctx)),

		'GET /presets': (ctx) => listReply(ctx.req, byCategory(ctx, seeded(ctx.state).presets)),
		'GET /presets/{presetId}': (ctx) => ({ status: 200, body: presetOf(ctx) }),
		'POST /presets/{presetId}/estimate': (ctx) => {
			const preset = presetOf(ctx);
			return {
				status: 200,
				body: services.quotes.issue(
					principalOf(ctx).accountId,
					`preset:${preset.id}`,
					bodyOf(ctx),
					preset.credits,
				),
			};
		},
		'POST /presets/{presetId}/runs': (ctx) => {
			const preset = presetOf(ctx);
			const params = bodyOf(ctx);
			missingInputs(preset.inputs, params);
			if (typeof params.image_url === 'string')
				services.assertFetchable(ctx, params.image_url, 'image_url');
			return createPaidRun(ctx, services, {
				endpoint: ctx.endpoint,
				params,
				price: preset.credits,
				makeOutput: imageOutputs,
				inputSummary: { preset: preset.id, prompt: params.prompt ?? null },
				quoteKey: `preset:${preset.id}`,
			});
		},

		'GET /user-workflows': (ctx) => listReply(ctx.req, seeded(ctx.state).userWorkflows),
		'POST /user-workflows/{workflowId}/estimate': (ctx) => {
			const workflow = userWorkflowOf(ctx);
			return {
				status: 200,
				body: services.quotes.issue(
					principalOf(ctx).accountId,
					`user_workflow:${workflow.id}`,
					bodyOf(ctx),
					workflow.credits_per_run,
				),
			};
		},
		'POST /user-workflows/{workflowId}/runs': (ctx) => {
			const workflow = userWorkflowOf(ctx);
			const params = bodyOf(ctx);
			missingInputs(workflow.inputs, params);
			const makeOutput: OutputMaker = (runId, p) => ({
				...imageOutputs(runId, p),
				extra: { user_workflow_id: workflow.id, steps_completed: 2 },
			});
			const reply = createPaidRun(ctx, services, {
				endpoint: ctx.endpoint,
				params,
				price: workflow.credits_per_run,
				makeOutput,
				inputSummary: { user_workflow: workflow.id, prompt: params.prompt ?? null },
				quoteKey: `user_workflow:${workflow.id}`,
			});
			seeded(ctx.state).userWorkflowRuns.set(reply.runId!, workflow.id);
			return reply;
		},
		'GET /user-workflows/{workflowId}/runs/{runId}': (ctx) => {
			const workflow = userWorkflowOf(ctx);
			const runId = String(ctx.req.params.runId);
			const record = ctx.state.runs.get(runId);
			if (
				!record ||
				record.accountId !== principalOf(ctx).accountId ||
				seeded(ctx.state).userWorkflowRuns.get(runId) !== workflow.id
			) {
				throw notFound(`run of user workflow ${workflow.id}`, runId);
			}
			return { status: 200, body: record.run };
		},

		'POST /ads/analyze': (ctx) => {
			const params = bodyOf(ctx);
			checkRoute(ctx, services, params);
			return createPaidRun(ctx, services, {
				endpoint: ctx.endpoint,
				params,
				price: 2,
				makeOutput: analysisOutput,
				inputSummary: {
					platform: params.platform ?? null,
					has_video: Boolean(params.video_url),
					has_image: Boolean(params.image_url),
				},
			});
		},

		'POST /marketing/products': (ctx) => {
			const params = bodyOf(ctx);
			const at = nowIso();
			const product = {
				id: newId('mprod'),
				object: 'marketing_product',
				name: requireString(params, 'name'),
				product_url: optionalString(params, 'product_url'),
				description: optionalString(params, 'description'),
				image_urls: stringArray(params, 'image_urls'),
				created_at: at,
				updated_at: at,
			};
			seeded(ctx.state).products.set(product.id, {
				...product,
				accountId: principalOf(ctx).accountId,
			});
			return { status: 201, body: product };
		},
		'GET /marketing/products': (ctx) => {
			const accountId = principalOf(ctx).accountId;
			const products = [...seeded(ctx.state).products.values()]
				.filter((p) => p.accountId === accountId)
				.reverse();
			return listReply(
				ctx.req,
				products.map((product) => {
					const listed: Partial<typeof product> = { ...product };
					delete listed.accountId;
					return listed;
				}),
			);
		},
		'GET /marketing/templates': (ctx) => listReply(ctx.req, byCategory(ctx, MARKETING.templates)),
		'GET /marketing/templates/{templateId}': (ctx) => {
			const id = String(ctx.req.params.templateId);
			const template = MARKETING.templates.find((t) => t.id === id);
			if (!template) throw notFound('template', id);
			return { status: 200, body: template };
		},
		'GET /marketing/ad-formats': (ctx) => listReply(ctx.req, MARKETING.adFormats),
		'GET /marketing/formats': (ctx) => listReply(ctx.req, MARKETING.formats),
		'GET /marketing/hooks': (ctx) => listReply(ctx.req, byCategory(ctx, MARKETING.hooks)),
		'GET /marketing/settings': (ctx) => ({
			status: 200,
			body: {
				object: 'marketing_settings',
				account_id: principalOf(ctx).accountId,
				default_language: 'en',
				default_ad_format: 'story_9x16',
				default_avatar_id: 'avatar_maya',
				auto_captions: true,
			},
		}),
		'GET /marketing/avatars': (ctx) => listReply(ctx.req, MARKETING.avatars),
	};
}
