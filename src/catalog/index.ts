import { accountEndpoints } from './account';
import { imageEndpoints } from './images';
import { runEndpoints } from './runs';
import { endpointKey, type Endpoint, type NodeName } from './types';
import { webhookEndpoints } from './webhooks';

export * from './types';

/** Every endpoint the package knows, in one list. */
export const catalog: readonly Endpoint[] = [...accountEndpoints, ...runEndpoints, ...imageEndpoints, ...webhookEndpoints];

const byKey = new Map(catalog.map((e) => [endpointKey(e), e]));

export function endpointFor(method: string, path: string): Endpoint | undefined {
	return byKey.get(`${method} ${path}`);
}

export function endpointsOfNode(node: NodeName): Endpoint[] {
	return catalog.filter((e) => e.node === node);
}

/** The endpoint behind a node's resource/operation pair. */
export function findOperation(node: NodeName, resource: string, operation: string): Endpoint | undefined {
	return catalog.find((e) => e.node === node && e.resource === resource && e.operation === operation);
}
