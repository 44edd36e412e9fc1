/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- the local sandbox service: runs in Node, never shipped (CONTRIBUTING.md, Linting) */
import {
	bodyOf,
	listReply,
	principalOf,
	ProblemError,
	type RouteContext,
	type RouteHandler,
} from '../http';
import { newId, nowIso } from '../ids';
import { moduleState, notFound, optionalString, requireString, stringArray } from '../module-state';
import { SANDBOX_ACCOUNT_ID } from '../options';
import type { SandboxServices } from '../services';
import type { SandboxState } from '../state';

/**
 * Supporting objects: influencers, teams, projects, elements, brands and moodboards. Their
 * fields beyond the API document's are this project's choice (docs/request-fields.md).
 */

type Owned<T> = T & { id: string; accountId: string };

interface Influencer {
	id: string;
	object: 'influencer';
	handle: string;
	display_name: string;
	status: 'draft' | 'ready' | 'archived';
	source_type: 'uploaded' | 'generated';
	preview_url: string | null;
	created_at: string;
	updated_at: string;
}

const HANDLE = /^[A-Za-z0-9_]{2,30}$/;
const ELEMENT_TYPES = ['character', 'object', 'location', 'style'];
const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;

const libraryOf = moduleState((state: SandboxState) => {
	const at = nowIso();
	const influencers = new Map<string, Owned<Influencer>>();
	const seed = (handle: string, displayName: string, status: Influencer['status']) => {
		const id = `inf_${handle}`;
		influencers.set(id, {
			id,
			object: 'influencer',
			handle,
			display_name: displayName,
			status,
			source_type: 'uploaded',
			preview_url: null,
			created_at: at,
			updated_at: at,
			accountId: SANDBOX_ACCOUNT_ID,
		});
	};
	seed('ava', 'Ava', 'ready');
	seed('leo', 'Leo', 'draft');
	seed('mia_old', 'Mia (old)', 'archived');
	const moodboardPresets = [
		{
			id: 'mbp_coastal',
			object: 'moodboard_preset',
			name: 'Coastal Calm',
			description: 'Soft blues, sand and linen',
			image_urls: [] as string[],
			tags: ['calm', 'summer'],
		},
		{
			id: 'mbp_neon',
			object: 'moodboard_preset',
			name: 'Neon Nights',
			description: 'Saturated neon on dark streets',
			image_urls: [] as string[],
			tags: ['night', 'city'],
		},
		{
			id: 'mbp_studio',
			object: 'moodboard_preset',
			name: 'Clean Studio',
			description: 'White sweep, hard light',
			image_urls: [] as string[],
			tags: ['product'],
		},
	];
	return {
		influencers,
		projectMeta: new Map<
			string,
			{ description: string | null; created_at: string; updated_at: string }
		>(),
		elements: new Map<string, Owned<Record<string, unknown>>>(),
		brands: new Map<string, Owned<Record<string, unknown>>>(),
		moodboards: new Map<string, Owned<Record<string, unknown>>>(),
		moodboardPresets,
		timers: new Set<NodeJS.Timeout>(),
		state,
	};
});

type Library = ReturnType<typeof libraryOf>;

/** Status of one of an account's influencers (mentions may only name ready ones). */
export function influencerStatus(
	state: SandboxState,
	accountId: string,
	id: string,
): Influencer['status'] | undefined {
	const influencer = libraryOf(state).influencers.get(id);
	return influencer && influencer.accountId === accountId ? influencer.status : undefined;
}

/** A later change (readiness after training or ingestion), like the service's background work. */
function later(library: Library, fn: () => void): void {
	const timer = setTimeout(() => {
		library.timers.delete(timer);
		fn();
	}, library.state.options.latencyMs);
	timer.unref();
	library.timers.add(timer);
}

function strip<T extends { accountId: string }>(record: T): Omit<T, 'accountId'> {
	const rest: Partial<T> = { ...record };
	delete rest.accountId;
	return rest as Omit<T, 'accountId'>;
}

