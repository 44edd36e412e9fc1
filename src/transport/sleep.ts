import { sleep as n8nSleep } from 'n8n-workflow';

const SLICE_MS = 250;

/**
 * Waits `ms`, waking early when the n8n execution is cancelled.
 * Resolves true when the full time passed, false when cancelled.
 */
export async function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
	const end = Date.now() + ms;
	while (Date.now() < end) {
		if (signal?.aborted) return false;
		await n8nSleep(Math.min(SLICE_MS, end - Date.now()));
	}
	return !signal?.aborted;
}
