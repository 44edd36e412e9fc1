import { catalog, endpointKey, type Endpoint } from '../catalog';
import type { RouteHandler } from './http';
import { imageOutputs, type OutputMaker } from './outputs';
import { coreHandlers } from './routes/core';
import { runHandler } from './routes/generation';
import type { SandboxServices } from './services';

/** What a completed run of an endpoint produces. */
function outputMakerFor(endpoint: Endpoint): OutputMaker {
	switch (endpoint.capability) {
		default:
			return imageOutputs;
	}
}

/** Every handler of the sandbox, keyed like the catalog ("POST /images/generations"). */
export function sandboxHandlers(services: SandboxServices): Record<string, RouteHandler> {
	const handlers: Record<string, RouteHandler> = { ...coreHandlers(services) };
	for (const endpoint of catalog) {
		const key = endpointKey(endpoint);
		if (!handlers[key] && endpoint.output === 'run') handlers[key] = runHandler(services, outputMakerFor(endpoint));
	}
	return handlers;
}
