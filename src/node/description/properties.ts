import type { DisplayCondition, INodeProperties } from 'n8n-workflow';

import { endpointsOfNode, type Endpoint, type FieldSpec, type NodeName } from '../../catalog';
import { toolOnlyProperties } from '../../agents/tool-call';
import { estimateToolDescriptionOf, toolDescriptionOf } from '../../agents/tool-description';
import { listOptionProperties } from '../../runs/list-options';
import { authenticationProperty, credentialsOfNodes } from '../../credentials/authentication';
import { alphabetical, show, showOwn, titleCase } from './display';
import { additionalFieldsProperty, fieldProperty, mediaProperties } from './fields';
import { modelProperty } from './model';
import { operationChoices, resourcesOf } from './operations';
import { rerunOptionsProperty, runOptionProperties } from './run-options';

// A node's description from its catalog entries: authentication, resource and operation menus,
// each operation's fields and options, and the shapes older node versions keep.

export { credentialsOfNodes };

function endpointProperties(e: Endpoint): INodeProperties[] {
	const props: INodeProperties[] = [];
	if (e.capability) props.push(modelProperty(e));
	const topLevel = e.fields.filter((f) => f.required || f.primary);
	const optional = e.fields.filter((f) => !(f.required || f.primary));
	for (const field of topLevel) {
		if (field.type === 'media' || field.type === 'mediaList')
			props.push(...mediaProperties(field, e, false));
		else props.push({ ...fieldProperty(field, false), displayOptions: show(e) });
	}
	if (optional.length) props.push(additionalFieldsProperty(e, optional, show(e), alphabetical));
	if (e.output === 'run' || e.output === 'batch') props.push(...runOptionProperties(e));
	else if (e.rerun) props.push(rerunOptionsProperty(e));
	if (e.output === 'list') props.push(...listOptionProperties((extra) => showOwn(e, extra)));
	return props;
}

/**
 * The description an AI agent reads, per operation, shown only on the node's tool variant
 * (`@tool`). n8n's own "Set Automatically" text is just the operation's action ("Generate images
 * from a prompt in MediaGen Image"); with this parameter present n8n adds none of its own.
 */
function toolDescriptionProperty(e: Endpoint): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: e.estimates ? estimateToolDescriptionOf(e, e) : toolDescriptionOf(e),
		description:
			'What the AI agent reads about this tool: written for the operation (cost, duration, inputs, answer). Edit it to steer the agent.',
		displayOptions: { show: { '@tool': [true], resource: [e.resource], operation: [e.operation] } },
	};
}

/**
 * How an operation looked before a node version changed it: the catalog describes the newest
 * version; workflows saved with an older one keep their shape (n8n omits parameters at their
 * defaults, so a changed default or a field moved out of Additional Fields would change them).
 */
export interface EarlierShape {
	/** the node version that changed it: versions below it keep this shape */
	changedIn: number;
	resource: string;
	operation: string;
	/** per API field name, what it was */
	fields: Record<string, Pick<FieldSpec, 'primary' | 'default'>>;
}

/**
 * The same properties, shown only from (or only below) a node version. A property that names its
 * own versions (Simplify, from SIMPLIFY_SINCE) keeps them above the change, and is left out below
 * it: every shape change so far (1.1) comes before SIMPLIFY_SINCE.
 */
function forVersions(
	props: INodeProperties[],
	versions: DisplayCondition,
	below: boolean,
): INodeProperties[] {
	return props
		.filter((p) => !(below && p.displayOptions?.show?.['@version']))
		.map((p) => ({
			...p,
			displayOptions: {
				...p.displayOptions,
				show: {
					...p.displayOptions?.show,
					'@version': p.displayOptions?.show?.['@version'] ?? [versions],
				},
			},
		}));
}

function versionedEndpointProperties(e: Endpoint, earlier: EarlierShape[]): INodeProperties[] {
	const shape = earlier.find((s) => s.resource === e.resource && s.operation === e.operation);
	if (!shape) return endpointProperties(e);
	const before: Endpoint = {
		...e,
		fields: e.fields.map((f) => ({ ...f, ...shape.fields[f.name] })),
	};
	return [
		...forVersions(endpointProperties(before), { _cnd: { lt: shape.changedIn } }, true),
		...forVersions(endpointProperties(e), { _cnd: { gte: shape.changedIn } }, false),
	];
}

/** All parameters of a node, derived from its catalog entries (and the shapes older versions keep). */
export function nodeProperties(
	node: NodeName,
	resourceNames: Record<string, string>,
	earlier: EarlierShape[] = [],
): INodeProperties[] {
	const endpoints = endpointsOfNode(node);
	const resources = resourcesOf(endpoints);
	const props: INodeProperties[] = [
		authenticationProperty,
		{
			displayName: 'Resource',
			name: 'resource',
			// one resource: nothing to choose, so not shown; it still holds the value that routes the
			// operations, and its option names the panel's "<Resource> Actions" group
			type: resources.length === 1 ? 'hidden' : 'options',
			noDataExpression: true,
			options: resources.map((r) => ({ name: resourceNames[r] ?? titleCase(r), value: r })),
			default: resources[0],
		},
	];
	for (const resource of resources) {
		const ops = endpoints.filter((e) => e.resource === resource);
		props.push({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: operationChoices(ops).map((c) => c.option),
			// the first catalog entry, as before: a saved workflow omits a parameter at its default
			default: ops[0].operation,
		});
	}
	for (const e of endpoints) props.push(toolDescriptionProperty(e));
	// an Estimate Cost shows the fields of the operation it prices (operationsOf), not fields of its own
	for (const e of endpoints)
		if (!e.estimates)
			props.push(...versionedEndpointProperties(e, earlier), ...toolOnlyProperties(e));
	return props;
}
