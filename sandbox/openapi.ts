import { catalog, endpointKey, fieldLocation, type Endpoint, type FieldSpec } from '../src/catalog';
import { NODE_TITLES } from '../src/catalog/operations-table';
import { componentSchemas, isEstimatePath, jsonFieldSchemas, responseSchemaOf, successStatusOf, type Schema } from './openapi-schemas';
import { ALL_SCOPES } from './options';

/**
 * The published contract: OpenAPI 3.1 generated from the catalog (every operation with its scope,
 * idempotency header, parameters, request body and responses) plus the resource schemas of the
 * API document. Served by the sandbox at {base_url}/openapi.json.
 */

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

function fieldSchema(field: FieldSpec): Schema {
	const described = (schema: Schema): Schema => (field.description ? { ...schema, description: field.description } : schema);
	const bounds = { ...(field.min !== undefined ? { minimum: field.min } : {}), ...(field.max !== undefined ? { maximum: field.max } : {}) };
	const fixed = (field.options ?? []).map((o) => o.value).filter((v) => v !== '');
	switch (field.type) {
		case 'string':
		case 'text':
			return described({ type: 'string' });
		case 'number':
			return described({ type: 'number', ...bounds });
		case 'integer':
			return described({ type: 'integer', ...bounds });
		case 'boolean':
			return described({ type: 'boolean' });
		case 'options':
			if (field.limit) return described({ type: ['string', 'number'], description: `${field.description ?? ''} Allowed values come from the model's limits.`.trim() });
			return described(fixed.length ? { type: typeof fixed[0] === 'number' ? 'number' : 'string', enum: fixed } : { type: 'string' });
		case 'multiOptions':
			return described({ type: 'array', items: fixed.length ? { enum: fixed } : { type: 'string' } });
		case 'stringList':
			return described({ type: 'array', items: { type: 'string' } });
		case 'media':
			return described({ type: 'string', format: 'uri' });
		case 'mediaList':
			return described({ type: 'array', items: { type: 'string', format: 'uri' }, ...(field.max !== undefined ? { maxItems: field.max } : {}) });
		case 'json':
			return described(jsonFieldSchemas[field.name] ?? {});
	}
}

function pathParameters(e: Endpoint): Schema[] {
	const names = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
	return names.map((name) => {
		const field = e.fields.find((f) => f.name === name);
		return { name, in: 'path', required: true, schema: { type: 'string' }, ...(field ? { description: field.description ?? field.displayName } : {}) };
	});
}

function queryParameters(e: Endpoint): Schema[] {
	const params: Schema[] = e.fields
		.filter((f) => fieldLocation(e, f) === 'query')
		.map((f) => ({ name: f.name, in: 'query', required: Boolean(f.required), schema: fieldSchema(f) }));
	if (e.output === 'list') {
		params.push(
			{ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, description: 'Page size' },
			{ name: 'starting_after', in: 'query', required: false, schema: { type: 'string' }, description: 'ID of the last element of the previous page' },
		);
	}
	return params;
}

function idempotencyParameter(e: Endpoint): Schema[] {
	if (e.idempotency === 'none') return [];
	return [
		{
			name: 'Idempotency-Key',
			in: 'header',
			required: e.idempotency === 'required',
			schema: { type: 'string', minLength: 1, maxLength: 255 },
			description:
				e.idempotency === 'required'
					? 'Required. A retry with the same key returns the original result (header Idempotent-Replayed: true) and is not charged again; the same key with other parameters is refused (409 idempotency_key_reused). Kept at least 24 hours.'
					: 'Optional here; clients send one so that a retry never pays twice.',
		},
	];
}

function requestBody(e: Endpoint): Schema | undefined {
	if (e.method === 'GET' || e.method === 'DELETE') return undefined;
	const fields = e.fields.filter((f) => fieldLocation(e, f) === 'body');
	const properties: Record<string, Schema> = {};
	const required: string[] = [];
	let open = false;
	if (e.capability) properties.model = { type: 'string', description: `Model alias of capability ${e.capability}; omitted selects the default` };
	for (const f of fields) {
		if (f.spread) {
			open = true;
			continue;
		}
		properties[f.name] = fieldSchema(f);
		if (f.required) required.push(f.name);
	}
	if (e.output === 'run') properties.quote_token = { type: 'string', description: 'Price binding from an estimate' };
	if (e.teamBilling) properties.team_id = { type: 'string', description: 'Bill this workspace pool (needs teams:read)' };
	if (e.projectFiling) properties.project_id = { type: 'string', description: 'File the output in this project (needs projects:read)' };
	if (Object.keys(properties).length === 0 && !open) return undefined;
	const schema: Schema = { type: 'object', properties, ...(required.length ? { required } : {}) };
	const content: Schema = { 'application/json': { schema } };
	if (e.auth === 'none' && e.path === '/oauth/token') content['application/x-www-form-urlencoded'] = { schema };
	return { required: required.length > 0, content };
}

function listOf(items: Schema): Schema {
	return {
		type: 'object',
		required: ['object', 'data', 'has_more'],
		properties: { object: { type: 'string', const: 'list' }, data: { type: 'array', items }, has_more: { type: 'boolean' } },
	};
}

const genericObject: Schema = { type: 'object' };

