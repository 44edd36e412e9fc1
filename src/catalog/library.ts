import type { Endpoint, FieldSpec, HttpMethod, OutputKind } from './types';

/**
 * Supporting objects of the Library node: influencers, teams, projects, elements, brands and
 * moodboards. Their request fields are the project's choice where the API document shows none
 * (docs/request-fields.md).
 */

const id = (name: string, displayName: string): FieldSpec => ({ name, displayName, type: 'string', required: true, default: '' });
const text = (name: string, displayName: string, description?: string): FieldSpec => ({ name, displayName, type: 'string', default: '', description });
const longText = (name: string, displayName: string): FieldSpec => ({ name, displayName, type: 'text', default: '' });
const name = (displayName = 'Name'): FieldSpec => ({ name: 'name', displayName, type: 'string', required: true, default: '' });

function entry(
	resource: string,
	method: HttpMethod,
	path: string,
	scope: string,
	operation: string,
	opName: string,
	action: string,
	description: string,
	output: OutputKind,
	fields: FieldSpec[] = [],
	idempotency: Endpoint['idempotency'] = 'none',
): Endpoint {
	return { node: 'MediaGenLibrary', auth: 'bearer', resource, method, path, scope, operation, name: opName, action, description, output, fields, idempotency };
}

const influencerId = id('influencerId', 'Influencer ID');
const projectId = id('projectId', 'Project ID');
const elementId = id('elementId', 'Element ID');
const brandId = id('brandId', 'Brand ID');

const influencers: Endpoint[] = [
	entry('influencer', 'GET', '/influencers', 'influencers:read', 'list', 'List', 'List influencers', 'Influencers; only ready ones can be mentioned in image prompts', 'list', [
		{
			name: 'status',
			displayName: 'Status',
			type: 'options',
			default: '',
			options: [{ name: 'Any', value: '' }, ...['draft', 'ready', 'archived'].map((v) => ({ name: v, value: v }))],
		},
	]),
	entry('influencer', 'GET', '/influencers/{influencerId}', 'influencers:read', 'get', 'Get', 'Get an influencer', 'An influencer and its status', 'object', [influencerId]),
	entry(
		'influencer',
		'POST',
		'/influencers',
		'influencers:write',
		'create',
		'Create',
		'Create an influencer',
		'Trains an influencer from photos or generates a face; it is draft until ready',
		'object',
		[
			{ ...text('handle', 'Handle', 'Without the leading @: letters, digits and underscores'), required: true },
			{ ...text('display_name', 'Display Name'), primary: true },
			{
				name: 'source_type',
				displayName: 'Source',
				type: 'options',
				primary: true,
				default: 'uploaded',
				options: [
					{ name: 'Uploaded Photos', value: 'uploaded' },
					{ name: 'Generated Face', value: 'generated' },
				],
			},
			{ name: 'image_urls', displayName: 'Photos', type: 'mediaList', default: [], description: 'Photos to train from (uploaded source)' },
			longText('description', 'Face Description'),
		],
		'required',
	),
];

const teams: Endpoint[] = [
	entry('team', 'GET', '/teams', 'teams:read', 'list', 'List', 'List teams', 'Workspaces you belong to, with your role and the pool balance', 'list'),
	entry('team', 'GET', '/teams/{teamId}', 'teams:read', 'get', 'Get', 'Get a team', 'A workspace', 'object', [id('teamId', 'Team ID')]),
];

const projects: Endpoint[] = [
	entry('project', 'GET', '/projects', 'projects:read', 'list', 'List', 'List projects', 'Projects that hold generated outputs', 'list'),
	entry('project', 'GET', '/projects/{projectId}', 'projects:read', 'get', 'Get', 'Get a project', 'A project with its items', 'object', [projectId]),
	entry('project', 'POST', '/projects', 'projects:write', 'create', 'Create', 'Create a project', 'A new project', 'object', [name(), longText('description', 'Description')]),
	entry('project', 'PATCH', '/projects/{projectId}', 'projects:write', 'update', 'Update', 'Update a project', 'Rename a project or change its description', 'object', [
		projectId,
		text('name', 'Name'),
		longText('description', 'Description'),
	]),
	entry('project', 'DELETE', '/projects/{projectId}', 'projects:write', 'delete', 'Delete', 'Delete a project', 'Deletes the project (the runs stay)', 'empty', [projectId]),
	entry('project', 'POST', '/projects/{projectId}/items', 'projects:write', 'addItems', 'Add Items', 'Add items to a project', 'Files the outputs of runs in the project', 'object', [
		projectId,
		{ name: 'run_ids', displayName: 'Run IDs', type: 'stringList', required: true, default: [], description: 'Runs whose outputs go into the project' },
	]),
	entry('project', 'DELETE', '/projects/{projectId}/items', 'projects:write', 'removeItems', 'Remove Items', 'Remove items from a project', 'Takes runs out of the project', 'object', [
		projectId,
		{ name: 'run_ids', displayName: 'Run IDs', type: 'string', in: 'query', required: true, default: '', description: 'Comma-separated run IDs to take out' },
	]),
];

