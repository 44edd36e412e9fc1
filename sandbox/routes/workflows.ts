import { createHash } from 'node:crypto';

import { endpointFor, type Endpoint, type FieldSpec } from '../../src/catalog';
import { WORKFLOW_INPUT_FIELDS, WORKFLOW_KEYS, WORKFLOW_NAMES, WORKFLOW_OUTPUT_FIELDS, type WorkflowKey } from '../../src/catalog/workflows';
import { bodyOf, listReply, principalOf, ProblemError, type Reply, type RouteContext, type RouteHandler } from '../http';
import { newId, nowIso } from '../ids';
import { checkChoices, moduleState, notFound, optionalString, requireString, stringArray } from '../module-state';
import { imageOutputs, type OutputMaker } from '../outputs';
import type { SandboxServices } from '../services';
import type { Principal, SandboxState } from '../state';
import { checkBillingAndFiling, checkParameters } from './generation';

/** Credits of one workflow run (the sandbox's price list). */
const WORKFLOW_PRICE: Record<WorkflowKey, (params: Record<string, unknown>) => number> = {
	storyboard: () => 8,
	hook_pack: () => 3,
	ugc_ad: () => 4,
	creative_pack: () => 10,
	product_ad_variants: (p) => 2 * (Number(p.variant_count ?? 3) || 3),
};

/** JSON schema of a workflow's fields, derived from the catalog's typed fields. */
function fieldSchema(field: FieldSpec): Record<string, unknown> {
	const base: Record<string, unknown> = { description: field.description ?? field.displayName };
	switch (field.type) {
		case 'number':
			return { ...base, type: 'number', ...(field.min !== undefined ? { minimum: field.min } : {}), ...(field.max !== undefined ? { maximum: field.max } : {}) };
		case 'integer':
			return { ...base, type: 'integer', ...(field.min !== undefined ? { minimum: field.min } : {}), ...(field.max !== undefined ? { maximum: field.max } : {}) };
		case 'boolean':
			return { ...base, type: 'boolean' };
		case 'stringList':
			return { ...base, type: 'array', items: { type: 'string' } };
		case 'mediaList':
			return { ...base, type: 'array', items: { type: 'string', format: 'uri' } };
		case 'options':
			return { ...base, type: 'string', enum: (field.options ?? []).map((o) => o.value).filter((v) => v !== '') };
		default:
			return { ...base, type: 'string', ...(field.name.endsWith('_url') ? { format: 'uri' } : {}) };
	}
}

const OUTPUT_TYPES: Record<string, Record<string, unknown>> = {
	hooks: { type: 'array', items: { type: 'string' } },
	variants: { type: 'array', items: { type: 'object' } },
	variant_count: { type: 'number' },
	product: { type: 'object' },
	analysis: { type: 'object' },
};

export function workflowResource(key: WorkflowKey): Record<string, unknown> {
	const inputs = WORKFLOW_INPUT_FIELDS[key].filter((f) => f.in !== 'node');
	return {
		id: key,
		object: 'workflow',
		name: WORKFLOW_NAMES[key],
		description: `${WORKFLOW_NAMES[key]} workflow`,
		status: 'available',
		input_schema: {
			type: 'object',
			properties: Object.fromEntries(inputs.map((f) => [f.name, fieldSchema(f)])),
			required: inputs.filter((f) => f.required).map((f) => f.name),
			additionalProperties: false,
		},
		output_schema: {
			type: 'object',
			properties: Object.fromEntries(WORKFLOW_OUTPUT_FIELDS[key].map((name) => [name, OUTPUT_TYPES[name] ?? { type: 'string' }])),
		},
	};
}

function pick<T>(list: readonly T[], seed: string, index: number): T {
	const n = createHash('sha256').update(`${seed}#${index}`).digest().readUInt32BE(0);
	return list[n % list.length];
}

