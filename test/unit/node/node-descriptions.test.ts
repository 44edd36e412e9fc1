/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	NodeHelpers,
	type IDataObject,
	type INode,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeType,
} from 'n8n-workflow';

import { endpointsOfNode, type Endpoint, type NodeName } from '../../../src/catalog';
import { paramName } from '../../../src/node/description/param-names';
import { evaluateForNode } from '../../helpers/n8n-harness';

/** Every action node built from the catalog, loaded from nodes/. */
function actionNodes(): Array<[string, INodeType]> {
	const dir = join(__dirname, '..', '..', '..', 'nodes');
	return readdirSync(dir)
		.filter((name) => !name.endsWith('Trigger'))
		.map((name) => {
			// eslint-disable-next-line @typescript-eslint/no-require-imports -- every folder under nodes/ is loaded by name
			const module = require(join(dir, name, `${name}.node.ts`)) as Record<
				string,
				new () => INodeType
			>;
			return [name, new module[name]()] as [string, INodeType];
		});
}

const optionsOf = (p: INodeProperties) => (p.options ?? []) as INodePropertyOptions[];

describe.each(actionNodes())('%s description', (name, node) => {
	const properties = node.description.properties as INodeProperties[];

	it('offers every catalog operation of the node under its resource', () => {
		const resources = optionsOf(properties.find((p) => p.name === 'resource')!).map((o) => o.value);
		for (const e of endpointsOfNode(name as NodeName)) {
			expect(resources).toContain(e.resource);
			const operations = properties.filter(
				(p) =>
					p.name === 'operation' &&
					(p.displayOptions?.show?.resource as string[]).includes(e.resource),
			);
			expect(operations).toHaveLength(1);
			expect(optionsOf(operations[0]).map((o) => o.value)).toContain(e.operation);
		}
	});

	it('gives every fixed dropdown a default among its choices (also inside collections)', () => {
		const check = (p: INodeProperties) => {
			if (p.type === 'options' && !p.typeOptions?.loadOptionsMethod) {
				expect({ name: p.name, default: optionsOf(p).some((o) => o.value === p.default) }).toEqual({
					name: p.name,
					default: true,
				});
			}
			if (p.type === 'collection') for (const inner of p.options as INodeProperties[]) check(inner);
		};
		properties.forEach(check);
	});

	it('resolves the parameters of every operation with n8n (defaults, display options)', () => {
		for (const e of endpointsOfNode(name as NodeName)) {
			const values = NodeHelpers.getNodeParameters(
				properties,
				{ resource: e.resource, operation: e.operation },
				true,
				false,
				{ typeVersion: 1 } as INode,
				node.description,
			);
			expect(values).toEqual(
				expect.objectContaining({ resource: e.resource, operation: e.operation }),
			);
		}
	});

	it('shows a Resource dropdown only when there is a choice; a single resource still routes, from its default', () => {
		const resource = properties.find((p) => p.name === 'resource')!;
		const resources = new Set(endpointsOfNode(name as NodeName).map((e) => e.resource));
		expect({ resources: resources.size, type: resource.type }).toEqual({
			resources: resources.size,
			type: resources.size === 1 ? 'hidden' : 'options',
		});
		if (resources.size > 1) return;
		// what a saved workflow holds when nothing but the operation was changed (n8n omits defaults)
		for (const e of endpointsOfNode(name as NodeName)) {
			const values = NodeHelpers.getNodeParameters(
				properties,
				{ operation: e.operation },
				true,
				false,
				{ typeVersion: 1 } as INode,
				node.description,
			);
			expect(values).toEqual(
				expect.objectContaining({ resource: e.resource, operation: e.operation }),
			);
			if (e.capability) expect(values).toHaveProperty('model');
		}
	});

	it('never shows two parameters of one name at once', () => {
		for (const e of endpointsOfNode(name as NodeName)) {
			const visible = properties.filter((p) => {
				const show = p.displayOptions?.show;
				if (!show) return true;
				if (show.resource && !(show.resource as string[]).includes(e.resource)) return false;
				if (show.operation && !(show.operation as string[]).includes(e.operation)) return false;
				// parameters that also depend on another choice (URL vs binary source, Return All) are alternatives
				return Object.keys(show).every((k) => k === 'resource' || k === 'operation');
			});
			const names = visible.map((p) => p.name);
			expect({
				op: `${e.resource}.${e.operation}`,
				duplicates: names.filter((n, i) => names.indexOf(n) !== i),
			}).toEqual({ op: `${e.resource}.${e.operation}`, duplicates: [] });
		}
	});
});