const elements: Endpoint[] = [
	entry('element', 'GET', '/elements', 'elements:read', 'list', 'List', 'List elements', 'Reusable characters, objects, locations and styles', 'list', [
		{
			name: 'type',
			displayName: 'Type',
			type: 'options',
			default: '',
			options: [{ name: 'Any', value: '' }, ...['character', 'object', 'location', 'style'].map((v) => ({ name: v, value: v }))],
		},
	]),
	entry('element', 'GET', '/elements/{elementId}', 'elements:read', 'get', 'Get', 'Get an element', 'An element', 'object', [elementId]),
	entry('element', 'POST', '/elements', 'elements:write', 'create', 'Create', 'Create an element', 'A reusable character, object, location or style', 'object', [
		name(),
		{
			name: 'type',
			displayName: 'Type',
			type: 'options',
			required: true,
			default: 'character',
			options: ['character', 'object', 'location', 'style'].map((v) => ({ name: v, value: v })),
		},
		longText('description', 'Description'),
		{ name: 'image_urls', displayName: 'Images', type: 'mediaList', default: [], description: 'Reference images of the element' },
	]),
	entry('element', 'DELETE', '/elements/{elementId}', 'elements:write', 'delete', 'Delete', 'Delete an element', 'Deletes the element', 'empty', [elementId]),
];

const brandFields = (required: boolean): FieldSpec[] => [
	required ? name() : text('name', 'Name'),
	text('website_url', 'Website URL'),
	longText('description', 'Description'),
	{ name: 'colors', displayName: 'Colors', type: 'stringList', default: [], description: 'Hex colors, e.g. #0A84FF' },
	{ name: 'fonts', displayName: 'Fonts', type: 'stringList', default: [] },
	text('logo_url', 'Logo URL'),
	text('tone', 'Tone of Voice'),
];

const brands: Endpoint[] = [
	entry('brand', 'GET', '/brands', 'brands:read', 'list', 'List', 'List brands', 'Brand kits', 'list'),
	entry('brand', 'GET', '/brands/{brandId}', 'brands:read', 'get', 'Get', 'Get a brand', 'A brand kit', 'object', [brandId]),
	entry('brand', 'POST', '/brands', 'brands:write', 'create', 'Create', 'Create a brand', 'A brand kit from its fields', 'object', brandFields(true)),
	entry('brand', 'PATCH', '/brands/{brandId}', 'brands:write', 'update', 'Update', 'Update a brand', 'Changes fields of a brand kit', 'object', [brandId, ...brandFields(false)]),
	entry('brand', 'DELETE', '/brands/{brandId}', 'brands:write', 'delete', 'Delete', 'Delete a brand', 'Deletes the brand kit', 'empty', [brandId]),
	entry('brand', 'POST', '/brands/ingestions', 'brands:write', 'ingest', 'Ingest From Website', 'Ingest a brand from a website', 'Reads colors, fonts, logo and tone from a website into a new brand (status ingesting, then ready)', 'object', [
		{ ...text('url', 'Website URL'), required: true },
		text('name', 'Name', 'Defaults to the site name'),
	]),
];

const moodboards: Endpoint[] = [
	entry('moodboard', 'GET', '/moodboards', 'moodboards:read', 'list', 'List', 'List moodboards', 'Your moodboards', 'list'),
	entry('moodboard', 'GET', '/moodboards/{moodboardId}', 'moodboards:read', 'get', 'Get', 'Get a moodboard', 'A moodboard with its images', 'object', [id('moodboardId', 'Moodboard ID')]),
	entry('moodboard', 'GET', '/moodboards/presets', 'moodboards:read', 'listPresets', 'List Presets', 'List moodboard presets', 'Ready-made moodboards to fork', 'list'),
	entry('moodboard', 'POST', '/moodboards/presets/{presetId}/fork', 'moodboards:read', 'forkPreset', 'Fork Preset', 'Fork a moodboard preset', 'Copies a preset into a moodboard of your own', 'object', [
		id('presetId', 'Preset ID'),
		text('name', 'Name', 'Defaults to the preset name'),
	]),
];

export const libraryEndpoints: Endpoint[] = [...influencers, ...teams, ...projects, ...elements, ...brands, ...moodboards];
