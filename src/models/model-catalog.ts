import type { IDataObject } from 'n8n-workflow';

import type { Capability } from '../catalog';
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

const CACHE_TTL_MS = 60_000;

// Per-process cache (fine in queue mode: each worker fills its own), keyed by credential.
const cache = new Map<string, { at: number; models: Promise<Model[]> }>();

function cacheKey(client: ApiClient): string {
	const node = client.ctx.getNode();
	const credentialId = node.credentials?.[client.credentialType]?.id ?? node.credentials?.[client.credentialType]?.name ?? '';
	return `${client.credentialType}|${credentialId}|${client.baseUrl}`;
}

/** All models the credential can see, cached for a minute per credential. */
export async function listModels(client: ApiClient): Promise<Model[]> {
	const key = cacheKey(client);
	const hit = cache.get(key);
	if (hit && Date.now() - hit.at < CACHE_TTL_MS) return await hit.models;
	const models = (async () => {
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
	})();
	cache.set(key, { at: Date.now(), models });
	models.catch(() => cache.delete(key));
	return await models;
}

export function forgetModels(): void {
	cache.clear();
}

/** Models of one capability: the default first, then available, then preview; superseded last. */
export function modelsForCapability(models: Model[], capability: Capability): Model[] {
	const rank = (m: Model) => (m.is_default ? 0 : 1) + (m.status === 'preview' ? 2 : 0) + (m.superseded_by ? 4 : 0);
	return models.filter((m) => m.capability === capability).sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id));
}

export function defaultModel(models: Model[], capability: Capability): Model | undefined {
	const candidates = modelsForCapability(models, capability);
	return candidates.find((m) => m.is_default) ?? candidates[0];
}

/** Dropdown label: name, alias and markers a user should see before picking. */
export function modelLabel(model: Model): string {
	const markers = [
		model.is_default ? 'default' : '',
		model.status === 'preview' ? 'preview' : '',
		model.superseded_by ? `superseded by ${model.superseded_by}` : '',
	].filter(Boolean);
	const base = model.name && model.name !== model.id ? `${model.name} (${model.id})` : model.id;
	return markers.length ? `${base} — ${markers.join(', ')}` : base;
}
