import { validate } from '@readme/openapi-parser';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

import { openApiDocument } from '../../sandbox/openapi';
import { SUBMITS } from '../../sandbox/submits';
import { API_RESOURCES } from '../fixtures/api-resources';
import { rowKey, seedRows } from '../helpers/endpoint-rows';
import { openSandbox } from '../sandbox/helpers';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- service JSON, read by path in assertions
type Json = Record<string, any>;

describe('the published contract (GET {base_url}/openapi.json)', () => {
	let document: Json;
	let baseUrl: string;
	let close: () => Promise<void>;

	beforeAll(async () => {
		const { sandbox, http } = await openSandbox();
		close = () => sandbox.close();
		baseUrl = sandbox.baseUrl;
		const res = await http.get('/openapi.json');
		expect(res.status).toBe(200);
		expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
		document = res.data as Json;
	});
	afterAll(async () => close());

	it('is OpenAPI 3.1, version 1.0.0, served for this base URL', () => {
		expect(document.openapi).toBe('3.1.0');
		expect(document.info.version).toBe('1.0.0');
		expect(document.servers).toEqual([{ url: baseUrl }]);
	});

	it('validates as OpenAPI 3.1 (@readme/openapi-parser)', async () => {
		const result = await validate(structuredClone(document) as never);
		expect('errors' in result ? result.errors : []).toEqual([]);
		expect(result.valid).toBe(true);
	});

	it('fails validation when the document is broken (the validator is not a rubber stamp)', async () => {
		const broken = structuredClone(document);
		const [firstPath] = Object.keys(broken.paths);
		const [firstMethod] = Object.keys(broken.paths[firstPath]);
		delete broken.paths[firstPath][firstMethod].responses;
		broken.paths[firstPath][firstMethod].parameters = [{ name: 'x', in: 'nowhere' }];
		const result = await validate(broken as never);
		expect(result.valid).toBe(false);
	});

	const rows = seedRows();
	const operationOf = (row: { method: string; path: string }) =>
		document.paths[row.path][row.method.toLowerCase()];

	it('has exactly one operation for every row of the seed endpoint table, with its scope on both security schemes', () => {
		const operations = Object.entries(document.paths as Json).flatMap(([path, item]) =>
			Object.keys(item as Json).map((m) => `${m.toUpperCase()} ${path}`),
		);
		expect(operations.sort()).toEqual(rows.map(rowKey).sort());
		for (const row of rows) {
			const op = operationOf(row);
			if (row.auth === 'none') {
				expect({ key: rowKey(row), security: op.security }).toEqual({
					key: rowKey(row),
					security: [],
				});
				continue;
			}
			// decisions.md: the draft final (scope unspecified in the document) needs videos:write
			const scopes = row.scope === 'unspecified' ? ['videos:write'] : [row.scope];
			expect({ key: rowKey(row), security: op.security }).toEqual({
				key: rowKey(row),
				security: [{ bearerAuth: scopes }, { oauth2: scopes }],
			});
			expect(
				Object.keys(document.components.securitySchemes.oauth2.flows.clientCredentials.scopes),
			).toContain(scopes[0]);
		}
	});

	it('documents the Idempotency-Key header as the seed table says: required where Idem = yes, optional on the draft final, absent elsewhere', () => {
		for (const row of rows) {
			const header = (operationOf(row).parameters as Json[]).find(
				(p) => p.in === 'header' && p.name === 'Idempotency-Key',
			);
			const want =
				row.idempotency === 'yes' ? true : row.idempotency === 'unspecified' ? false : undefined;
			expect({ key: rowKey(row), required: header?.required }).toEqual({
				key: rowKey(row),
				required: want,
			});
		}
	});

	it('documents the token request as the API document specifies it: JSON only, no other properties', () => {
		const body = document.paths['/oauth/token'].post.requestBody;
		expect(Object.keys(body.content)).toEqual(['application/json']);
		expect(body.content['application/json'].schema).toMatchObject({
			additionalProperties: false,
			properties: { grant_type: { enum: ['client_credentials'] } },
		});
	});

	it('answers 202 + Run for every generating submit', () => {
		for (const name of Object.keys(SUBMITS)) {
			const [method, path] = name.split(' ');
			expect({
				name,
				schema:
					document.paths[path][method.toLowerCase()].responses['202']?.content['application/json']
						.schema,
			}).toEqual({ name, schema: { $ref: '#/components/schemas/Run' } });
		}
	});

	it('carries the resource schemas transcribed from the API document (test/fixtures/api-resources.ts)', () => {
		for (const [name, schema] of Object.entries(API_RESOURCES))
			expect({ name, schema: document.components.schemas[name] }).toEqual({ name, schema });
		for (const name of [
			'Run',
			'RunOutput',
			'Batch',
			'BatchItem',
			'Workflow',
			'WebhookEndpoint',
			'WebhookDelivery',
			'Upload',
			'Influencer',
			'Model',
			'ModelPricingEntry',
			'UsageSummary',
			'CreditBalance',
			'Account',
			'OAuthToken',
			'Error',
			'CliAuthSessionStart',
			'CliAuthSessionStatus',
			'CliAuthSessionExchange',
			'CostEstimate',
			'Mention',
			'WebhookEvent',
		]) {
			expect(Object.keys(API_RESOURCES)).toContain(name);
		}
		expect(document.components.schemas.Run.required).toEqual(
			expect.arrayContaining(['id', 'object', 'status', 'endpoint', 'output', 'completed_at']),
		);
		expect(document.components.schemas.Error.required).toEqual([
			'type',
			'title',
			'status',
			'detail',
			'code',
			'request_id',
		]);
	});

	it('writes every component schema as valid JSON Schema 2020-12 (ajv strict mode compiles each)', () => {
		const ajv = new Ajv2020({ strict: true, validateSchema: true });
		addFormats(ajv);
		const relink = (schema: unknown) =>
			JSON.parse(JSON.stringify(schema).replace(/"#\/components\/schemas\/(\w+)"/g, '"$1"'));
		for (const [name, schema] of Object.entries(document.components.schemas as Json))
			ajv.addSchema({ ...relink(schema), $id: name });
		for (const name of Object.keys(document.components.schemas))
			expect(() => ajv.getSchema(name)).not.toThrow();
		expect(ajv.getSchema('Run')!({ id: 'x' })).toBe(false);
	});

	it('is built from whatever endpoint table it is given (an added row appears with its scope)', () => {
		const extra = {
			method: 'GET' as const,
			path: '/widgets/{widgetId}',
			scope: 'widgets:read',
			idempotencyKey: 'no' as const,
			auth: 'bearer' as const,
		};
		const generated = openApiDocument('http://example.invalid/v1', [extra]);
		const op = (generated.paths as Json)['/widgets/{widgetId}'].get;
		expect(op.security).toEqual([{ bearerAuth: ['widgets:read'] }, { oauth2: ['widgets:read'] }]);
		expect(op.parameters).toEqual([
			expect.objectContaining({ name: 'widgetId', in: 'path', required: true }),
		]);
	});
});
