import { validate } from '@readme/openapi-parser';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

import { catalog, endpointKey } from '../../src/catalog';
import { openApiDocument } from '../../sandbox/openapi';
import { componentSchemas } from '../../sandbox/openapi-schemas';
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

	it('has exactly one operation for every catalog endpoint, with its scope on both security schemes', () => {
		const operations = Object.entries(document.paths as Json).flatMap(([path, item]) => Object.keys(item as Json).map((m) => `${m.toUpperCase()} ${path}`));
		expect(operations.sort()).toEqual(catalog.map(endpointKey).sort());
		for (const e of catalog) {
			const op = document.paths[e.path][e.method.toLowerCase()];
			if (e.auth === 'none') {
				expect(op.security).toEqual([]);
				continue;
			}
			const scopes = e.scope ? [e.scope] : [];
			expect({ key: endpointKey(e), security: op.security }).toEqual({ key: endpointKey(e), security: [{ bearerAuth: scopes }, { oauth2: scopes }] });
			if (e.scope) expect(Object.keys(document.components.securitySchemes.oauth2.flows.clientCredentials.scopes)).toContain(e.scope);
		}
	});

	it('documents the Idempotency-Key header exactly where the catalog sends it (required where the spec says Idem)', () => {
		for (const e of catalog) {
			const header = (document.paths[e.path][e.method.toLowerCase()].parameters as Json[]).find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
			if (e.idempotency === 'none') expect({ key: endpointKey(e), header }).toEqual({ key: endpointKey(e), header: undefined });
			else expect({ key: endpointKey(e), required: header?.required }).toEqual({ key: endpointKey(e), required: e.idempotency === 'required' });
		}
	});

	it('documents request bodies from the catalog fields, and 202 + Run for every generating submit', () => {
		for (const e of catalog) {
			const op = document.paths[e.path][e.method.toLowerCase()];
			const body = op.requestBody?.content?.['application/json']?.schema;
			for (const f of e.fields.filter((x) => !x.spread && (x.in ?? (e.path.includes(`{${x.name}}`) ? 'path' : e.method === 'GET' || e.method === 'DELETE' ? 'query' : 'body')) === 'body')) {
				expect({ key: endpointKey(e), field: f.name, documented: Boolean(body?.properties?.[f.name]) }).toEqual({ key: endpointKey(e), field: f.name, documented: true });
				if (f.required) expect(body.required).toContain(f.name);
			}
			if (e.output === 'run') expect(op.responses['202'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Run' });
		}
	});

	it('carries the resource schemas of the API document', () => {
		for (const name of [
			'Run', 'RunOutput', 'Batch', 'BatchItem', 'Workflow', 'WebhookEndpoint', 'WebhookDelivery', 'Upload', 'Influencer', 'Model',
			'ModelPricingEntry', 'UsageSummary', 'CreditBalance', 'Account', 'OAuthToken', 'Error', 'CliAuthSessionStart',
			'CliAuthSessionStatus', 'CliAuthSessionExchange', 'CostEstimate',
		]) {
			expect(document.components.schemas[name]).toEqual(componentSchemas[name]);
		}
		expect(document.components.schemas.Run.required).toEqual(expect.arrayContaining(['id', 'object', 'status', 'output', 'completed_at']));
		expect(document.components.schemas.Error.required).toEqual(['type', 'title', 'status', 'detail', 'code', 'request_id']);
	});

	it('writes every component schema as valid JSON Schema 2020-12 (ajv strict mode compiles each)', () => {
		const ajv = new Ajv2020({ strict: true, validateSchema: true });
		addFormats(ajv);
		const relink = (schema: unknown) => JSON.parse(JSON.stringify(schema).replace(/"#\/components\/schemas\/(\w+)"/g, '"$1"'));
		for (const [name, schema] of Object.entries(document.components.schemas as Json)) ajv.addSchema({ ...relink(schema), $id: name });
		for (const name of Object.keys(document.components.schemas)) expect(() => ajv.getSchema(name)).not.toThrow();
		expect(ajv.getSchema('Run')!({ id: 'x' })).toBe(false);
	});

	it('is generated from whatever the catalog holds (an added endpoint appears with its scope)', () => {
		const extra = { ...catalog[0], method: 'GET' as const, path: '/widgets/{widgetId}', scope: 'widgets:read', auth: 'bearer' as const, resource: 'widget', operation: 'get', output: 'object' as const, fields: [] };
		const generated = openApiDocument('http://example.invalid/v1', [...catalog, extra]);
		const op = (generated.paths as Json)['/widgets/{widgetId}'].get;
		expect(op.security).toEqual([{ bearerAuth: ['widgets:read'] }, { oauth2: ['widgets:read'] }]);
		expect(op.parameters).toEqual([expect.objectContaining({ name: 'widgetId', in: 'path', required: true })]);
	});
});
