import type { RunRecord, SandboxState } from '../state';

/** A record the sandbox keeps for an account, with its public fields in `data`. */
export interface Owned<T> {
	accountId: string;
	data: T;
}

export type Json = Record<string, unknown>;

export interface Build {
	version: number;
	prompt: string;
	html: Buffer;
}

/**
 * State of trained models, producers, games, apps and tasks. Kept beside the SandboxState (one
 * store per running sandbox) so these routes need no field of their own in state.ts.
 */
export class ProducerStore {
	readonly loras = new Map<string, Owned<Json>>();
	readonly imageStyles = new Map<string, Owned<Json>>();
	/** games and apps with their finished builds; `versions` counts the builds started */
	readonly games = new Map<string, Owned<Json> & { builds: Build[]; versions: number }>();
	readonly apps = new Map<string, Owned<Json> & { builds: Build[]; versions: number }>();
	readonly pictureBooks = new Map<string, Owned<Json>>();
	readonly subscriptions = new Map<string, Owned<Json>>();
	readonly episodes = new Map<string, Owned<Json>>();
	readonly tasks = new Map<string, Owned<Json>>();
	/** what to do when a run of these routes finishes (keyed by run id) */
	readonly onFinish = new Map<
		string,
		(status: 'completed' | 'failed', output: Json | null) => void
	>();
}

const stores = new WeakMap<SandboxState, ProducerStore>();

export function producerStore(state: SandboxState): ProducerStore {
	let store = stores.get(state);
	if (!store) {
		const created = new ProducerStore();
		state.events.on('run.finished', (record: RunRecord) => {
			const finish = created.onFinish.get(record.run.id);
			if (!finish) return;
			created.onFinish.delete(record.run.id);
			finish(
				record.run.status === 'completed' ? 'completed' : 'failed',
				(record.run.output as Json | null) ?? null,
			);
		});
		stores.set(state, created);
		store = created;
	}
	return store;
}

/** The records of an account, newest first. */
export function ownedBy<T>(map: Map<string, Owned<T>>, accountId: string): T[] {
	return [...map.values()]
		.filter((r) => r.accountId === accountId)
		.map((r) => r.data)
		.reverse();
}