const OPENERS = ['Stop scrolling if', 'Nobody tells you that', 'I tried', 'Here is why', 'The one thing about', 'POV: you just found'];
const CTAS = ['Tap the link to try it today.', 'Order now and see the difference.', 'Follow for part two.', 'Grab yours before it sells out.'];

function scriptFor(params: Record<string, unknown>, seed: string) {
	const topic = String(params.prompt ?? params.product_name ?? 'this product');
	const keywords = Array.isArray(params.keywords) ? (params.keywords as string[]) : [];
	const hooks = [0, 1, 2].map((i) => `${pick(OPENERS, seed, i)} ${topic}${keywords[i] ? ` (${keywords[i]})` : ''}`);
	const body = `${topic}: made for ${String(params.audience ?? 'people like you')}, in a ${String(params.tone || 'casual')} voice.`;
	const callToAction = pick(CTAS, seed, 9);
	return { hooks, body, call_to_action: callToAction, full_script: [hooks[0], body, callToAction].join('\n\n') };
}

/** Plausible output of each workflow, in its declared output fields. */
function workflowOutput(state: SandboxState, principal: Principal, key: WorkflowKey): OutputMaker {
	return (runId, params) => {
		const seed = `${runId}|${String(params.prompt ?? '')}`;
		switch (key) {
			case 'storyboard': {
				const projectId = newId('proj');
				state.projects.set(projectId, { id: projectId, name: String(params.title || params.prompt || 'Storyboard'), accountId: principal.accountId, items: [] });
				return { files: [], extra: { project_id: projectId, status: 'in_progress', current_stage: 'script', next_action: 'review_script' } };
			}
			case 'hook_pack':
			case 'ugc_ad':
				return { files: [], extra: scriptFor(params, seed) };
			case 'creative_pack': {
				const name = String(params.product_name || params.prompt || 'Product');
				return {
					files: [],
					extra: {
						product: { name, url: params.product_url ?? null, description: params.product_description ?? null, category: params.category ?? null, image_urls: params.image_urls ?? [] },
						analysis: { audience: params.audience ?? 'general', selling_points: ['quality', 'price', 'design'].map((s) => `${name}: ${s}`), recommended_tone: params.tone || 'casual' },
						...scriptFor({ ...params, prompt: name }, seed),
					},
				};
			}
			case 'product_ad_variants': {
				const count = Number(params.variant_count ?? 3) || 3;
				const name = String(params.product_name || params.prompt || 'the product');
				const variants = Array.from({ length: count }, (_, i) => ({
					angle: pick(['benefit', 'problem-solution', 'social proof', 'urgency', 'story'], seed, i),
					headline: `${pick(OPENERS, seed, i)} ${name}`,
					body: `Variant ${i + 1} for ${String(params.audience ?? 'everyone')}.`,
					call_to_action: pick(CTAS, seed, i),
				}));
				return { files: [], extra: { variant_count: count, variants } };
			}
		}
	};
}

/** The run-creating part every run-like route shares: money, then a queued run in the RunEngine. */
function startRun(
	ctx: Pick<RouteContext, 'state'>,
	services: SandboxServices,
	principal: Principal,
	endpoint: Endpoint,
	params: Record<string, unknown>,
	price: number,
	makeOutput: OutputMaker,
	inputSummary: Record<string, unknown>,
) {
	const account = ctx.state.account(principal.accountId);
	const moneyFailure = account.balance - account.reserved < price ? 'insufficient_credits' : undefined;
	return services.runs.create({ endpoint, principal, params, price, moneyFailure, makeOutput, inputSummary });
}

function verifyQuote(services: SandboxServices, principal: Principal, quoteKey: string, params: Record<string, unknown>, price: number): void {
	if (typeof params.quote_token === 'string' && params.quote_token) services.quotes.verify(params.quote_token, principal.accountId, quoteKey, params, price);
}

/**
 * Creates a workflow run (for POST /workflows/{key}/runs and for batch items of mode workflow).
 * Checks the input the way the workflow's input_schema says.
 */