function ownedList<T extends { accountId: string; id: string }>(
	ctx: RouteContext,
	map: Map<string, T>,
): Array<Omit<T, 'accountId'>> {
	const accountId = principalOf(ctx).accountId;
	return [...map.values()]
		.filter((r) => r.accountId === accountId)
		.reverse()
		.map(strip);
}

function ownedOne<T extends { accountId: string }>(
	ctx: RouteContext,
	map: Map<string, T>,
	param: string,
	what: string,
): T {
	const id = String(ctx.req.params[param]);
	const record = map.get(id);
	if (!record || record.accountId !== principalOf(ctx).accountId) throw notFound(what, id);
	return record;
}

function checkUrls(
	ctx: RouteContext,
	services: SandboxServices,
	urls: string[],
	param: string,
): void {
	for (const url of urls) services.assertFetchable(ctx, url, param);
}

// --- projects (kept in state.projects, which team/project checks of generation routes read) ---

function projectBody(ctx: RouteContext, id: string) {
	const project = ctx.state.projects.get(id)!;
	const metas = libraryOf(ctx.state).projectMeta;
	if (!metas.has(id))
		metas.set(id, { description: null, created_at: nowIso(), updated_at: nowIso() });
	const meta = metas.get(id)!;
	return {
		id,
		object: 'project',
		name: project.name,
		description: meta.description,
		items: [...project.items],
		item_count: project.items.length,
		created_at: meta.created_at,
		updated_at: meta.updated_at,
	};
}

function projectOf(ctx: RouteContext) {
	const id = String(ctx.req.params.projectId);
	const project = ctx.state.projects.get(id);
	if (!project || project.accountId !== principalOf(ctx).accountId) throw notFound('project', id);
	return project;
}

function touchProject(ctx: RouteContext, id: string, description?: string | null): void {
	const meta = libraryOf(ctx.state).projectMeta;
	const at = nowIso();
	const prior = meta.get(id) ?? { description: null, created_at: at, updated_at: at };
	meta.set(id, { ...prior, ...(description !== undefined ? { description } : {}), updated_at: at });
}

function runIdsOf(ctx: RouteContext, value: unknown): string[] {
	const ids = (Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [])
		.map((v) => String(v).trim())
		.filter(Boolean);
	if (ids.length === 0)
		throw new ProblemError(400, 'invalid_parameter', 'run_ids must name at least one run', {
			param: 'run_ids',
		});
	const accountId = principalOf(ctx).accountId;
	for (const id of ids) {
		const run = ctx.state.runs.get(id);
		if (!run || run.accountId !== accountId)
			throw new ProblemError(404, 'not_found', `No run ${id}`, { param: 'run_ids' });
	}
	return ids;
}

function projectHandlers(): Record<string, RouteHandler> {
	return {
		'GET /projects': (ctx) => {
			const accountId = principalOf(ctx).accountId;
			const ids = [...ctx.state.projects.values()]
				.filter((p) => p.accountId === accountId)
				.map((p) => p.id)
				.reverse();
			return listReply(
				ctx.req,
				ids.map((id) => projectBody(ctx, id)),
			);
		},
		'GET /projects/{projectId}': (ctx) => ({
			status: 200,
			body: projectBody(ctx, projectOf(ctx).id),
		}),
		'POST /projects': (ctx) => {
			const params = bodyOf(ctx);
			const id = newId('proj');
			ctx.state.projects.set(id, {
				id,
				name: requireString(params, 'name'),
				accountId: principalOf(ctx).accountId,
				items: [],
			});
			touchProject(ctx, id, optionalString(params, 'description'));
			return { status: 201, body: projectBody(ctx, id) };
		},
		'PATCH /projects/{projectId}': (ctx) => {
			const project = projectOf(ctx);
			const params = bodyOf(ctx);
			if (params.name !== undefined) project.name = requireString(params, 'name');
			touchProject(
				ctx,
				project.id,
				params.description !== undefined ? optionalString(params, 'description') : undefined,
			);
			return { status: 200, body: projectBody(ctx, project.id) };
		},
		'DELETE /projects/{projectId}': (ctx) => {
			const project = projectOf(ctx);
			ctx.state.projects.delete(project.id);
			libraryOf(ctx.state).projectMeta.delete(project.id);
			return { status: 204 };
		},
		'POST /projects/{projectId}/items': (ctx) => {
			const project = projectOf(ctx);
			for (const id of runIdsOf(ctx, bodyOf(ctx).run_ids))
				if (!project.items.includes(id)) project.items.push(id);
			touchProject(ctx, project.id);
			return { status: 200, body: projectBody(ctx, project.id) };
		},
		'DELETE /projects/{projectId}/items': (ctx) => {
			const project = projectOf(ctx);
			const remove = new Set(runIdsOf(ctx, ctx.req.query.run_ids));
			project.items = project.items.filter((id) => !remove.has(id));
			touchProject(ctx, project.id);
			return { status: 200, body: projectBody(ctx, project.id) };
		},
	};
}

