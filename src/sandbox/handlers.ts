import { catalog, endpointKey, type Endpoint } from '../catalog';
import type { RouteHandler } from './http';
import { imageOutputs, type OutputMaker } from './outputs';
import { coreHandlers } from './routes/core';
import { runHandler } from './routes/generation';
import { webhookHandlers } from './routes/webhooks';
import type { SandboxServices } from './services';

/**
 * What a completed run of an endpoint produces. Endpoints not listed here produce PNG images.
 * (Add capabilities here as their outputs get their own files.)
 */
function outputMakerFor(endpoint: Endpoint): OutputMaker {
	switch (endpoint.capability) {
		default:
			return imageOutputs;
	}
}

/**
 * Handler maps of the sandbox's route modules, keyed like the catalog ("POST /images/generations").
 * A new module adds one line here.
 */
const handlerModules: Array<(services: SandboxServices) => Record<string, RouteHandler>> = [coreHandlers, webhookHandlers];

/** Every handler of the sandbox. Generating submits without a handler of their own use runHandler. */
export function sandboxHandlers(services: SandboxServices): Record<string, RouteHandler> {
	const handlers: Record<string, RouteHandler> = {};
	for (const module of handlerModules) Object.assign(handlers, module(services));
	for (const endpoint of catalog) {
		const key = endpointKey(endpoint);
		if (!handlers[key] && endpoint.output === 'run') handlers[key] = runHandler(services, outputMakerFor(endpoint));
	}
	return handlers;
}
