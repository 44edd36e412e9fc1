import { NodeHelpers, type INode, type INodeParameters, type INodeProperties } from 'n8n-workflow';

import {
	catalog,
	extraOperations,
	IN_EXECUTION_WAIT_TIMEOUT,
	PAUSED_WAIT_TIMEOUTS,
	pausedWaitTimeoutOf,
	type Endpoint,
} from '../../../src/catalog';
import { MAX_WAIT_SECONDS } from '../../../src/waits/wait-options';
import { actionNodes } from '../../helpers/action-nodes';

const nodes = actionNodes();
const waiting = [...catalog, ...extraOperations].filter(
	(e) => e.output === 'run' || e.output === 'batch',
);
const label = (e: Endpoint) => `${e.node} ${e.resource}/${e.operation}`;

/** The node's properties shown for the endpoint's own operation (every node version). */
function shownFor(e: Endpoint, name: string): INodeProperties[] {
	return nodes[e.node].description.properties.filter(
		(p) =>
			p.name === name &&
			(p.displayOptions?.show?.resource as string[] | undefined)?.includes(e.resource) &&
			(p.displayOptions?.show?.operation as string[] | undefined)?.includes(e.operation),
	);
}

describe('Wait Mode and Wait Timeout of every waiting operation', () => {
	it('knows the waiting operations of every node that waits', () => {
		expect(new Set(waiting.map((e) => e.node))).toEqual(
			new Set([
				'MediaGenImage',
				'MediaGenVideo',
				'MediaGenAudio',
				'MediaGenLipSync',
				'MediaGenModel3D',
				'MediaGenProduct',
				'MediaGenWorkflow',
				'MediaGenBatch',
				'MediaGenRun',
				'MediaGenProducer',
				'MediaGenLibrary',
			]),
		);
		expect(waiting.length).toBeGreaterThanOrEqual(45);
	});

	it.each(waiting.map((e) => [label(e), e] as const))(
		'%s offers Wait Mode, defaulting to the catalog entry',
		(_, e) => {
			const modes = shownFor(e, 'waitMode');
			expect(modes.length).toBeGreaterThan(0);
			for (const mode of modes) {
				expect(mode.default).toBe(e.defaultWait ?? 'inExecution');
				expect((mode.options ?? []).map((o) => (o as { value: string }).value)).toEqual([
					'inExecution',
					'parked',
				]);
				// a node that does not wait has nothing to choose
				if (!e.alwaysWaits) expect(mode.displayOptions?.show?.waitForCompletion).toEqual([true]);
			}
		},
	);

	it.each(waiting.map((e) => [label(e), e] as const))(
		'%s says before the run, exactly while Wait Mode is "Pause", what pausing looks like and where to watch it',
		(_, e) => {
			const node = nodes[e.node];
			const notices = shownFor(e, 'pauseNotice');
			for (const notice of notices) {
				expect(notice.type).toBe('notice');
				expect(notice.displayName).toMatch(
					/pauses the execution until MediaGen has finished.*listed as Waiting under Executions.*continues by itself/,
				);
				// what the node does where the service cannot call back (src/webhooks/reachability.ts)
				expect(notice.displayName).toMatch(
					/waits in the execution \(holding a worker\).*cannot reach — a loopback, private, link-local or local-network address or name, or one where the service's latest delivery got no answer/,
				);
			}
			// one notice per node version (a workflow saved with an older version keeps its own shape)
			for (const typeVersion of [node.description.version].flat()) {
				const shown = (parameters: Record<string, unknown>) =>
					notices.filter((n) =>
						NodeHelpers.displayParameter(
							{
								resource: e.resource,
								operation: e.operation,
								waitForCompletion: true,
								...parameters,
							} as INodeParameters,
							n,
							{ typeVersion } as INode,
							node.description,
						),
					).length;
				expect({
					typeVersion,
					paused: shown({ waitMode: 'parked' }),
					inExecution: shown({ waitMode: 'inExecution' }),
				}).toEqual({ typeVersion, paused: 1, inExecution: 0 });
				if (!e.alwaysWaits) expect(shown({ waitMode: 'parked', waitForCompletion: false })).toBe(0);
			}
		},
	);

	it.each(waiting.map((e) => [label(e), e] as const))(
		'%s has a paused deadline from the catalog, shown as the default of Wait Timeout in that mode',
		(_, e) => {
			const paused = pausedWaitTimeoutOf(e);
			expect(Object.values(PAUSED_WAIT_TIMEOUTS)).toContain(paused);
			expect(paused!).toBeGreaterThan(IN_EXECUTION_WAIT_TIMEOUT);
			expect(paused!).toBeLessThanOrEqual(MAX_WAIT_SECONDS);
			const collections = shownFor(e, 'options');
			expect(collections.length).toBeGreaterThan(0);
			for (const options of collections) {
				const timeouts = (options.options as INodeProperties[]).filter(
					(o) => o.name === 'waitTimeout',
				);
				const byMode = Object.fromEntries(
					timeouts.map((o) => [
						(o.displayOptions?.show?.['/waitMode'] as string[]).join(),
						o.default,
					]),
				);
				expect(byMode).toEqual({ inExecution: IN_EXECUTION_WAIT_TIMEOUT, parked: paused });
			}
		},
	);

	it('gives long jobs hours, video tens of minutes to hours, quick jobs minutes', () => {
		const of = (node: string, resource: string, operation: string) =>
			pausedWaitTimeoutOf(
				waiting.find(
					(e) => e.node === node && e.resource === resource && e.operation === operation,
				)!,
			);
		expect(of('MediaGenLibrary', 'lora', 'create')).toBe(PAUSED_WAIT_TIMEOUTS.longJob);
		expect(of('MediaGenProducer', 'musicVideo', 'generate')).toBe(PAUSED_WAIT_TIMEOUTS.longJob);
		expect(of('MediaGenBatch', 'batch', 'create')).toBe(PAUSED_WAIT_TIMEOUTS.longJob);
		expect(of('MediaGenRun', 'run', 'wait')).toBe(PAUSED_WAIT_TIMEOUTS.longJob);
		expect(of('MediaGenVideo', 'video', 'generate')).toBe(PAUSED_WAIT_TIMEOUTS.video);
		expect(of('MediaGenWorkflow', 'preset', 'run')).toBe(PAUSED_WAIT_TIMEOUTS.video);
		expect(of('MediaGenVideo', 'video', 'analyze')).toBe(PAUSED_WAIT_TIMEOUTS.quickJob);
		expect(of('MediaGenImage', 'image', 'generate')).toBe(PAUSED_WAIT_TIMEOUTS.quickJob);
		expect(PAUSED_WAIT_TIMEOUTS.longJob).toBeGreaterThanOrEqual(12 * 3600);
		// every operation that pauses by default is a long one: its deadline is at least the video tier
		for (const e of waiting.filter((w) => w.defaultWait === 'parked'))
			expect([label(e), pausedWaitTimeoutOf(e)! >= PAUSED_WAIT_TIMEOUTS.video]).toEqual([
				label(e),
				true,
			]);
	});
});
