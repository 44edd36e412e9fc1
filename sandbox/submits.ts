/**
 * The generating submits: the routes that answer 202 with a queued run. Which of them bill a
 * workspace pool (`team_id`) and which file their output into a project (`project_id`) is the
 * sandbox's reading of the API document's Errors table: a project holds images, video and audio, so
 * routes whose output is text, 3D, a PDF, an HTML build, a trained model or JSON refuse
 * `project_id` (400 project_filing_unsupported) — presets and user workflows too, as their outputs
 * are not known to be media. Routes that are not priced per generation (training, analyses,
 * workflows, subscription episodes) cannot bill a pool and refuse `team_id` (400
 * team_billing_unsupported).
 */
export interface Submit {
	teamBilling: boolean;
	projectFiling: boolean;
	/** Run.capability where no model capability names it */
	runCapability?: string;
}

const submit = (teamBilling: boolean, projectFiling: boolean, runCapability?: string): Submit => ({
	teamBilling,
	projectFiling,
	...(runCapability ? { runCapability } : {}),
});

export const SUBMITS: Record<string, Submit> = {
	'POST /images/generations': submit(true, true),
	'POST /images/background-remove': submit(true, true),
	'POST /images/upscale': submit(true, true),
	'POST /captures': submit(true, true),
	'POST /scenes/blockouts': submit(false, true),
	'POST /videos/generations': submit(true, true),
	'POST /videos/generations/{id}/final': submit(true, true, 'video_generation'),
	'POST /videos/upscale': submit(true, true),
	'POST /videos/compose': submit(true, true),
	'POST /videos/analyses': submit(false, false),
	'POST /videos/voices': submit(false, false),
	'POST /videos/timelines/{timelineId}/renders': submit(true, true),
	'POST /audio/speech': submit(true, true),
	'POST /audio/music': submit(true, true),
	'POST /audio/sfx': submit(true, true),
	'POST /audio/voice-conversions': submit(true, true),
	'POST /audio/transcriptions': submit(true, false),
	'POST /lipsync/generations': submit(true, true),
	'POST /models/3d/generations': submit(true, false),
	'POST /products/extract': submit(true, false),
	'POST /workflows/{workflowKey}/runs': submit(false, false),
	'POST /presets/{presetId}/runs': submit(false, false),
	'POST /user-workflows/{workflowId}/runs': submit(false, false),
	'POST /ads/analyze': submit(false, false),
	'POST /loras': submit(false, false),
	'POST /loras/{loraId}/continue': submit(false, false),
	'POST /style-skills/{skillId}/train': submit(false, false),
	'POST /faceless-reels/generations': submit(true, true),
	'POST /faceless-reels/subscriptions/{id}/run-now': submit(false, true),
	'POST /faceless-reels/subscriptions/{id}/episodes': submit(false, true),
	'POST /explainers/generations': submit(true, true),
	'POST /music-videos/generations': submit(true, true),
	'POST /picture-books/generations': submit(true, false),
	'POST /coloring-books/generations': submit(true, false),
	'POST /games/generations': submit(true, false),
	'POST /games/deployments': submit(true, false),
	'POST /apps/deployments': submit(true, false),
};

/** The submits a batch of mode `operation` can target: those whose body is the whole request (no path id). */
export function batchableOperations(): string[] {
	return Object.keys(SUBMITS).filter((name) => !name.includes('{'));
}
