import type { Endpoint, NodeName } from './types';

/**
 * Wait Timeout (seconds) of a wait in the execution unless the user sets one: the same for every
 * operation. Such a wait holds a worker (and on n8n Cloud a concurrency slot) for as long as it
 * lasts, and an agent waits for its tool just as long; the operations whose jobs outlast it pause
 * by default instead (catalog `defaultWait`).
 */
export const IN_EXECUTION_WAIT_TIMEOUT = 600;

/**
 * Wait Timeout (seconds) of a paused wait unless the user sets one: the deadline at which n8n
 * resumes the execution without an event. A paused execution holds nothing, so the deadline only
 * matters when the events are lost; it is a few times the longest plausible job (the API document
 * states no durations), so a slow job is never cut off, and short enough that lost events show.
 */
export const PAUSED_WAIT_TIMEOUTS = {
	/** images, audio, transcription, text workflows: seconds to minutes */
	quickJob: 30 * 60,
	/** video, lip sync, 3D, renders, presets and own workflows that chain generations: tens of minutes */
	video: 2 * 3600,
	/** producers, training, batches, a wait for any run or batch: hours */
	longJob: 24 * 3600,
} as const;

/** The shared default of a node's operations; an entry's `pausedWaitTimeout` overrides it. */
const PAUSED_WAIT_TIMEOUT_BY_NODE: Partial<Record<NodeName, number>> = {
	MediaGenImage: PAUSED_WAIT_TIMEOUTS.quickJob,
	MediaGenAudio: PAUSED_WAIT_TIMEOUTS.quickJob,
	MediaGenProduct: PAUSED_WAIT_TIMEOUTS.quickJob,
	MediaGenWorkflow: PAUSED_WAIT_TIMEOUTS.quickJob,
	MediaGenVideo: PAUSED_WAIT_TIMEOUTS.video,
	MediaGenLipSync: PAUSED_WAIT_TIMEOUTS.video,
	MediaGenModel3D: PAUSED_WAIT_TIMEOUTS.video,
	MediaGenProducer: PAUSED_WAIT_TIMEOUTS.longJob,
	MediaGenLibrary: PAUSED_WAIT_TIMEOUTS.longJob,
	MediaGenBatch: PAUSED_WAIT_TIMEOUTS.longJob,
	// the run or batch waited for may be any job, a LoRA training too
	MediaGenRun: PAUSED_WAIT_TIMEOUTS.longJob,
};

/** The default deadline of a paused wait for this operation, in seconds (undefined: it never waits). */
export function pausedWaitTimeoutOf(e: Endpoint): number | undefined {
	if (e.output !== 'run' && e.output !== 'batch') return undefined;
	return e.pausedWaitTimeout ?? PAUSED_WAIT_TIMEOUT_BY_NODE[e.node];
}
