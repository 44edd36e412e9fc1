import { endpointKey, type Endpoint } from './types';

/** The price of a run needs a model: model-aware generating operations offer an estimate. */
export function offersEstimate(endpoint: Endpoint): boolean {
	return (
		endpoint.output === 'run' &&
		endpoint.capability !== undefined &&
		endpoint.estimates === undefined
	);
}

/** A request that spends credits: a generating submit, a batch of them, or a failed job run again. */
export function spendsCredits(endpoint: Endpoint): boolean {
	return (
		endpoint.method === 'POST' &&
		(endpoint.output === 'run' || endpoint.output === 'batch' || endpoint.rerun === true)
	);
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/**
 * The "Estimate … Cost" operation of a generating operation, as data: the same fields and model,
 * sent to `POST /models/estimate-cost` (the node adds the resolved model); its output is the quote.
 */
export function estimateOperation(priced: Endpoint): Endpoint {
	return {
		node: priced.node,
		resource: priced.resource,
		method: 'POST',
		path: '/models/estimate-cost',
		scope: 'models:read',
		idempotency: 'none',
		auth: 'bearer',
		operation: `${priced.operation}EstimateCost`,
		name: `Estimate ${priced.name} Cost`,
		action: `Estimate the cost to ${lowerFirst(priced.action)}`,
		description: `Credits and a quote token for ${priced.name} with these parameters (nothing is generated)`,
		capability: priced.capability,
		fields: priced.fields,
		output: 'object',
		estimates: endpointKey(priced),
	};
}
