import type { SandboxOptions } from './options';

/**
 * Operations whose runs take minutes at a real service (API document, "What the service does"):
 * video generation, upscaling, analysis and composition, lip sync, 3D models, the producers
 * (games, apps, books, reels, explainers, music videos) and trainings. Images, audio, products and
 * workflows are quick.
 */
const LONG_RUN_OPERATIONS = [
	/^POST \/videos\//,
	/^POST \/lipsync\//,
	/^POST \/models\/3d\//,
	/^POST \/(games|apps|coloring-books|picture-books|faceless-reels|explainers|music-videos)\//,
	/^POST \/(loras|style-skills)\b/,
];

export const isLongRun = (operation: string) =>
	LONG_RUN_OPERATIONS.some((pattern) => pattern.test(operation));

/** How long a run of `operation` stays processing (ms). */
export function processingMs(
	operation: string,
	options: Pick<SandboxOptions, 'latencyMs' | 'longRunLatencyMs'>,
): number {
	return isLongRun(operation) && options.longRunLatencyMs > 0
		? options.longRunLatencyMs
		: options.latencyMs;
}
