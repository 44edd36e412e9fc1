import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';

import {
	endpointsOfNode,
	findOperation,
	type Endpoint,
	type FieldSpec,
	type LimitRule,
	type NodeName,
} from '../../catalog';
import { ADDITIONAL_FIELDS } from '../description/fields';
import { MODEL_PARAM } from '../description/model';
import {
	choicesMethod,
	listMethod,
	MODEL_SEARCH_METHOD,
	paramName,
} from '../description/param-names';
import { listAll } from '../../transport/paginate';
import { createClient, type ApiClient } from '../../transport/request';
import { choiceLabel } from '../../models/choice-labels';
import { getReadyInfluencers } from './influencers';
import { checkLimit, limitChoices, numberBounds } from '../../models/limits';
import {
	defaultModel,
	listModels,
	listPrices,
	modelAlias,
	modelLine,
	modelName,
	modelsForCapability,
	priceOf,
	type Model,
	type ModelPrice,
} from '../../models/model-catalog';
import { credentialTypeOf } from '../../credentials/authentication';

type LoadOptionsMethod = (this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>;
type ListSearchMethod = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

function currentEndpoint(ctx: ILoadOptionsFunctions, node: NodeName): Endpoint | undefined {
	const resource = String(ctx.getCurrentNodeParameter('resource') ?? '');
	const operation = String(ctx.getCurrentNodeParameter('operation') ?? '');
	return findOperation(node, resource, operation);
}

function credentialOf(ctx: ILoadOptionsFunctions) {
	return credentialTypeOf((name) => ctx.getCurrentNodeParameter(name));
}

async function clientOf(ctx: ILoadOptionsFunctions): Promise<ApiClient> {
	return await createClient(ctx, credentialOf(ctx));
}

/**
 * n8n 2.41 asks for a new node's lists before it assigns the credential, and does not ask again
 * when the credential arrives during that request: answering without the model (instead of an
 * error the field would keep showing) leaves the field usable until the model or credential changes.
 */
const hasCredential = (ctx: ILoadOptionsFunctions) =>
	Boolean(ctx.getNode().credentials?.[credentialOf(ctx)]);

/** The model the user picked (or the capability's default when the field is empty). */
async function selectedModel(
	ctx: ILoadOptionsFunctions,
	endpoint: Endpoint,
): Promise<Model | undefined> {
	if (!endpoint.capability) return undefined;
	const models = await listModels(await clientOf(ctx));
	const chosen = modelAlias(ctx.getCurrentNodeParameter(MODEL_PARAM));
	return chosen ? models.find((m) => m.id === chosen) : defaultModel(models, endpoint.capability);
}

/** Prices decorate the list; a credential that cannot read them still gets its models. */
async function pricesOrNone(client: ApiClient): Promise<ModelPrice[]> {
	return await listPrices(client).catch((): ModelPrice[] => []);
}

const matches = (filter: string | undefined, ...texts: unknown[]) => {
	const needle = (filter ?? '').trim().toLowerCase();
	return !needle || texts.some((t) => typeof t === 'string' && t.toLowerCase().includes(needle));
};

/** The Model list (resource locator "From list"): the operation's models, searchable, one line each. */
function searchModelsOf(node: NodeName): ListSearchMethod {
	return async function (this: ILoadOptionsFunctions, filter?: string) {
		const endpoint = currentEndpoint(this, node);
		if (!endpoint?.capability) return { results: [] };
		const client = await clientOf(this);
		const [models, prices] = await Promise.all([listModels(client), pricesOrNone(client)]);
		const results = modelsForCapability(models, endpoint.capability)
			.filter((m) => matches(filter, m.id, m.name, m.description))
			.map((m) => ({
				name: modelLine(m, priceOf(prices, m), numberBounds(endpoint.fields, m.limits)),
				value: m.id,
			}));
		return { results };
	};
}

/** The values a field holds now, wherever it sits (top level or in Additional Fields). */
function currentValues(ctx: ILoadOptionsFunctions, field: FieldSpec): Array<string | number> {
	const name = paramName(field);
	const value =
		ctx.getCurrentNodeParameter(name) ??
		(ctx.getCurrentNodeParameter(ADDITIONAL_FIELDS) as IDataObject | undefined)?.[name];
	const values = Array.isArray(value) ? value : [value];
	// an expression is resolved per item at run time; only fixed values can be re-checked here
	return values.filter(
		(v): v is string | number =>
			(typeof v === 'string' && v !== '' && !v.startsWith('=')) || typeof v === 'number',
	);
}

/**
 * A field's choices from the selected model's limits. n8n reloads them when the model changes; a
 * value chosen for the previous model that this one does not offer stays listed, marked, so the
 * field itself says to choose again (the run would be refused before anything is sent).
 */
function choicesOf(
	node: NodeName,
	field: FieldSpec,
	rule: Extract<LimitRule, { kind: 'oneOf' }>,
): LoadOptionsMethod {
	return async function (this: ILoadOptionsFunctions) {
		const endpoint = currentEndpoint(this, node);
		const model = endpoint && hasCredential(this) ? await selectedModel(this, endpoint) : undefined;
		const { key, values } = limitChoices(model?.limits, rule);
		const label = (v: string | number) => choiceLabel(key ?? rule.keys[0], v);
		const offered = values.map((v) => ({ name: label(v), value: v }));
		const isOffered = (v: string | number) => values.some((c) => String(c) === String(v));
		// marked exactly when the run would refuse it; without the model nothing is known to be wrong
		const kept = currentValues(this, field)
			.filter((v) => !isOffered(v))
			.map((v) =>
				model && checkLimit(field, v, model.limits)
					? { name: `${label(v)} — not offered by ${modelName(model)}: choose another`, value: v }
					: { name: label(v), value: v },
			);
		const modelDefault =
			field.type === 'multiOptions' ? [] : [{ name: 'Model Default', value: '' }];
		return [...kept, ...modelDefault, ...offered];
	};
}

/** A list endpoint's elements (e.g. voices) as a searchable resource locator list. */
function searchListOf(path: string): ListSearchMethod {
	return async function (this: ILoadOptionsFunctions, filter?: string) {
		const rows = await listAll(await clientOf(this), { path }, { returnAll: true, limit: 0 });
		const results = rows
			.filter((row) => typeof row.id === 'string')
			.map((row) => {
				const name = typeof row.name === 'string' ? row.name : String(row.id);
				const details = ['language', 'gender', 'style']
					.map((k) => row[k])
					.filter((v): v is string => typeof v === 'string' && v !== '');
				return {
					name: details.length ? `${name} (${details.join(', ')})` : name,
					value: String(row.id),
					search: [name, row.id, ...details],
				};
			})
			.filter((row) => matches(filter, ...row.search))
			.map(({ name, value }) => ({ name, value }));
		return { results };
	};
}

/** The editor methods of a node: its dependent choice lists, the Model list and lists read from the API. */
export function methodsOf(node: NodeName): {
	loadOptions: Record<string, LoadOptionsMethod>;
	listSearch: Record<string, ListSearchMethod>;
} {
	const loadOptions: Record<string, LoadOptionsMethod> = { getReadyInfluencers };
	const listSearch: Record<string, ListSearchMethod> = {
		[MODEL_SEARCH_METHOD]: searchModelsOf(node),
	};
	for (const e of endpointsOfNode(node)) {
		for (const field of e.fields) {
			if (
				field.limit?.kind === 'oneOf' &&
				(field.type === 'options' || field.type === 'multiOptions')
			) {
				loadOptions[choicesMethod(field)] = choicesOf(node, field, field.limit);
			}
			if (field.optionsFrom)
				listSearch[listMethod(field.optionsFrom.path)] = searchListOf(field.optionsFrom.path);
		}
	}
	return { loadOptions, listSearch };
}