export function createWorkflowRun(ctx: Pick<RouteContext, 'state' | 'origin'> & { principal?: Principal }, services: SandboxServices, key: string, params: Record<string, unknown>) {
	if (!(WORKFLOW_KEYS as readonly string[]).includes(key)) throw notFound('workflow', key);
	const workflow = key as WorkflowKey;
	const principal = ctx.principal!;
	const fields = WORKFLOW_INPUT_FIELDS[workflow].filter((f) => f.in !== 'node');
	const shortcut: Endpoint = { ...endpointFor('POST', '/workflows/{workflowKey}/runs')!, path: `/workflows/${workflow}/runs`, fields };
	checkParameters(ctx as RouteContext, services, shortcut, params);
	checkBillingAndFiling(ctx as RouteContext, shortcut, params);
	checkChoices(fields, params);
	if (params.variant_count !== undefined && (!Number.isInteger(Number(params.variant_count)) || Number(params.variant_count) < 1 || Number(params.variant_count) > 5)) {
		throw new ProblemError(400, 'invalid_parameter', 'variant_count must be an integer from 1 to 5', { param: 'variant_count' });
	}
	const price = WORKFLOW_PRICE[workflow](params);
	verifyQuote(services, principal, `workflow:${workflow}`, params, price);
	const summary: Record<string, unknown> = { workflow };
	for (const k of ['prompt', 'product_name', 'tone', 'length', 'variant_count']) if (params[k] !== undefined) summary[k] = params[k];
	return startRun(ctx, services, principal, shortcut, params, price, workflowOutput(ctx.state, principal, workflow), summary);
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
		{ id: 'preset_product_marble', object: 'preset', name: 'Product on Marble', description: 'Studio product shot on white marble', category: 'product', capability: 'image_generation', credits: 4, inputs: [{ name: 'image_url', type: 'uri', required: true }, { name: 'prompt', type: 'string', required: false }] },
		{ id: 'preset_neon_portrait', object: 'preset', name: 'Neon Portrait', description: 'Portrait lit by neon signs', category: 'portrait', capability: 'image_generation', credits: 3, inputs: [{ name: 'prompt', type: 'string', required: true }] },
		{ id: 'preset_flat_lay', object: 'preset', name: 'Flat Lay', description: 'Top-down flat lay composition', category: 'product', capability: 'image_generation', credits: 3, inputs: [{ name: 'prompt', type: 'string', required: true }] },
	];
	const userWorkflows: UserWorkflow[] = [
		{ id: 'uwf_thumbnail', object: 'user_workflow', name: 'YouTube Thumbnail', description: 'Prompt → image → upscale', inputs: [{ name: 'prompt', type: 'string', required: true }], credits_per_run: 6, created_at: at, updated_at: at },
		{ id: 'uwf_catalog', object: 'user_workflow', name: 'Catalog Shot', description: 'Background removal then a studio backdrop', inputs: [{ name: 'image_url', type: 'uri', required: true }], credits_per_run: 5, created_at: at, updated_at: at },
	];
	return {
		presets,
		userWorkflows,
		/** run id → user workflow id */
		userWorkflowRuns: new Map<string, string>(),
		products: new Map<string, Record<string, unknown> & { id: string; accountId: string }>(),
	};
});

function missingInputs(inputs: Array<{ name: string; required: boolean }>, params: Record<string, unknown>): void {
	for (const input of inputs) {
		if (input.required && (params[input.name] === undefined || params[input.name] === '')) {
			throw new ProblemError(400, input.name === 'prompt' ? 'invalid_prompt' : 'invalid_parameter', `${input.name} is required`, { param: input.name });
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
			analysis: { hook_strength: score(1), clarity: score(2), pacing: score(3), call_to_action: score(4), brand_presence: score(5) },
			recommendations: ['Show the product in the first two seconds', 'Shorten the opening line', 'End on one clear call to action'],
		},
	};
};

