import { accountEndpoints } from './account';
import { audioEndpoints } from './audio';
import { batchEndpoints, batchExtraOperations } from './batches';
import { estimateOperation, offersEstimate } from './estimates';
import { gameEndpoints } from './games';
import { imageEndpoints } from './images';
import { libraryEndpoints } from './library';
import { lipSyncEndpoints } from './lipsync';
import { model3dEndpoints } from './model3d';
import { producerEndpoints } from './producers';
import { productEndpoints } from './products';
import { runEndpoints, runExtraOperations } from './runs';
import { taskEndpoints } from './tasks';
import { trainedModelEndpoints } from './trained-models';
import { videoEndpoints } from './video';
import { endpointKey, type Endpoint, type NodeName } from './types';
import { workflowEndpoints, workflowShortcuts } from './workflows';
import { webhookEndpoints } from './webhooks';

export * from './types';
export { estimateOperation, offersEstimate, spendsCredits } from './estimates';
export {
	IN_EXECUTION_WAIT_TIMEOUT,
	PAUSED_WAIT_TIMEOUTS,
	pausedWaitTimeoutOf,
} from './wait-timeouts';

/** Every endpoint the package knows, in one list. */
export const catalog: readonly Endpoint[] = [
	...accountEndpoints,
	...runEndpoints,
	...imageEndpoints,
	...videoEndpoints,
	...audioEndpoints,
	...lipSyncEndpoints,
	...model3dEndpoints,
	...productEndpoints,
	...workflowEndpoints,
	...batchEndpoints,
	...libraryEndpoints,
	...webhookEndpoints,
	...trainedModelEndpoints,
	...producerEndpoints,
	...gameEndpoints,
	...taskEndpoints,
];

/**
 * Node operations that reach an endpoint already in the catalog another way (a typed shortcut
 * for one workflow, a wait, the Estimate Cost of a generating operation): not endpoints, so no
 * route, no README row, not counted as coverage.
 */
export const extraOperations: readonly Endpoint[] = [
	...runExtraOperations,
	...batchExtraOperations,
	...workflowShortcuts,
	...catalog.filter(offersEstimate).map(estimateOperation),
];

const operations: readonly Endpoint[] = [...catalog, ...extraOperations];

const byKey = new Map(catalog.map((e) => [endpointKey(e), e]));

export function endpointFor(method: string, path: string): Endpoint | undefined {
	return byKey.get(`${method} ${path}`);
}

/** The operations of a node: its catalog entries and its extra operations. */
export function endpointsOfNode(node: NodeName): Endpoint[] {
	return operations.filter((e) => e.node === node);
}

/** The endpoint behind a node's resource/operation pair. */
export function findOperation(
	node: NodeName,
	resource: string,
	operation: string,
): Endpoint | undefined {
	return operations.find(
		(e) => e.node === node && e.resource === resource && e.operation === operation,
	);
}
