import { API_RESOURCES } from '../test/fixtures/api-resources';
import { ENDPOINT_TABLE, operationName, type TableEndpoint } from './endpoint-table';
import {
	isEstimatePath,
	queryParametersOf,
	responseSchemaOf,
	sandboxSchemas,
	SINGLE_OBJECT_GETS,
	successStatusOf,
	type Schema,
} from './openapi-schemas';
import { ALL_SCOPES } from './options';
import { ROUTE_PARAMETERS } from './parameters/routes';
import { SUBMITS } from './submits';
import { WORKFLOW_KEYS } from './workflow-table';

/**
 * The published contract (decisions.md): OpenAPI 3.1 built from the sandbox's endpoint table (every
 * operation with its scope, Idempotency-Key rule, parameters and responses), the resource schemas
 * transcribed from the API document (test/fixtures/api-resources.ts) and the sandbox's own schemas
 * of resources the document does not show. Served at {base_url}/openapi.json.
 */

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const EVENT_TYPES = ['run.completed', 'run.failed', 'batch.completed', 'batch.failed'];

const isList = (e: TableEndpoint) =>
	e.method === 'GET' && !/\}$/.test(e.path) && !SINGLE_OBJECT_GETS.has(operationName(e));

/** Request bodies the API document (or decisions.md) specifies field by field. */
const SPECIFIED_BODIES: Record<string, Schema> = {
	'POST /oauth/token': {
		type: 'object',
		description:
			'client_id and client_secret here, or as HTTP Basic (then only grant_type and scope); no other properties',
		required: ['grant_type'],
		additionalProperties: false,
		properties: {
			grant_type: { type: 'string', enum: ['client_credentials'] },
			client_id: { type: 'string' },
			client_secret: { type: 'string' },
			scope: { type: 'string', description: 'Space-separated scopes' },
		},
	},
	'POST /batches': {
		type: 'object',
		required: ['mode', 'target', 'items'],
		properties: {
			mode: { type: 'string', enum: ['operation', 'workflow'] },
			target: {
				type: 'string',
				description:
					'A workflow key, or an operation name: method and path as the API document writes them, e.g. "POST /images/generations"',
			},
			items: {
				type: 'array',
				minItems: 1,
				maxItems: 1000,
				items: { type: 'object', description: 'The body the target takes' },
			},
			concurrency: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
		},
	},
	'POST /webhooks': {
		type: 'object',
		required: ['url', 'events'],
		properties: {
			url: { type: 'string', format: 'uri' },
			description: { type: ['string', 'null'] },
			events: { type: 'array', minItems: 1, items: { type: 'string', enum: EVENT_TYPES } },
		},
	},
	'PATCH /webhooks/{endpointId}': {
		type: 'object',
		properties: {
			url: { type: 'string', format: 'uri' },
			description: { type: ['string', 'null'] },
			events: { type: 'array', minItems: 1, items: { type: 'string', enum: EVENT_TYPES } },
			status: { type: 'string', enum: ['active', 'disabled'] },
		},
	},
	'POST /cli/auth/sessions': {
		type: 'object',
		required: ['code_challenge', 'code_challenge_method'],
		properties: {
			code_challenge: {
				type: 'string',
				description: 'BASE64URL(SHA256(code_verifier))',
				pattern: '^[A-Za-z0-9_-]{43}$',
			},
			code_challenge_method: { type: 'string', enum: ['S256'] },
			label: { type: 'string' },
			scopes: { type: 'array', items: { type: 'string' } },
		},
	},
	'POST /cli/auth/sessions/{sessionId}/exchange': {
		type: 'object',
		required: ['code_verifier'],
		properties: {
			code_verifier: {
				type: 'string',
				pattern: '^[A-Za-z0-9_-]{43,128}$',
				description: '43 to 128 base64url characters',
			},
		},
	},
	'POST /workflows/{workflowKey}/runs': {
		type: 'object',
		description: `The fields of the workflow's input_schema (GET /workflows/{workflowKey}); workflows: ${WORKFLOW_KEYS.join(', ')}`,
	},
};