const MARKETING = {
	templates: [
		{ id: 'tpl_unboxing', object: 'marketing_template', name: 'Unboxing', category: 'ugc', aspect_ratio: '9:16', duration_seconds: 20 },
		{ id: 'tpl_before_after', object: 'marketing_template', name: 'Before / After', category: 'demo', aspect_ratio: '1:1', duration_seconds: 15 },
		{ id: 'tpl_testimonial', object: 'marketing_template', name: 'Testimonial', category: 'ugc', aspect_ratio: '9:16', duration_seconds: 30 },
	],
	adFormats: [
		{ id: 'story_9x16', object: 'ad_format', name: 'Story', aspect_ratio: '9:16', max_duration_seconds: 60 },
		{ id: 'feed_1x1', object: 'ad_format', name: 'Feed square', aspect_ratio: '1:1', max_duration_seconds: 60 },
		{ id: 'landscape_16x9', object: 'ad_format', name: 'Landscape', aspect_ratio: '16:9', max_duration_seconds: 120 },
	],
	formats: [
		{ id: 'mp4_1080p', object: 'format', container: 'mp4', resolution: '1080p' },
		{ id: 'mp4_720p', object: 'format', container: 'mp4', resolution: '720p' },
		{ id: 'png', object: 'format', container: 'png', resolution: null },
	],
	hooks: [
		{ id: 'hook_question', object: 'marketing_hook', text: 'Did you know…?', category: 'curiosity' },
		{ id: 'hook_pov', object: 'marketing_hook', text: 'POV: you finally found…', category: 'relatable' },
		{ id: 'hook_stop', object: 'marketing_hook', text: 'Stop scrolling if…', category: 'pattern_interrupt' },
	],
	avatars: [
		{ id: 'avatar_maya', object: 'avatar', name: 'Maya', style: 'casual', language: 'en', preview_url: null },
		{ id: 'avatar_jon', object: 'avatar', name: 'Jon', style: 'professional', language: 'en', preview_url: null },
	],
};

function byCategory<T extends { category?: string }>(ctx: RouteContext, list: T[]): T[] {
	const category = ctx.req.query.category;
	return typeof category === 'string' && category ? list.filter((e) => e.category === category) : list;
}

