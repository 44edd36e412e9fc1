import type { INodePropertyOptions } from 'n8n-workflow';

import { endpointKey, endpointsOfNode, type Endpoint, type NodeName } from '../../catalog';
import { alphabetical, titleCase } from './display';

// A node's Operation menus: which operations, in which order, and the canvas subtitle that names
// the one picked.

interface OperationChoice {
	option: INodePropertyOptions & { name: string; value: string };
	endpoint: Endpoint;
	estimate: boolean;
}

/** Estimates price an action: the Estimate Cost pseudo-operations and the catalog's own estimate endpoints. */
const isEstimate = (choice: OperationChoice) =>
	choice.estimate || /^Estimate\b/.test(choice.option.name);
/** Operations whose inputs are a raw JSON object (Run Any Workflow, …): after the typed ones. */
const takesRawInputs = (e: Endpoint) => e.fields.some((f) => f.spread);
const makesSomething = (e: Endpoint) => e.output === 'run' || e.output === 'batch';

/**
 * The order of a resource's operations (n8n's node panel lists its actions in this order): what
 * makes something first, typed before raw-JSON ones, in catalog order (its main action leads);
 * then reading and managing, alphabetically; the cost estimates last.
 */
function operationRank(choice: OperationChoice): number {
	if (isEstimate(choice)) return 3;
	if (!makesSomething(choice.endpoint)) return 2;
	return takesRawInputs(choice.endpoint) ? 1 : 0;
}

export function operationChoices(endpoints: Endpoint[]): OperationChoice[] {
	const choices = endpoints.map((e) => ({
		option: { name: e.name, value: e.operation, action: e.action, description: e.description },
		endpoint: e,
		estimate: e.estimates !== undefined,
	}));
	// an estimate keeps the place of the operation it prices
	const priced = (e: Endpoint) =>
		e.estimates
			? (endpoints.find((p) => endpointKey(p) === e.estimates && p.resource === e.resource) ?? e)
			: e;
	const catalogOrder = (c: OperationChoice) => endpoints.indexOf(priced(c.endpoint));
	return choices.sort((a, b) => {
		const rank = operationRank(a) - operationRank(b);
		if (rank !== 0) return rank;
		if (operationRank(a) === 2) return alphabetical(a.option.name, b.option.name);
		return catalogOrder(a) - catalogOrder(b) || alphabetical(a.option.name, b.option.name);
	});
}

export const resourcesOf = (endpoints: Endpoint[]) => [
	...new Set(endpoints.map((e) => e.resource)),
];

/**
 * The canvas subtitle: the operation and resource as the user picked them ("Generate: Image"), not
 * their values. An expression looking the pair up in a fixed table, falling back to the value.
 * `worded` gives the subtitle of an operation whose panel name is a noun ("Speech" under Audio),
 * keyed "resource:operation": on the canvas it reads as what the node does ("Generate: Speech").
 */
export function operationSubtitle(
	node: NodeName,
	resourceNames: Record<string, string>,
	worded: Record<string, string> = {},
): string {
	const endpoints = endpointsOfNode(node);
	const labels: Record<string, string> = {};
	for (const resource of resourcesOf(endpoints)) {
		for (const { option } of operationChoices(endpoints.filter((e) => e.resource === resource))) {
			const key = `${resource}:${option.value}`;
			labels[key] =
				worded[key] ?? `${option.name}: ${resourceNames[resource] ?? titleCase(resource)}`;
		}
	}
	return `={{ ${JSON.stringify(labels)}[$parameter["resource"] + ":" + $parameter["operation"]] || $parameter["operation"] }}`;
}