// --- influencers ---

function influencerHandlers(services: SandboxServices): Record<string, RouteHandler> {
	return {
		'GET /influencers': (ctx) => {
			const status = ctx.req.query.status;
			const all = ownedList(ctx, libraryOf(ctx.state).influencers);
			return listReply(
				ctx.req,
				typeof status === 'string' && status ? all.filter((i) => i.status === status) : all,
			);
		},
		'GET /influencers/{influencerId}': (ctx) => ({
			status: 200,
			body: strip(ownedOne(ctx, libraryOf(ctx.state).influencers, 'influencerId', 'influencer')),
		}),
		'POST /influencers': (ctx) => {
			const library = libraryOf(ctx.state);
			const params = bodyOf(ctx);
			const handle = requireString(params, 'handle');
			if (!HANDLE.test(handle)) {
				throw new ProblemError(
					400,
					'invalid_parameter',
					'handle must be 2 to 30 letters, digits or underscores, without the leading @',
					{ param: 'handle' },
				);
			}
			const accountId = principalOf(ctx).accountId;
			if (
				[...library.influencers.values()].some(
					(i) => i.accountId === accountId && i.handle.toLowerCase() === handle.toLowerCase(),
				)
			) {
				throw new ProblemError(409, 'handle_taken', `You already have an influencer @${handle}`, {
					param: 'handle',
				});
			}
			if (
				params.source_type !== undefined &&
				params.source_type !== 'uploaded' &&
				params.source_type !== 'generated'
			) {
				throw new ProblemError(
					400,
					'invalid_parameter',
					'source_type must be uploaded or generated',
					{ param: 'source_type' },
				);
			}
			const sourceType =
				(params.source_type as Influencer['source_type'] | undefined) || 'uploaded';
			const images = stringArray(params, 'image_urls');
			if (sourceType === 'uploaded' && images.length === 0) {
				throw new ProblemError(
					400,
					'invalid_parameter',
					'An uploaded influencer needs image_urls (photos to train from)',
					{ param: 'image_urls' },
				);
			}
			checkUrls(ctx, services, images, 'image_urls');
			const at = nowIso();
			const influencer: Owned<Influencer> = {
				id: newId('inf'),
				object: 'influencer',
				handle,
				display_name: optionalString(params, 'display_name') ?? handle,
				status: 'draft',
				source_type: sourceType,
				preview_url: null,
				created_at: at,
				updated_at: at,
				accountId,
			};
			library.influencers.set(influencer.id, influencer);
			later(library, () => {
				if (influencer.status !== 'draft') return;
				influencer.status = 'ready';
				influencer.preview_url = images[0] ?? null;
				influencer.updated_at = nowIso();
			});
			return { status: 201, body: strip(influencer) };
		},
	};
}

// --- teams (state.teams, which team billing of generation routes reads) ---