/** Handlers of workflows, presets, user workflows, ad analysis and the marketing catalogs. */
export function workflowHandlers(services: SandboxServices): Record<string, RouteHandler> {
	const runReply = (created: { record: { run: { id: string } }; submitted: Record<string, unknown> }): Reply => ({
		status: 202,
		body: created.submitted,
		runId: created.record.run.id,
	});
	return {
		'GET /workflows': (ctx) => listReply(ctx.req, WORKFLOW_KEYS.map(workflowResource) as Array<{ id: string }>),
		'GET /workflows/{workflowKey}': (ctx) => {
			const key = String(ctx.req.params.workflowKey);
			if (!(WORKFLOW_KEYS as readonly string[]).includes(key)) throw notFound('workflow', key);
			return { status: 200, body: workflowResource(key as WorkflowKey) };
		},
		'POST /workflows/{workflowKey}/runs': (ctx) => runReply(createWorkflowRun(ctx, services, String(ctx.req.params.workflowKey), bodyOf(ctx))),

		'GET /presets': (ctx) => listReply(ctx.req, byCategory(ctx, seeded(ctx.state).presets)),
		'GET /presets/{presetId}': (ctx) => ({ status: 200, body: presetOf(ctx) }),
		'POST /presets/{presetId}/estimate': (ctx) => {
			const preset = presetOf(ctx);
			return { status: 200, body: services.quotes.issue(principalOf(ctx).accountId, `preset:${preset.id}`, bodyOf(ctx), preset.credits) };
		},
		'POST /presets/{presetId}/runs': (ctx) => {
			const preset = presetOf(ctx);
			const params = bodyOf(ctx);
			missingInputs(preset.inputs, params);
			if (typeof params.image_url === 'string') services.assertFetchable(ctx, params.image_url, 'image_url');
			checkBillingAndFiling(ctx, ctx.endpoint, params);
			const principal = principalOf(ctx);
			verifyQuote(services, principal, `preset:${preset.id}`, params, preset.credits);
			return runReply(startRun(ctx, services, principal, ctx.endpoint, params, preset.credits, imageOutputs, { preset: preset.id, prompt: params.prompt ?? null }));
		},

		'GET /user-workflows': (ctx) => listReply(ctx.req, seeded(ctx.state).userWorkflows),
		'POST /user-workflows/{workflowId}/estimate': (ctx) => {
			const workflow = userWorkflowOf(ctx);
			return { status: 200, body: services.quotes.issue(principalOf(ctx).accountId, `user_workflow:${workflow.id}`, bodyOf(ctx), workflow.credits_per_run) };
		},
		'POST /user-workflows/{workflowId}/runs': (ctx) => {
			const workflow = userWorkflowOf(ctx);
			const params = bodyOf(ctx);
			missingInputs(workflow.inputs, params);
			checkBillingAndFiling(ctx, ctx.endpoint, params);
			const principal = principalOf(ctx);
			verifyQuote(services, principal, `user_workflow:${workflow.id}`, params, workflow.credits_per_run);
			const makeOutput: OutputMaker = (runId, p) => ({ ...imageOutputs(runId, p), extra: { user_workflow_id: workflow.id, steps_completed: 2 } });
			const created = startRun(ctx, services, principal, ctx.endpoint, params, workflow.credits_per_run, makeOutput, { user_workflow: workflow.id, prompt: params.prompt ?? null });
			seeded(ctx.state).userWorkflowRuns.set(created.record.run.id, workflow.id);
			return runReply(created);
		},
		'GET /user-workflows/{workflowId}/runs/{runId}': (ctx) => {
			const workflow = userWorkflowOf(ctx);
			const runId = String(ctx.req.params.runId);
			const record = ctx.state.runs.get(runId);
			if (!record || record.accountId !== principalOf(ctx).accountId || seeded(ctx.state).userWorkflowRuns.get(runId) !== workflow.id) {
				throw notFound(`run of user workflow ${workflow.id}`, runId);
			}
			return { status: 200, body: record.run };
		},

		'POST /ads/analyze': (ctx) => {
			const params = bodyOf(ctx);
			if (!params.video_url && !params.image_url && !params.ad_copy) {
				throw new ProblemError(400, 'invalid_parameter', 'Give the ad as video_url, image_url or ad_copy', { param: 'video_url' });
			}
			checkParameters(ctx, services, ctx.endpoint, params);
			checkBillingAndFiling(ctx, ctx.endpoint, params);
			checkChoices(ctx.endpoint.fields, params);
			return runReply(startRun(ctx, services, principalOf(ctx), ctx.endpoint, params, 2, analysisOutput, { platform: params.platform ?? null, has_video: Boolean(params.video_url), has_image: Boolean(params.image_url) }));
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
			seeded(ctx.state).products.set(product.id, { ...product, accountId: principalOf(ctx).accountId });
			return { status: 201, body: product };
		},
		'GET /marketing/products': (ctx) => {
			const accountId = principalOf(ctx).accountId;
			const products = [...seeded(ctx.state).products.values()].filter((p) => p.accountId === accountId).reverse();
			return listReply(ctx.req, products.map((product) => {
				const listed: Partial<typeof product> = { ...product };
				delete listed.accountId;
				return listed;
			}));
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
			body: { object: 'marketing_settings', account_id: principalOf(ctx).accountId, default_language: 'en', default_ad_format: 'story_9x16', default_avatar_id: 'avatar_maya', auto_captions: true },
		}),
		'GET /marketing/avatars': (ctx) => listReply(ctx.req, MARKETING.avatars),
	};
}
