import type { RouteHandler } from './http';
import { imageOutputs, mediaOutputsFor, type OutputMaker } from './outputs';
import { batchHandlers } from './routes/batches';
import { cliAuthHandlers } from './routes/cli-auth';
import { coreHandlers } from './routes/core';
import { mediaHandlers } from './routes/media';
import { runHandler } from './routes/generation';
import { libraryHandlers } from './routes/library';
import { producerHandlers } from './routes/producers';
import { taskHandlers } from './routes/tasks';
import { trainedModelHandlers } from './routes/trained-models';
import { workflowHandlers } from './routes/workflows';
import { webhookHandlers } from './routes/webhooks';
import { ROUTE_PARAMETERS } from './parameters/routes';
import type { SandboxServices } from './services';
import { SUBMITS } from './submits';

/**
 * What a completed run of an endpoint produces. Endpoints not listed here produce PNG images.
 * (Add capabilities here as their outputs get their own files.)
 */
function outputMakerFor(operation: string): OutputMaker {
	return mediaOutputsFor(operation, ROUTE_PARAMETERS[operation]?.capability) ?? imageOutputs;
}

/**
 * Handler maps of the sandbox's route modules, keyed by operation name ("POST /images/generations").
 * A new module adds one line here.
 */
const handlerModules: Array<(services: SandboxServices) => Record<string, RouteHandler>> = [
	coreHandlers,
	mediaHandlers,
	workflowHandlers,
	// a batch runs its items through the sandbox's own handlers: handed over, not imported back
	(services) => batchHandlers(services, (operation) => sandboxHandlers(services)[operation]),
	cliAuthHandlers,
	libraryHandlers,
	webhookHandlers,
	trainedModelHandlers,
	producerHandlers,
	taskHandlers,
];

const built = new WeakMap<SandboxServices, Record<string, RouteHandler>>();

/**
 * Every handler of the sandbox. Generating submits without a handler of their own use runHandler.
 * Built once per sandbox: a batch runs its items through these same handlers (and their state).
 */
export function sandboxHandlers(services: SandboxServices): Record<string, RouteHandler> {
	const cached = built.get(services);
	if (cached) return cached;
	const handlers: Record<string, RouteHandler> = {};
	built.set(services, handlers);
	for (const module of handlerModules) Object.assign(handlers, module(services));
	for (const operation of Object.keys(SUBMITS)) {
		handlers[operation] ??= runHandler(services, outputMakerFor(operation));
	}
	return handlers;
}
