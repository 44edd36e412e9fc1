/**
 * Runs `task` over `items` with at most `limit` in flight. When a task throws, no new task starts;
 * the first error is rethrown once the tasks already running have settled.
 */
export async function forEachLimited<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
	let next = 0;
	let failure: { error: unknown } | undefined;
	const worker = async () => {
		while (!failure && next < items.length) {
			const item = items[next++];
			try {
				await task(item);
			} catch (error) {
				failure ??= { error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
	if (failure) throw failure.error;
}