const REPO = join(__dirname, '..', '..', '..');

/** Every node in nodes/ (the trigger too), with its codex file. */
function allNodes(): Array<[string, INodeType, Codex]> {
	const dir = join(REPO, 'nodes');
	return readdirSync(dir).map((name) => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- every folder under nodes/ is loaded by name
		const module = require(join(dir, name, `${name}.node.ts`)) as Record<
			string,
			new () => INodeType
		>;
		const codex = JSON.parse(readFileSync(join(dir, name, `${name}.node.json`), 'utf8')) as Codex;
		return [name, new module[name](), codex];
	});
}

interface Codex {
	node: string;
	categories: string[];
	subcategories?: Record<string, string[]>;
	alias?: string[];
	resources: {
		primaryDocumentation: Array<{ url: string }>;
		credentialDocumentation: Array<{ url: string }>;
	};
}

/**
 * n8n's node categories, as n8n 2.41.1's own codex files use them (n8n-nodes-base: Development 119,
 * Communication 109, Data & Storage 62, Marketing 54, Productivity 51, Sales 46, Utility 24, Finance &
 * Accounting 16, Miscellaneous 15, Analytics 13). "Core Nodes" and "HITL" are n8n's own; "AI" hides a
 * node from the normal search of n8n 2.41's node panel unless it has AI subcategories.
 */
const N8N_CATEGORIES = [
	'Analytics',
	'Communication',
	'Data & Storage',
	'Development',
	'Finance & Accounting',
	'Marketing',
	'Miscellaneous',
	'Productivity',
	'Sales',
	'Utility',
];

/** The anchors GitHub gives the README's headings. */
function readmeAnchors(): Set<string> {
	const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
	return new Set(
		[...readme.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
			m[1]
				.trim()
				.toLowerCase()
				.replace(/[^\p{L}\p{N}\s_-]/gu, '')
				.replace(/\s/g, '-'),
		),
	);
}

const iconFiles = (node: INodeType) => {
	const icon = node.description.icon as { light: string; dark: string };
	return [icon.light, icon.dark].map((file) =>
		join(REPO, 'nodes', 'X', file.replace(/^file:/, '')),
	);
};

/** Every tooltip n8n shows for a node's parameters: their descriptions and their choices' descriptions. */
function descriptionsOf(properties: INodeProperties[]): string[] {
	return properties.flatMap((p) => [
		p.description ?? '',
		...(
			(p.options ?? []) as Array<
				INodePropertyOptions | INodeProperties | { values: INodeProperties[] }
			>
		).flatMap((o) =>
			'values' in o
				? descriptionsOf(o.values)
				: 'displayName' in o
					? descriptionsOf([o])
					: [o.description ?? ''],
		),
	]);
}