function successResponse(e: Endpoint): [string, Schema] {
	const key = endpointKey(e);
	const named = responseSchemaOf[key] ?? (isEstimatePath(e.path) ? 'CostEstimate' : undefined);
	const schema = named ? ref(named) : genericObject;
	const json = (s: Schema, description: string): Schema => ({ description, content: { 'application/json': { schema: s } } });
	switch (e.output) {
		case 'run':
			return ['202', json(ref('Run'), 'Accepted: the queued run (poll GET /runs/{runId} or use a webhook)')];
		case 'list':
			return ['200', json(listOf(schema), 'A page of the list')];
		case 'empty':
			return ['204', { description: 'Done; no body' }];
		case 'object':
			if (successStatusOf[key]) return [successStatusOf[key], json(schema, 'Accepted')];
			if (e.method === 'POST' && e.operation === 'create') return ['201', json(schema, 'Created')];
			return ['200', json(schema, 'OK')];
		default:
			// further output kinds (e.g. a batch) answer with their named schema
			return [successStatusOf[key] ?? (e.method === 'POST' ? '201' : '200'), json(schema, 'OK')];
	}
}

const problem = (description: string): Schema => ({ description, content: { 'application/problem+json': { schema: ref('Error') } } });

const errorResponses: Record<string, Schema> = {
	BadRequest: problem('invalid_parameter, invalid_prompt, model_not_found, idempotency_key_required, team_billing_unsupported, project_filing_unsupported, …'),
	Unauthorized: problem('unauthorized (missing, unknown or expired credential), quote_invalid, invalid_client'),
	Forbidden: problem('insufficient_scope (with required_scope), team_role_cannot_spend'),
	NotFound: problem('not_found, invalid_team_id'),
	Conflict: problem('idempotency_key_reused, quote_expired, quote_mismatch (with a fresh quote), or a state conflict'),
	TooManyRequests: { ...problem('rate_limited; wait Retry-After seconds'), headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' } } },
	Problem: problem('Any other failure (a problem document)'),
};

function responses(e: Endpoint): Schema {
	const [status, success] = successResponse(e);
	const out: Schema = { [status]: success, '400': { $ref: '#/components/responses/BadRequest' } };
	if (e.idempotency !== 'none') {
		(success as { headers?: Schema }).headers = { 'Idempotent-Replayed': { schema: { type: 'string', enum: ['true'] }, description: 'Present on a replay of an earlier request with the same key' } };
	}
	if (e.auth === 'bearer' || e.path === '/oauth/token') out['401'] = { $ref: '#/components/responses/Unauthorized' };
	if (e.auth === 'bearer') out['403'] = { $ref: '#/components/responses/Forbidden' };
	if (e.path.includes('{') || e.teamBilling || e.projectFiling) out['404'] = { $ref: '#/components/responses/NotFound' };
	out['409'] = { $ref: '#/components/responses/Conflict' };
	out['429'] = { $ref: '#/components/responses/TooManyRequests' };
	out.default = { $ref: '#/components/responses/Problem' };
	return out;
}

function operationId(e: Endpoint, taken: Set<string>): string {
	const base = `${e.resource}${e.operation.charAt(0).toUpperCase()}${e.operation.slice(1)}`;
	const id = taken.has(base) ? `${e.node.replace(/^MediaGen/, '').toLowerCase()}${base.charAt(0).toUpperCase()}${base.slice(1)}` : base;
	taken.add(id);
	return id;
}

function operation(e: Endpoint, taken: Set<string>): Schema {
	const security = e.auth === 'none' ? [] : [{ bearerAuth: e.scope ? [e.scope] : [] }, { oauth2: e.scope ? [e.scope] : [] }];
	const body = requestBody(e);
	const notes = [
		e.description,
		e.scope ? `Scope: ${e.scope}.` : e.auth === 'none' ? 'No authentication.' : '',
		e.idempotency === 'required' ? 'Idempotency-Key required.' : '',
		e.output === 'run' && !e.teamBilling ? 'Refuses team_id (400 team_billing_unsupported).' : '',
		e.output === 'run' && !e.projectFiling ? 'Refuses project_id (400 project_filing_unsupported).' : '',
	].filter(Boolean);
	return {
		operationId: operationId(e, taken),
		summary: e.action,
		description: notes.join(' '),
		tags: [NODE_TITLES[e.node] ?? e.node],
		security,
		...(e.scope ? { 'x-required-scope': e.scope } : {}),
		'x-idempotency-key': e.idempotency,
		parameters: [...pathParameters(e), ...queryParameters(e), ...idempotencyParameter(e)],
		...(body ? { requestBody: body } : {}),
		responses: responses(e),
	};
}

/** The OpenAPI 3.1 document of the API at `baseUrl` (…/v1). */
export function openApiDocument(baseUrl: string, endpoints: readonly Endpoint[] = catalog): Schema {
	const paths: Record<string, Record<string, Schema>> = {};
	const taken = new Set<string>();
	for (const e of endpoints) {
		(paths[e.path] ??= {})[e.method.toLowerCase()] = operation(e, taken);
	}
	const usedScopes = new Set(endpoints.map((e) => e.scope).filter((s): s is string => Boolean(s)));
	const scopes = Object.fromEntries([...new Set([...ALL_SCOPES, ...usedScopes])].map((s) => [s, `Scope ${s}`]));
	const tags = [...new Set(endpoints.map((e) => NODE_TITLES[e.node] ?? e.node))].map((name) => ({ name }));
	return {
		openapi: '3.1.0',
		info: {
			title: 'Media Generation Service API',
			version: '1.0.0',
			description:
				'Generated from the n8n-nodes-mediagen catalog. Generation is asynchronous: a submit answers 202 with a queued Run. Lists are {object: "list", data, has_more} with limit (1 to 100, default 20) and starting_after. Errors are problem documents; branch on code.',
		},
		jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
		servers: [{ url: baseUrl }],
		tags,
		security: [{ bearerAuth: [] }, { oauth2: [] }],
		paths,
		components: {
			securitySchemes: {
				bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key or an OAuth access token; each operation lists the scope it needs' },
				oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${baseUrl}/oauth/token`, scopes } } },
			},
			schemas: componentSchemas,
			responses: errorResponses,
		},
	};
}
