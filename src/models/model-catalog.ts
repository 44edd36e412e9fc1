import { isResourceLocatorValue, type IDataObject } from 'n8n-workflow';

import type { Capability } from '../catalog';
import { listAll } from '../transport/paginate';
import { apiRequest, type ApiClient } from '../transport/request';

export interface Model {
	id: string;
	object?: string;
	capability: string;
	name?: string;
	description?: string;
	status?: string;
	is_default?: boolean;
	limits?: IDataObject;
	capabilities?: IDataObject;
	/** not in the API document; shown when the service sends it (the sandbox does) */
	superseded_by?: string;
}

/** One row of GET /models/pricing. */
export interface ModelPrice {
	model: string;
	capability?: string;
	unit?: string;
	credits?: number;
}

const CACHE_TTL_MS = 60_000;

// Per-process caches (fine in queue mode: each worker fills its own), keyed by credential.
const cache = new Map<string, { at: number; value: Promise<unknown> }>();

function cacheKey(client: ApiClient, what: string): string {
	const node = client.ctx.getNode();
	const credentialId =
		node.credentials?.[client.credentialType]?.id ??
		node.credentials?.[client.credentialType]?.name ??
		'';
	return `${what}|${client.credentialType}|${credentialId}|${client.baseUrl}`;
}

async function cached<T>(client: ApiClient, what: string, load: () => Promise<T>): Promise<T> {
	const key = cacheKey(client, what);
	const hit = cache.get(key);
	if (hit && Date.now() - hit.at < CACHE_TTL_MS) return (await hit.value) as T;
	const value = load();
	cache.set(key, { at: Date.now(), value });
	value.catch(() => cache.delete(key));
	return await value;
}

/** All models the credential can see, cached for a minute per credential. */
export async function listModels(client: ApiClient): Promise<Model[]> {
	return await cached(client, 'models', async () => {
		const all: Model[] = [];
		let startingAfter: string | undefined;
		for (let page = 0; page < 50; page++) {
			const { body } = await apiRequest<{ data?: Model[]; has_more?: boolean }>(client, {
				method: 'GET',
				path: '/models',
				qs: { limit: 100, ...(startingAfter ? { starting_after: startingAfter } : {}) },
			});
			const data = Array.isArray(body.data) ? body.data : [];
			all.push(...data);
			if (!body.has_more || data.length === 0) break;
			startingAfter = data[data.length - 1].id;
		}
		return all;
	});
}

/** The price list (GET /models/pricing), cached like the models. */
export async function listPrices(client: ApiClient): Promise<ModelPrice[]> {
	return await cached(client, 'pricing', async () => {
		const rows = await listAll(client, { path: '/models/pricing' }, { returnAll: true, limit: 0 });
		return rows.filter((row): row is IDataObject & ModelPrice => typeof row.model === 'string');
	});
}

export function forgetModels(): void {
	cache.clear();
}

/**
 * The alias a Model parameter holds: a resource locator ({__rl, mode, value}) since the model
 * became a searchable list, a plain string in workflows saved before.
 */
export function modelAlias(parameter: unknown): string {
	const value = isResourceLocatorValue(parameter) ? parameter.value : parameter;
	return typeof value === 'string' ? value.trim() : '';
}

/** Models of one capability: the default first, then available, then preview; superseded last. */
export function modelsForCapability(models: Model[], capability: Capability): Model[] {
	const rank = (m: Model) =>
		(m.is_default ? 0 : 1) + (m.status === 'preview' ? 2 : 0) + (m.superseded_by ? 4 : 0);
	return models
		.filter((m) => m.capability === capability)
		.sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id));
}

export function defaultModel(models: Model[], capability: Capability): Model | undefined {
	const candidates = modelsForCapability(models, capability);
	return candidates.find((m) => m.is_default) ?? candidates[0];
}

export function modelName(model: Model): string {
	return model.name && model.name !== model.id ? model.name : model.id;
}

const UNITS: Record<string, [string, string]> = {
	per_image: ['image', 'images'],
	per_second: ['second', 'seconds'],
	per_character: ['character', 'characters'],
};

/** "4 credits per image", "0.002 credits per character". */
export function priceLabel(price: ModelPrice): string | undefined {
	if (typeof price.credits !== 'number' || !Number.isFinite(price.credits)) return undefined;
	const credits = `${Number(price.credits.toPrecision(4))} credit${price.credits === 1 ? '' : 's'}`;
	const unit = price.unit
		? (UNITS[price.unit]?.[0] ?? price.unit.replace(/^per_/, '').replace(/_/g, ' '))
		: undefined;
	return unit ? `${credits} per ${unit}` : credits;
}

/** What the model's `capabilities` flags say it does, in a few words. */
function abilities(model: Model): string[] {
	const flags = model.capabilities ?? {};
	const text = flags.text_to_output === true;
	const image = flags.image_to_output === true;
	return [
		text && image
			? 'from text or an image'
			: image
				? 'from an image'
				: text && flags.image_to_output === false
					? 'from text only'
					: '',
		flags.reference_images === true ? 'reference images' : '',
		flags.first_last_frame === true ? 'first and last frame' : '',
		flags.motion_control === true ? 'camera control' : '',
		flags.source_video === true ? 'needs a source video' : '',
		// the only models with the Generate Audio switch (a parameter cannot be hidden by what the model reports)
		model.limits?.supports_audio === true ? 'with sound' : '',
	].filter(Boolean);
}

/** Whether the service's description says more than the model's name (some only repeat it). */
function describesMore(model: Model): boolean {
	const text = (model.description ?? '').trim();
	return text !== '' && !text.toLowerCase().startsWith(modelName(model).toLowerCase());
}

/**
 * One line per model in the Model list (n8n shows a single line per entry): name and alias, its
 * bounds on the operation's numbers ("Count 1–4", numberBounds), its price, whether it is the
 * default, a preview or superseded, and what it does.
 */
export function modelLine(model: Model, price?: ModelPrice, bounds: string[] = []): string {
	// most telling first: n8n cuts a long line at the width of the list; the bounds lead, as no
	// number field can show them (the price follows, and an Estimate Cost gives it too)
	const facts = [
		...bounds,
		price ? priceLabel(price) : undefined,
		model.is_default ? 'default' : '',
		model.status === 'preview' ? 'preview, may change' : '',
		model.superseded_by ? `superseded by ${model.superseded_by}` : '',
		abilities(model).join(', '),
		describesMore(model) ? model.description!.trim() : '',
	].filter(Boolean);
	const name = modelName(model) === model.id ? model.id : `${modelName(model)} (${model.id})`;
	return [name, ...facts].join(' · ');
}

/** The price row of a model (its own capability's when several are listed). */
export function priceOf(prices: ModelPrice[], model: Model): ModelPrice | undefined {
	const own = prices.filter((p) => p.model === model.id);
	return own.find((p) => p.capability === model.capability) ?? own[0];
}
