/**
 * Runs `task` over `items` with at most `limit` in flight. When a task throws, no new task starts;
 * the first error is rethrown once the tasks already running have settled.
 */
export async function forEachLimited<T>(
	items: T[],
	limit: number,
	task: (item: T) => Promise<void>,
): Promise<void> {
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

/**
 * Runs tasks as they are added, at most `limit` at once, in the order added. When a task throws, no
 * further task starts; `drained()` waits for every task started and rethrows the first error.
 */
export class TaskPool {
	private readonly queue: Array<() => Promise<void>> = [];
	private running = 0;
	private failure?: { error: unknown };
	private idle?: () => void;

	constructor(private readonly limit: number) {}

	add(task: () => Promise<void>): void {
		this.queue.push(task);
		this.startNext();
	}

	async drained(): Promise<void> {
		if (this.running > 0 || (this.queue.length > 0 && !this.failure))
			await new Promise<void>((resolve) => (this.idle = resolve));
		if (this.failure) throw this.failure.error;
	}

	private startNext(): void {
		while (this.running < this.limit && this.queue.length > 0 && !this.failure) {
			const task = this.queue.shift()!;
			this.running++;
			void task()
				.catch((error: unknown) => {
					this.failure ??= { error };
				})
				.finally(() => {
					this.running--;
					this.startNext();
					if (this.running === 0 && (this.queue.length === 0 || this.failure)) this.idle?.();
				});
		}
	}
}