function teamBody(ctx: RouteContext, id: string) {
	const team = ctx.state.teams.get(id)!;
	return {
		id,
		object: 'team',
		name: team.name,
		role: team.members[principalOf(ctx).accountId],
		member_count: Object.keys(team.members).length,
		pool_balance: team.pool - team.reserved,
		currency: 'credits',
	};
}

function teamHandlers(): Record<string, RouteHandler> {
	return {
		'GET /teams': (ctx) => {
			const accountId = principalOf(ctx).accountId;
			return listReply(
				ctx.req,
				[...ctx.state.teams.values()]
					.filter((t) => t.members[accountId])
					.map((t) => teamBody(ctx, t.id)),
			);
		},
		'GET /teams/{teamId}': (ctx) => {
			const id = String(ctx.req.params.teamId);
			if (!ctx.state.teams.get(id)?.members[principalOf(ctx).accountId]) throw notFound('team', id);
			return { status: 200, body: teamBody(ctx, id) };
		},
	};
}

// --- elements ---

function elementHandlers(services: SandboxServices): Record<string, RouteHandler> {
	return {
		'GET /elements': (ctx) => {
			const type = ctx.req.query.type;
			const all = ownedList(ctx, libraryOf(ctx.state).elements);
			return listReply(
				ctx.req,
				typeof type === 'string' && type ? all.filter((e) => e.type === type) : all,
			);
		},
		'GET /elements/{elementId}': (ctx) => ({
			status: 200,
			body: strip(ownedOne(ctx, libraryOf(ctx.state).elements, 'elementId', 'element')),
		}),
		'POST /elements': (ctx) => {
			const params = bodyOf(ctx);
			const type = requireString(params, 'type');
			if (!ELEMENT_TYPES.includes(type))
				throw new ProblemError(
					400,
					'invalid_parameter',
					`type must be one of ${ELEMENT_TYPES.join(', ')}`,
					{ param: 'type' },
				);
			const images = stringArray(params, 'image_urls');
			checkUrls(ctx, services, images, 'image_urls');
			const at = nowIso();
			const element = {
				id: newId('elem'),
				object: 'element',
				name: requireString(params, 'name'),
				type,
				description: optionalString(params, 'description'),
				image_urls: images,
				created_at: at,
				updated_at: at,
				accountId: principalOf(ctx).accountId,
			};
			libraryOf(ctx.state).elements.set(element.id, element);
			return { status: 201, body: strip(element) };
		},
		'DELETE /elements/{elementId}': (ctx) => {
			const element = ownedOne(ctx, libraryOf(ctx.state).elements, 'elementId', 'element');
			libraryOf(ctx.state).elements.delete(element.id);
			return { status: 204 };
		},
	};
}

// --- brands ---

function brandFields(params: Record<string, unknown>, partial: boolean): Record<string, unknown> {
	const fields: Record<string, unknown> = {};
	if (!partial || params.name !== undefined) fields.name = requireString(params, 'name');
	for (const key of ['website_url', 'description', 'logo_url', 'tone'])
		if (!partial || params[key] !== undefined) fields[key] = optionalString(params, key);
	if (!partial || params.colors !== undefined) {
		const colors = stringArray(params, 'colors');
		const bad = colors.find((c) => !HEX_COLOR.test(c));
		if (bad)
			throw new ProblemError(400, 'invalid_parameter', `colors: ${bad} is not a #RRGGBB color`, {
				param: 'colors',
			});
		fields.colors = colors;
	}
	if (!partial || params.fonts !== undefined) fields.fonts = stringArray(params, 'fonts');
	return fields;
}

