/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { API_RESOURCES, type Schema } from '../fixtures/api-resources';

/**
 * The hand transcription (test/fixtures/api-resources.ts) against the API document's own field
 * lists (test/fixtures/api-resources.md, a verbatim copy of "Resources and their fields"): every
 * field the document names is a property of the schema, and required unless the document says it is
 * optional.
 */

const text = readFileSync(join(__dirname, '..', 'fixtures', 'api-resources.md'), 'utf8');

/** The document's sections by heading ("### Run" → its lines). */
const sections = new Map(
	text
		.split(/^### /m)
		.slice(1)
		.map((chunk) => {
			const [heading, ...lines] = chunk.split('\n');
			return [heading.trim(), lines] as const;
		}),
);

/** Splits "a, b (x, y), c" at the commas outside parentheses. */
function topLevelItems(list: string): string[] {
	const items: string[] = [];
	let depth = 0;
	let current = '';
	for (const char of list) {
		if (char === '(') depth++;
		if (char === ')') depth--;
		if (char === ',' && depth === 0) {
			items.push(current.trim());
			current = '';
		} else current += char;
	}
	if (current.trim()) items.push(current.trim());
	return items;
}

interface DocumentField {
	name: string;
	optional: boolean;
}

/** Fields of a section's table: first column (names joined by ", " split apart); "(optional)" in the type, or a table that marks the others "(required)". */
function tableFields(heading: string): DocumentField[] {
	const rows = (sections.get(heading) ?? []).filter(
		(l) => l.startsWith('|') && !/^\|\s*(Field|---)/.test(l),
	);
	const marksRequired = rows.some((r) => r.includes('(required)') || r.includes('required)'));
	return rows.flatMap((row) => {
		const [, names, type, notes = ''] = row.split('|').map((c) => c.trim());
		const optional =
			type.includes('(optional)') || (marksRequired && !/required/.test(`${type} ${notes}`));
		return names.split(',').map((name) => ({ name: name.trim(), optional }));
	});
}

/** Fields of a "Fields: a, b (…), c." line or a "- X response (all required): …" bullet. */
function listedFields(line: string): DocumentField[] {
	const list = line.replace(/^.*?:\s/, '').replace(/\.\s.*$|\.$/, '');
	return topLevelItems(list).map((item) => ({ name: item.split(/[\s(]/)[0], optional: false }));
}

const line = (heading: string, start: string) =>
	(sections.get(heading) ?? []).find((l) => l.startsWith(start)) ?? '';

const DOCUMENT: Record<string, DocumentField[]> = {
	Error: tableFields('Error (problem document)'),
	OAuthToken: tableFields('OAuthToken'),
	Account: tableFields('Account'),
	CreditBalance: tableFields('CreditBalance'),
	Model: tableFields('Model (public alias)'),
	ModelPricingEntry: tableFields('ModelPricingEntry and ModelPricingList'),
	UsageSummary: tableFields('UsageSummary'),
	Run: tableFields('Run'),
	RunOutput: listedFields(line('RunOutput', 'Fields:')),
	Batch: tableFields('Batch'),
	BatchItem: listedFields(line('BatchItem', 'Fields:')),
	Workflow: listedFields(line('Workflow', 'Fields:')),
	WebhookEndpoint: tableFields('WebhookEndpoint'),
	WebhookDelivery: tableFields('WebhookDelivery'),
	Upload: tableFields('Upload'),
	Influencer: tableFields('Influencer'),
	CliAuthSessionStart: listedFields(line('CLI auth session objects', '- Start response')),
	CliAuthSessionStatus: listedFields(line('CLI auth session objects', '- Status response')),
	CliAuthSessionExchange: listedFields(line('CLI auth session objects', '- Exchange response')),
};

describe('the resource schemas are the API document transcribed', () => {
	it('reads a field list for every resource of the document', () => {
		for (const [name, fields] of Object.entries(DOCUMENT))
			expect({ name, fields: fields.length > 2 }).toEqual({ name, fields: true });
		expect(DOCUMENT.Run.map((f) => f.name)).toEqual(
			expect.arrayContaining(['created_at', 'updated_at', 'completed_at', 'endpoint']),
		);
		expect(DOCUMENT.Model.find((f) => f.name === 'capabilities')?.optional).toBe(true);
		expect(DOCUMENT.ModelPricingEntry.filter((f) => f.optional).map((f) => f.name)).toEqual([
			'notes',
		]);
	});

	it.each(Object.keys(DOCUMENT))(
		'%s has every field the document lists, required unless the document says optional',
		(name) => {
			const schema = API_RESOURCES[name] as Schema & {
				properties: Record<string, unknown>;
				required: string[];
			};
			expect(schema).toBeDefined();
			for (const field of DOCUMENT[name]) {
				expect({ field: field.name, property: field.name in schema.properties }).toEqual({
					field: field.name,
					property: true,
				});
				expect({ field: field.name, required: schema.required.includes(field.name) }).toEqual({
					field: field.name,
					required: !field.optional,
				});
			}
		},
	);

	it('has the Mention the Influencer section describes, both fields required', () => {
		expect(line('Influencer', 'List wrapper')).toContain('`handle` (string, required');
		expect(API_RESOURCES.Mention).toMatchObject({ required: ['handle', 'influencer_id'] });
	});

	it('lists the document enumerations: Run status, Batch status, delivery status, influencer status', () => {
		const enumOf = (resource: string, field: string) =>
			(
				(API_RESOURCES[resource] as { properties: Record<string, { enum?: string[] }> }).properties[
					field
				].enum ?? []
			).join(' ');
		expect(enumOf('Run', 'status')).toBe('queued processing completed failed');
		expect(enumOf('Batch', 'status')).toBe('queued processing completed failed partial');
		expect(enumOf('WebhookDelivery', 'status')).toBe('pending success failed');
		expect(enumOf('Influencer', 'status')).toBe('draft ready archived');
		expect(enumOf('WebhookEndpoint', 'status')).toBe('active disabled');
	});
});