describe('what n8n shows of each node: panel, canvas, docs', () => {
	const nodes = allNodes();

	it.each(nodes)(
		'%s: codex categories from n8n’s list, never AI without AI subcategories, with search aliases',
		(_name, node, codex) => {
			expect(codex.node).toBe(`n8n-nodes-mediagen.${node.description.name}`);
			expect(codex.categories.length).toBeGreaterThan(0);
			for (const category of codex.categories) expect(N8N_CATEGORIES).toContain(category);
			if (codex.categories.includes('AI'))
				expect(codex.subcategories?.AI?.length).toBeGreaterThan(0);
			expect(codex.alias?.length).toBeGreaterThan(0);
		},
	);

	it('no two nodes share a search alias: n8n ranks an exact alias above a display name, so a shared one ("video" on Lip Sync and Video) lets the wrong node come first (seen in the editor)', () => {
		const owners = new Map<string, string[]>();
		for (const [name, , codex] of nodes)
			for (const alias of codex.alias ?? [])
				owners.set(alias.toLowerCase(), [...(owners.get(alias.toLowerCase()) ?? []), name]);
		expect([...owners].filter(([, names]) => names.length > 1)).toEqual([]);
	});

	it.each(nodes)(
		'%s: the Docs link is a README heading that exists, with no query to break the anchor',
		(_name, node, codex) => {
			const anchors = readmeAnchors();
			// n8n's Docs button uses documentationUrl as it is; the codex URL would get "?utm_…" appended after the "#"
			const url = node.description.documentationUrl!;
			expect(url).toBe(codex.resources.primaryDocumentation[0].url);
			const [, anchor] = url.split('#');
			expect(anchors).toContain(anchor);
			for (const { url: credentialUrl } of codex.resources.credentialDocumentation)
				expect(anchors).toContain(credentialUrl.split('#')[1]);
		},
	);

	it.each(nodes)('%s: its own icon, in a light and a dark variant that exist', (_name, node) => {
		const [light, dark] = iconFiles(node);
		expect(light).not.toBe(dark);
		for (const file of [light, dark]) {
			expect(existsSync(file)).toBe(true);
			expect(readFileSync(file, 'utf8')).toMatch(/^<svg [^>]*viewBox="0 0 60 60"/);
		}
	});

	it('no two nodes share an icon, so a canvas tells them apart', () => {
		const used = nodes.map(([, node]) => iconFiles(node)[0]);
		expect(new Set(used).size).toBe(nodes.length);
		const drawings = used.map((file) => readFileSync(file, 'utf8'));
		expect(new Set(drawings).size).toBe(nodes.length);
	});

	it('the nodes still read as one service: every icon carries the same MediaGen spark', () => {
		const spark = (svg: string) =>
			/<path d="(M48 2[^"]+)" fill="#[0-9a-f]{6}"\/><\/svg>/.exec(svg)?.[1];
		const sparks = nodes.flatMap(([, node]) =>
			iconFiles(node).map((file) => spark(readFileSync(file, 'utf8'))),
		);
		expect(sparks.every((s) => s !== undefined)).toBe(true);
		expect(new Set(sparks).size).toBe(1);
	});

	it.each(actionNodes())(
		'%s: no "Name or ID" labels and no API paths in labels or hints',
		(_name, node) => {
			// labels and hints; a placeholder may show the form a value takes
			const visible: string[] = [];
			const collect = (p: INodeProperties) => {
				visible.push(p.displayName, p.hint ?? '');
				if (p.type === 'collection') (p.options as INodeProperties[]).forEach(collect);
			};
			(node.description.properties as INodeProperties[]).forEach(collect);
			expect(visible.filter((text) => /Name or ID/.test(text))).toEqual([]);
			expect(visible.filter((text) => /\b(GET|POST|PATCH|DELETE) \//.test(text))).toEqual([]);
			// hints are read under the field: no API field names (image_url, duration_seconds…) there
			const hints = visible.filter((_text, i) => i % 2 === 1);
			expect(hints.filter((text) => /\b[a-z0-9]+_[a-z0-9_]+\b/.test(text))).toEqual([]);
		},
	);

	it.each(nodes)(
		'%s: descriptions (tooltips) speak plain words; an API name only closes a sentence as "(API: …)"',
		(_name, node) => {
			const mentions = (text: string) =>
				text
					// a value the user types or an output field they read is quoted: "image_generation", "play_url"
					.replace(/"[^"]*"/g, '""')
					// for people who read the API document, the API name may close a sentence
					.replace(/ \(API: [^()]+\)(?=[.;,]|$)/g, '')
					.match(/\b[a-z0-9]+_[a-z0-9_]+\b|\b(GET|POST|PUT|PATCH|DELETE) \//g) ?? [];
			const offending: string[] = [];
			for (const text of descriptionsOf(node.description.properties as INodeProperties[]))
				if (mentions(text).length) offending.push(text);
			expect(offending).toEqual([]);
		},
	);

	it.each(actionNodes())(
		'%s: a number the chosen model bounds says where its limit shows, that the node checks it before sending and charges nothing when it refuses',
		(name, node) => {
			const properties = node.description.properties as INodeProperties[];
			const shownFor = (p: INodeProperties, e: Endpoint) =>
				(p.displayOptions?.show?.resource as string[] | undefined)?.includes(e.resource) &&
				(p.displayOptions?.show?.operation as string[] | undefined)?.includes(e.operation);
			for (const e of endpointsOfNode(name as NodeName)) {
				for (const field of e.fields.filter(
					(f) => (f.type === 'number' || f.type === 'integer') && f.limit,
				)) {
					const inCollections = properties
						.filter((p) => p.type === 'collection' && shownFor(p, e))
						.flatMap((p) => p.options as INodeProperties[]);
					const shown = [...properties.filter((p) => shownFor(p, e)), ...inCollections].filter(
						(p) => p.name === paramName(field),
					);
					expect(shown.length).toBeGreaterThan(0);
					for (const p of shown)
						expect({ field: field.name, description: p.description }).toEqual({
							field: field.name,
							description: expect.stringMatching(
								/Model list gives its limit for this field.*checks the value against the chosen model before sending.*nothing is charged\.$/,
							),
						});
				}
			}
		},
	);

	it.each(actionNodes())(
		'%s: the Model is a searchable list or an ID (resource locator), like n8n’s OpenAI node',
		(name, node) => {
			const models = endpointsOfNode(name as NodeName)
				.filter((e) => e.capability)
				.map((e) =>
					(node.description.properties as INodeProperties[]).find(
						(p) =>
							p.name === 'model' &&
							(p.displayOptions?.show?.operation as string[]).includes(e.operation),
					),
				);
			for (const model of models) {
				if (!model) throw new Error('an operation with a capability has no Model parameter');
				expect(model.displayName).toBe('Model');
				expect(model.type).toBe('resourceLocator');
				expect(model.default).toEqual({ mode: 'list', value: '' });
				expect(model.modes?.map((m) => [m.name, m.displayName])).toEqual([
					['list', 'From List'],
					['id', 'By ID'],
				]);
				expect(model.modes?.[0].typeOptions?.searchListMethod).toBe('searchModels');
				expect(typeof node.methods?.listSearch?.searchModels).toBe('function');
			}
		},
	);

	it.each(actionNodes())(
		'%s: every choice that follows the model reloads when the model changes, through a method of the node',
		(_name, node) => {
			const check = (p: INodeProperties) => {
				const method = p.typeOptions?.loadOptionsMethod;
				if (method?.startsWith('choicesFor_')) {
					expect({ name: p.name, dependsOn: p.typeOptions?.loadOptionsDependsOn }).toEqual({
						name: p.name,
						dependsOn: ['model.value'],
					});
					expect(method).toBe(`choicesFor_${p.name}`);
					expect(typeof node.methods?.loadOptions?.[method]).toBe('function');
				}
				if (p.type === 'collection') (p.options as INodeProperties[]).forEach(check);
			};
			(node.description.properties as INodeProperties[]).forEach(check);
		},
	);

	it.each(actionNodes())(
		'%s: the same parameter name never takes its choices from two different model limits',
		(name) => {
			const rules = new Map<string, string>();
			for (const e of endpointsOfNode(name as NodeName)) {
				for (const f of e.fields) {
					if (f.limit?.kind !== 'oneOf' || (f.type !== 'options' && f.type !== 'multiOptions'))
						continue;
					const rule = `${f.type}:${f.limit.keys.join(',')}`;
					expect({ field: f.name, rule: rules.get(f.name) ?? rule }).toEqual({
						field: f.name,
						rule,
					});
					rules.set(f.name, rule);
				}
			}
		},
	);
});

/** The operations of one resource as the node panel lists them. */
function operationsOf(node: INodeType, resource: string): INodePropertyOptions[] {
	const operation = (node.description.properties as INodeProperties[]).find(
		(p) =>
			p.name === 'operation' && (p.displayOptions?.show?.resource as string[]).includes(resource),
	)!;
	return operation.options as INodePropertyOptions[];
}

describe('the main action first, the cost estimates after the real actions', () => {
	const nodes = Object.fromEntries(actionNodes());

	it.each([
		['MediaGenImage', 'image', 'Generate images from a prompt'],
		['MediaGenVideo', 'video', 'Generate a video'],
		['MediaGenAudio', 'audio', 'Generate speech'],
		['MediaGenLipSync', 'lipSync', 'Lip-sync a face to audio'],
		['MediaGenModel3D', 'model3d', 'Generate a 3D model from images'],
		['MediaGenWorkflow', 'workflow', 'Create a storyboard'],
		['MediaGenBatch', 'batch', 'Create a batch from the input items'],
		['MediaGenRun', 'run', 'Wait for a run to finish'],
		['MediaGenProducer', 'facelessReel', 'Generate a faceless reel'],
	])('%s (%s) leads with "%s"', (name, resource, action) => {
		expect(operationsOf(nodes[name], resource)[0].action).toBe(action);
	});

	it.each(actionNodes())('%s: no estimate before a real action, in any resource', (name, node) => {
		for (const resource of new Set(endpointsOfNode(name as NodeName).map((e) => e.resource))) {
			const names = operationsOf(node, resource).map((o) => o.name);
			const firstEstimate = names.findIndex((n) => n.startsWith('Estimate'));
			if (firstEstimate >= 0)
				expect({
					resource,
					after: names.slice(firstEstimate).filter((n) => !n.startsWith('Estimate')),
				}).toEqual({ resource, after: [] });
		}
	});

	it('typed workflows come before Run Any Workflow (raw JSON inputs)', () => {
		const names = operationsOf(nodes.MediaGenWorkflow, 'workflow').map((o) => o.name);
		expect(names.indexOf('Generate Product Ad Variants')).toBeLessThan(
			names.indexOf('Run Any Workflow'),
		);
		expect(names.indexOf('Run Any Workflow')).toBeLessThan(names.indexOf('Get'));
	});

	it.each(actionNodes())(
		'%s: each operation has an action label for the node panel',
		(name, node) => {
			for (const resource of new Set(endpointsOfNode(name as NodeName).map((e) => e.resource))) {
				for (const option of operationsOf(node, resource))
					expect(option.action).toMatch(/^[A-Z][^.]+$/);
			}
		},
	);

	it.each(actionNodes())(
		'%s: the default operation stays the first catalog entry (saved workflows omit defaults)',
		(name, node) => {
			for (const resource of new Set(endpointsOfNode(name as NodeName).map((e) => e.resource))) {
				const operation = (node.description.properties as INodeProperties[]).find(
					(p) =>
						p.name === 'operation' &&
						(p.displayOptions?.show?.resource as string[]).includes(resource),
				)!;
				expect(operation.default).toBe(
					endpointsOfNode(name as NodeName).find((e) => e.resource === resource)!.operation,
				);
			}
		},
	);
});

describe('canvas subtitles read like the panel ("Generate: Image"), not like values', () => {
	const nodes = Object.fromEntries(actionNodes());
	const subtitle = (name: string, parameters: IDataObject) =>
		evaluateForNode({ nodeType: nodes[name], parameters }, nodes[name].description.subtitle!);

	it.each([
		['MediaGenImage', { resource: 'image', operation: 'generate' }, 'Generate: Image'],
		[
			'MediaGenImage',
			{ resource: 'image', operation: 'generateEstimateCost' },
			'Estimate Generate Cost: Image',
		],
		['MediaGenProduct', { resource: 'product', operation: 'extract' }, 'Extract From URL: Product'],
		[
			'MediaGenWorkflow',
			{ resource: 'workflow', operation: 'generateProductAdVariants' },
			'Generate Product Ad Variants: Workflow',
		],
		['MediaGenAudio', { resource: 'voice', operation: 'list' }, 'List: Voice'],
		// operations named by what they make read as what the node does, not "Speech: Audio"
		['MediaGenAudio', { resource: 'audio', operation: 'speech' }, 'Generate: Speech'],
		['MediaGenAudio', {}, 'Generate: Speech'],
		['MediaGenAudio', { resource: 'audio', operation: 'soundEffect' }, 'Generate: Sound Effect'],
		['MediaGenAudio', { resource: 'audio', operation: 'convertVoice' }, 'Convert: Voice'],
		['MediaGenAudio', { resource: 'audio', operation: 'transcribe' }, 'Transcribe: Audio'],
		[
			'MediaGenAudio',
			{ resource: 'audio', operation: 'speechEstimateCost' },
			'Estimate Speech Cost: Audio',
		],
		['MediaGenAccount', { resource: 'upload', operation: 'create' }, 'Upload: File'],
		// parameters left at their defaults are not saved: the subtitle reads n8n's defaults
		['MediaGenImage', {}, 'Generate: Image'],
	])('%s %j → %s', (name, parameters, expected) => {
		expect(subtitle(name, parameters)).toBe(expected);
	});

	it.each(actionNodes())(
		'%s: every operation of every resource has a readable subtitle',
		(name, node) => {
			for (const resource of new Set(endpointsOfNode(name as NodeName).map((e) => e.resource))) {
				const resourceName = String(
					optionsOf(
						(node.description.properties as INodeProperties[]).find((p) => p.name === 'resource')!,
					).find((o) => o.value === resource)!.name,
				);
				for (const option of operationsOf(node, resource)) {
					const text = String(subtitle(name, { resource, operation: option.value }));
					const [what, on] = text.split(': ');
					// the panel's pair, or one worded by the verb of the operation's action ("Generate speech" → "Generate: Speech")
					if (text !== `${option.name}: ${resourceName}`)
						expect({ text, verb: what.toLowerCase() }).toEqual({
							text,
							verb: option.action!.split(' ')[0].toLowerCase(),
						});
					expect({ text, repeats: what === on }).toEqual({ text, repeats: false });
				}
			}
		},
	);
});

describe('the trigger says what it does, in the panel and on the canvas', () => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the node file, loaded by path
	const { MediaGenTrigger } = require(
		join(REPO, 'nodes', 'MediaGenTrigger', 'MediaGenTrigger.node.ts'),
	) as { MediaGenTrigger: new () => INodeType };
	const trigger = new MediaGenTrigger();
	const properties = trigger.description.properties as INodeProperties[];

	it('lists its events by name on the canvas', () => {
		const subtitle = (events: string[]) =>
			evaluateForNode({ nodeType: trigger, parameters: { events } }, trigger.description.subtitle!);
		expect(subtitle(['run.completed', 'batch.failed'])).toBe('Run Completed, Batch Failed');
		expect(subtitle([])).toBe('');
	});

	it('is listed as "MediaGen Trigger" and added with Run Completed: its events are no panel actions, the generation event comes first', () => {
		// n8n 2.41 (useActionsGeneration.ts, triggersCategory) makes panel actions of a trigger's field
		// labelled one of these, and then lists the trigger without "Trigger" (NodeItem.vue)
		const actionLabels = ['event', 'events', 'trigger on'];
		expect(
			properties
				.filter((p) => actionLabels.includes(p.displayName.toLowerCase()))
				.map((p) => p.displayName),
		).toEqual([]);
		const field = properties.find((p) => p.name === 'events')!;
		const events = optionsOf(field);
		expect(events.map((o) => o.value)).toEqual([
			'run.completed',
			'run.failed',
			'batch.completed',
			'batch.failed',
		]);
		expect(field.default).toEqual(['run.completed']);
		for (const o of events) expect(o.description).not.toMatch(/reached/);
	});

	it('tells up front that it registers the webhook for the user and which scopes the credential needs', () => {
		const notice = properties[0];
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toMatch(/registers this workflow’s webhook with MediaGen for you/);
		expect(notice.displayName).toContain('webhooks:read and webhooks:write');
		// what publishing does where the service cannot reach n8n (src/webhooks/reachability.ts)
		expect(notice.displayName).toContain(
			'Where the service cannot reach this n8n (a local address, a name it cannot resolve), publishing fails and says why: MediaGen Polling Trigger needs no inbound connection.',
		);
	});

	it('replaces n8n’s generic "create an event in MediaGen" texts with its own', () => {
		expect(trigger.description.eventTriggerDescription).toBe(
			'Waiting for a MediaGen run or batch to finish',
		);
		const panel = trigger.description.triggerPanel as {
			header: string;
			executionsHelp: { active: string; inactive: string };
			activationHint: string;
		};
		expect(panel.header).toMatch(/MediaGen finishes a run or a batch/);
		expect(panel.executionsHelp.inactive).toMatch(/registers a test URL with MediaGen for you/);
		expect(panel.executionsHelp.active).toContain('data-key="executions"');
		expect(panel.activationHint).toMatch(/publish it/);
	});
});