function brandHandlers(): Record<string, RouteHandler> {
	const brandsOf = (ctx: RouteContext) => libraryOf(ctx.state).brands;
	return {
		'GET /brands': (ctx) => listReply(ctx.req, ownedList(ctx, brandsOf(ctx))),
		'GET /brands/{brandId}': (ctx) => ({
			status: 200,
			body: strip(ownedOne(ctx, brandsOf(ctx), 'brandId', 'brand')),
		}),
		'POST /brands': (ctx) => {
			const at = nowIso();
			const brand = {
				id: newId('brand'),
				object: 'brand',
				status: 'ready',
				...brandFields(bodyOf(ctx), false),
				source_url: null,
				created_at: at,
				updated_at: at,
				accountId: principalOf(ctx).accountId,
			};
			brandsOf(ctx).set(brand.id, brand);
			return { status: 201, body: strip(brand) };
		},
		'PATCH /brands/{brandId}': (ctx) => {
			const brand = ownedOne(ctx, brandsOf(ctx), 'brandId', 'brand');
			Object.assign(brand, brandFields(bodyOf(ctx), true), { updated_at: nowIso() });
			return { status: 200, body: strip(brand) };
		},
		'DELETE /brands/{brandId}': (ctx) => {
			const brand = ownedOne(ctx, brandsOf(ctx), 'brandId', 'brand');
			brandsOf(ctx).delete(brand.id);
			return { status: 204 };
		},
		'POST /brands/ingestions': (ctx) => {
			const params = bodyOf(ctx);
			const url = requireString(params, 'url');
			let host: string;
			try {
				host = new URL(url).hostname;
			} catch {
				throw new ProblemError(
					400,
					'invalid_parameter',
					'url must be an absolute URL of a website',
					{ param: 'url' },
				);
			}
			const at = nowIso();
			const brand: Owned<Record<string, unknown>> = {
				id: newId('brand'),
				object: 'brand',
				status: 'ingesting',
				name: optionalString(params, 'name') ?? host.replace(/^www\./, ''),
				website_url: url,
				description: null,
				logo_url: null,
				tone: null,
				colors: [],
				fonts: [],
				source_url: url,
				created_at: at,
				updated_at: at,
				accountId: principalOf(ctx).accountId,
			};
			brandsOf(ctx).set(brand.id, brand);
			const library = libraryOf(ctx.state);
			later(library, () => {
				Object.assign(brand, {
					status: 'ready',
					description: `Brand read from ${host}`,
					colors: ['#0A84FF', '#111111', '#F5F5F7'],
					fonts: ['Inter'],
					logo_url: `https://${host}/favicon.ico`,
					tone: 'friendly',
					updated_at: nowIso(),
				});
			});
			return { status: 202, body: strip(brand) };
		},
	};
}

// --- moodboards ---

function moodboardHandlers(): Record<string, RouteHandler> {
	const boardsOf = (ctx: RouteContext) => libraryOf(ctx.state).moodboards;
	return {
		'GET /moodboards': (ctx) => listReply(ctx.req, ownedList(ctx, boardsOf(ctx))),
		'GET /moodboards/presets': (ctx) => listReply(ctx.req, libraryOf(ctx.state).moodboardPresets),
		'GET /moodboards/{moodboardId}': (ctx) => ({
			status: 200,
			body: strip(ownedOne(ctx, boardsOf(ctx), 'moodboardId', 'moodboard')),
		}),
		'POST /moodboards/presets/{presetId}/fork': (ctx) => {
			const id = String(ctx.req.params.presetId);
			const preset = libraryOf(ctx.state).moodboardPresets.find((p) => p.id === id);
			if (!preset) throw notFound('moodboard preset', id);
			const at = nowIso();
			const board = {
				id: newId('mb'),
				object: 'moodboard',
				name: optionalString(bodyOf(ctx), 'name') ?? preset.name,
				description: preset.description,
				image_urls: [...preset.image_urls],
				tags: [...preset.tags],
				forked_from: preset.id,
				created_at: at,
				updated_at: at,
				accountId: principalOf(ctx).accountId,
			};
			boardsOf(ctx).set(board.id, board);
			return { status: 201, body: strip(board) };
		},
	};
}

/** Handlers of the Library node's supporting objects (this module owns them). */
export function libraryHandlers(services: SandboxServices): Record<string, RouteHandler> {
	return {
		...influencerHandlers(services),
		...teamHandlers(),
		...projectHandlers(),
		...elementHandlers(services),
		...brandHandlers(),
		...moodboardHandlers(),
	};
}
