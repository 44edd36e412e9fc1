import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { catalog, type Endpoint, type LimitRule, type NodeName } from '../catalog';
import { choicesMethod, listMethod } from '../node/names';
import { resolveOperation } from '../runs/cost';
import { BEARER_CREDENTIAL_TYPE, isCredentialType } from '../transport/credentials';
import { listAll } from '../transport/paginate';
import { createClient } from '../transport/request';
import { getReadyInfluencers } from './influencers';
import { limitChoices } from './limits';
import { defaultModel, listModels, modelLabel, modelsForCapability, type Model } from './model-catalog';

type LoadOptionsMethod = (this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>;

function currentEndpoint(ctx: ILoadOptionsFunctions, node: NodeName): Endpoint | undefined {
	const resource = String(ctx.getCurrentNodeParameter('resource') ?? '');
	const operation = String(ctx.getCurrentNodeParameter('operation') ?? '');
	return resolveOperation(node, resource, operation)?.endpoint;
}

async function modelsOf(ctx: ILoadOptionsFunctions): Promise<Model[]> {
	const auth = ctx.getCurrentNodeParameter('authentication');
	const client = await createClient(ctx, isCredentialType(auth) ? auth : BEARER_CREDENTIAL_TYPE);
	return await listModels(client);
}

/** The model the user picked (or the capability's default when the field is empty). */
async function selectedModel(ctx: ILoadOptionsFunctions, endpoint: Endpoint): Promise<Model | undefined> {
	if (!endpoint.capability) return undefined;
	const models = await modelsOf(ctx);
	const chosen = String(ctx.getCurrentNodeParameter('model') ?? '');
	return chosen ? models.find((m) => m.id === chosen) : defaultModel(models, endpoint.capability);
}

/** loadOptions methods of a node: its model dropdown and one method per model-limit choice list. */
export function loadOptionsFor(node: NodeName): Record<string, LoadOptionsMethod> {
	const methods: Record<string, LoadOptionsMethod> = {
		getReadyInfluencers,
		async getModels(this: ILoadOptionsFunctions) {
			const endpoint = currentEndpoint(this, node);
			if (!endpoint?.capability) return [];
			const models = modelsForCapability(await modelsOf(this), endpoint.capability);
			const fallback = models.find((m) => m.is_default) ?? models[0];
			return [
				{ name: `Service Default${fallback ? ` (currently ${fallback.id})` : ''}`, value: '' },
				...models.map((m) => ({ name: modelLabel(m), value: m.id, description: m.description })),
			];
		},
	};
	const rules = new Map<string, LimitRule>();
	// a multi-select leaves "model default" as an empty selection, so it gets no empty choice
	const multiple = new Set<string>();
	for (const e of catalog) {
		for (const f of e.fields) {
			if (f.limit?.kind !== 'oneOf') continue;
			rules.set(choicesMethod(f.limit.keys), f.limit);
			if (f.type === 'multiOptions') multiple.add(choicesMethod(f.limit.keys));
		}
	}
	for (const [name, rule] of rules) {
		methods[name] = async function (this: ILoadOptionsFunctions) {
			const endpoint = currentEndpoint(this, node);
			const model = endpoint && (await selectedModel(this, endpoint));
			const choices = limitChoices(model?.limits, rule);
			const listed = choices.map((c) => ({ name: String(c), value: c }));
			return multiple.has(name) ? listed : [{ name: 'Model Default', value: '' }, ...listed];
		};
	}
	const lists = new Set<string>();
	for (const e of catalog) for (const f of e.fields) if (e.node === node && f.optionsFrom) lists.add(f.optionsFrom.path);
	for (const path of lists) {
		methods[listMethod(path)] = async function (this: ILoadOptionsFunctions) {
			const auth = this.getCurrentNodeParameter('authentication');
			const client = await createClient(this, isCredentialType(auth) ? auth : BEARER_CREDENTIAL_TYPE);
			const rows = await listAll(client, { path }, { returnAll: true, limit: 0 });
			return rows
				.filter((row) => typeof row.id === 'string')
				.map((row) => {
					const details = ['language', 'gender', 'style'].map((k) => row[k]).filter((v) => typeof v === 'string' && v);
					return { name: typeof row.name === 'string' ? row.name : String(row.id), value: String(row.id), description: details.join(' · ') || undefined };
				});
		};
	}
	return methods;
}