function requestBody(e: TableEndpoint): Schema | undefined {
	if (e.method === 'GET' || e.method === 'DELETE') return undefined;
	const name = operationName(e);
	let schema = SPECIFIED_BODIES[name];
	if (!schema) {
		const rules = ROUTE_PARAMETERS[name];
		const submit = SUBMITS[name];
		const properties: Record<string, Schema> = {};
		if (rules?.capability)
			properties.model = {
				type: 'string',
				description: `Model alias of capability ${rules.capability}; omitted selects the default`,
			};
		for (const param of Object.keys(rules?.params ?? {})) properties[param] = {};
		if (submit)
			properties.quote_token = { type: 'string', description: 'Price binding from an estimate' };
		if (submit?.teamBilling)
			properties.team_id = {
				type: 'string',
				description: 'Bill this workspace pool (needs teams:read)',
			};
		if (submit?.projectFiling)
			properties.project_id = {
				type: 'string',
				description: 'File the output in this project (needs projects:read)',
			};
		const required = Object.entries(rules?.params ?? {})
			.filter(([, p]) => p.required)
			.map(([param]) => param);
		schema = { type: 'object', properties, ...(required.length ? { required } : {}) };
	}
	return {
		required: Array.isArray(schema.required) && schema.required.length > 0,
		content: { 'application/json': { schema } },
	};
}

function listOf(items: Schema): Schema {
	return {
		type: 'object',
		required: ['object', 'data', 'has_more'],
		properties: {
			object: { type: 'string', const: 'list' },
			data: { type: 'array', items },
			has_more: { type: 'boolean' },
		},
	};
}

function successResponse(e: TableEndpoint): [string, Schema] {
	const name = operationName(e);
	const json = (s: Schema, description: string): Schema => ({
		description,
		content: { 'application/json': { schema: s } },
	});
	if (SUBMITS[name])
		return [
			'202',
			json(ref('Run'), 'Accepted: the queued run (poll GET /runs/{runId} or use a webhook)'),
		];
	const named = responseSchemaOf[name] ?? (isEstimatePath(e.path) ? 'CostEstimate' : undefined);
	const schema = named ? ref(named) : { type: 'object' };
	if (isList(e)) return ['200', json(listOf(schema), 'A page of the list')];
	const status = successStatusOf[name] ?? (e.method === 'DELETE' ? '204' : '200');
	if (status === '204') return ['204', { description: 'Done; no body' }];
	return [
		status,
		json(schema, status === '201' ? 'Created' : status === '202' ? 'Accepted' : 'OK'),
	];
}

const problem = (description: string): Schema => ({
	description,
	content: { 'application/problem+json': { schema: ref('Error') } },
});

const errorResponses: Record<string, Schema> = {
	BadRequest: problem(
		'invalid_parameter, invalid_prompt, invalid_request, model_not_found, idempotency_key_required, team_billing_unsupported, project_filing_unsupported, …',
	),
	Unauthorized: problem(
		'unauthorized (missing, unknown or expired credential), quote_invalid, invalid_client',
	),
	Forbidden: problem('insufficient_scope (with required_scope), team_role_cannot_spend'),
	NotFound: problem('not_found, invalid_team_id'),
	Conflict: problem(
		'idempotency_key_reused, quote_expired, quote_mismatch (with a fresh quote), or a state conflict',
	),
	TooManyRequests: {
		...problem('rate_limited; wait Retry-After seconds'),
		headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' } },
	},
	Problem: problem('Any other failure (a problem document)'),
};

function responses(e: TableEndpoint): Schema {
	const [status, success] = successResponse(e);
	const out: Schema = { [status]: success, '400': { $ref: '#/components/responses/BadRequest' } };
	if (e.idempotencyKey !== 'no') {
		(success as { headers?: Schema }).headers = {
			'Idempotent-Replayed': {
				schema: { type: 'string', enum: ['true'] },
				description: 'Present on a replay of an earlier request with the same key',
			},
		};
	}
	const submit = SUBMITS[operationName(e)];
	if (e.auth === 'bearer' || e.path === '/oauth/token')
		out['401'] = { $ref: '#/components/responses/Unauthorized' };
	if (e.auth === 'bearer') out['403'] = { $ref: '#/components/responses/Forbidden' };
	if (e.path.includes('{') || submit) out['404'] = { $ref: '#/components/responses/NotFound' };
	out['409'] = { $ref: '#/components/responses/Conflict' };
	out['429'] = { $ref: '#/components/responses/TooManyRequests' };
	out.default = { $ref: '#/components/responses/Problem' };
	return out;
}

function parameters(e: TableEndpoint): Schema[] {
	const path = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
		name: m[1],
		in: 'path',
		required: true,
		schema: { type: 'string' },
	}));
	const query: Schema[] = (queryParametersOf[operationName(e)] ?? []).map((q) => ({
		...q,
		in: 'query',
		required: Boolean(q.required),
	}));
	if (isList(e)) {
		query.push(
			{
				name: 'limit',
				in: 'query',
				required: false,
				schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
				description: 'Page size',
			},
			{
				name: 'starting_after',
				in: 'query',
				required: false,
				schema: { type: 'string' },
				description: 'ID of the last element of the previous page',
			},
		);
	}
	const key: Schema[] =
		e.idempotencyKey === 'no'
			? []
			: [
					{
						name: 'Idempotency-Key',
						in: 'header',
						required: e.idempotencyKey === 'yes',
						schema: { type: 'string', minLength: 1, maxLength: 255 },
						description:
							'A retry with the same key returns the original result (header Idempotent-Replayed: true) and is not charged again; the same key with other parameters is refused (409 idempotency_key_reused). Kept at least 24 hours.' +
							(e.idempotencyKey === 'yes' ? ' Required.' : ' Optional here (decisions.md).'),
					},
				];
	return [...path, ...query, ...key];
}

function operationId(e: TableEndpoint): string {
	return `${e.method.toLowerCase()}${e.path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;
}

function operation(e: TableEndpoint): Schema {
	const scopes = e.scope ? [e.scope] : [];
	const submit = SUBMITS[operationName(e)];
	const body = requestBody(e);
	const notes = [
		e.scope ? `Scope: ${e.scope}.` : 'No authentication.',
		e.idempotencyKey === 'yes' ? 'Idempotency-Key required.' : '',
		submit && !submit.teamBilling ? 'Refuses team_id (400 team_billing_unsupported).' : '',
		submit && !submit.projectFiling ? 'Refuses project_id (400 project_filing_unsupported).' : '',
	].filter(Boolean);
	return {
		operationId: operationId(e),
		summary: operationName(e),
		description: notes.join(' '),
		tags: [e.path.split('/')[1]],
		security: e.auth === 'none' ? [] : [{ bearerAuth: scopes }, { oauth2: scopes }],
		...(e.scope ? { 'x-required-scope': e.scope } : {}),
		'x-idempotency-key': e.idempotencyKey,
		parameters: parameters(e),
		...(body ? { requestBody: body } : {}),
		responses: responses(e),
	};
}

/** The OpenAPI 3.1 document of the API at `baseUrl` (…/v1). */
export function openApiDocument(
	baseUrl: string,
	endpoints: readonly TableEndpoint[] = ENDPOINT_TABLE,
): Schema {
	const paths: Record<string, Record<string, Schema>> = {};
	for (const e of endpoints) (paths[e.path] ??= {})[e.method.toLowerCase()] = operation(e);
	const usedScopes = endpoints.map((e) => e.scope).filter((s): s is string => Boolean(s));
	const scopes = Object.fromEntries(
		[...new Set([...ALL_SCOPES, ...usedScopes])].map((s) => [s, `Scope ${s}`]),
	);
	const tags = [...new Set(endpoints.map((e) => e.path.split('/')[1]))].map((name) => ({ name }));
	return {
		openapi: '3.1.0',
		info: {
			title: 'Media Generation Service API',
			version: '1.0.0',
			description:
				'The local sandbox of the service. Generation is asynchronous: a submit answers 202 with a queued Run. Lists are {object: "list", data, has_more} with limit (1 to 100, default 20) and starting_after. Errors are problem documents; branch on code.',
		},
		jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
		servers: [{ url: baseUrl }],
		tags,
		security: [{ bearerAuth: [] }, { oauth2: [] }],
		paths,
		components: {
			securitySchemes: {
				bearerAuth: {
					type: 'http',
					scheme: 'bearer',
					description:
						'An API key or an OAuth access token; each operation lists the scope it needs',
				},
				oauth2: {
					type: 'oauth2',
					flows: { clientCredentials: { tokenUrl: `${baseUrl}/oauth/token`, scopes } },
				},
			},
			schemas: { ...API_RESOURCES, ...sandboxSchemas },
			responses: errorResponses,
		},
	};
}
