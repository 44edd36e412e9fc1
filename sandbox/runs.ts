/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the local sandbox service: runs in Node, never shipped (CONTRIBUTING.md, Linting) */
import { newId, nowIso } from './ids';
import { mp4Padding } from './large-files';
import { MONEY_FAILURE_MESSAGES } from './money';
import { processingMs } from './run-durations';
import type { SandboxModel } from './models';
import type { OutputMaker } from './outputs';
import type { Principal, RunRecord, SandboxState } from './state';
import { UrlSigner } from './storage';

export interface NewRun {
	/** the submit's operation name as the API document writes it, e.g. "POST /images/generations" (Run.endpoint) */
	operation: string;
	/** Run.capability */
	capability: string;
	model?: SandboxModel;
	principal: Principal;
	params: Record<string, unknown>;
	price: number;
	teamId?: string;
	inputSummary: Record<string, unknown>;
	makeOutput: OutputMaker;
	/** money reason the run will fail with (decided at submit) */
	moneyFailure?: string;
	/** Run.resource_id: the thing the run makes or changes */
	resourceId?: string;
}

const FILE_URL_VALIDITY_MS = 7 * 24 * 3600 * 1000;

/**
 * Runs move queued → processing → completed/failed. At most `concurrencyPerAccount` runs process
 * at once per account; the rest wait queued. Credits are reserved at submit and charged once,
 * when the run completes; a failed run is not charged.
 */
export class RunEngine {
	private readonly active = new Map<string, number>();
	private readonly waiting = new Map<string, Array<{ record: RunRecord; job: NewRun }>>();
	private readonly timers = new Set<NodeJS.Timeout>();
	/** processing runs: how to finish each now (tests decide the order in which runs finish) */
	private readonly finishers = new Map<string, { timer: NodeJS.Timeout; finish: () => void }>();

	constructor(
		private readonly state: SandboxState,
		private readonly signer: UrlSigner,
		private readonly origin: () => string,
	) {}

	/** Creates a queued run; returns the record and the run as the submit answers it (queued). */
	create(job: NewRun): { record: RunRecord; submitted: Record<string, unknown> } {
		const at = nowIso();
		const id = newId('run');
		const record: RunRecord = {
			run: {
				id,
				object: 'run',
				status: 'queued',
				capability: job.capability,
				endpoint: job.operation,
				model: job.model?.id ?? null,
				request_id: newId('req'),
				input_summary: job.inputSummary,
				output: null,
				usage: null,
				error: null,
				resource_id: job.resourceId ?? null,
				provider_request_id: null,
				created_at: at,
				updated_at: at,
				completed_at: null,
			},
			accountId: job.principal.accountId,
			credentialId: job.principal.credentialId,
			price: job.price,
			teamId: job.teamId,
			moneyFailure: job.moneyFailure,
			files: new Map(),
		};
		this.reserve(record, +1);
		this.state.runs.set(id, record);
		const submitted = { ...record.run };
		const queue = this.waiting.get(record.accountId) ?? [];
		queue.push({ record, job });
		this.waiting.set(record.accountId, queue);
		this.pump(record.accountId);
		return { record, submitted };
	}

	/** Stops pending timers (sandbox shutdown). */
	stop(): void {
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		this.finishers.clear();
	}

	private later(ms: number, fn: () => void): NodeJS.Timeout {
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			fn();
		}, ms);
		timer.unref();
		this.timers.add(timer);
		return timer;
	}

	/**
	 * Finishes a processing run now instead of after the latency (sandbox-only, for tests that need
	 * runs to finish in a chosen order). False when the run is not processing.
	 */
	finishNow(runId: string): boolean {
		const pending = this.finishers.get(runId);
		if (!pending) return false;
		clearTimeout(pending.timer);
		this.timers.delete(pending.timer);
		pending.finish();
		return true;
	}

	private pump(accountId: string): void {
		const queue = this.waiting.get(accountId) ?? [];
		while (
			queue.length &&
			(this.active.get(accountId) ?? 0) < this.state.options.concurrencyPerAccount
		) {
			const next = queue.shift()!;
			this.active.set(accountId, (this.active.get(accountId) ?? 0) + 1);
			next.record.run.status = 'processing';
			next.record.run.updated_at = nowIso();
			const finish = () => {
				this.finishers.delete(next.record.run.id);
				this.finish(next.record, next.job);
			};
			this.finishers.set(next.record.run.id, {
				timer: this.later(processingMs(next.job.operation, this.state.options), finish),
				finish,
			});
		}
	}

	private reserve(record: RunRecord, sign: 1 | -1): void {
		if (record.moneyFailure) return;
		const amount = sign * record.price;
		if (record.teamId) this.state.teams.get(record.teamId)!.reserved += amount;
		else this.state.account(record.accountId).reserved += amount;
	}

	private finish(record: RunRecord, job: NewRun): void {
		this.active.set(record.accountId, (this.active.get(record.accountId) ?? 1) - 1);
		const at = nowIso();
		// Sandbox-only body flag `sandbox_fail: "<code>"`: the run fails with that code (deterministic failures for tests).
		const forced =
			typeof job.params.sandbox_fail === 'string' && job.params.sandbox_fail
				? job.params.sandbox_fail
				: undefined;
		const failure =
			record.moneyFailure ??
			forced ??
			(Math.random() < this.state.options.failureRate ? 'provider_error' : undefined);
		this.reserve(record, -1);
		if (failure) {
			record.run.status = 'failed';
			const message = record.moneyFailure
				? (MONEY_FAILURE_MESSAGES[record.moneyFailure] ?? record.moneyFailure)
				: forced && forced !== 'provider_error'
					? `Failed as asked by sandbox_fail (${forced})`
					: 'The provider failed to produce an output';
			record.run.error = { code: failure, message };
		} else {
			const { files, extra } = job.makeOutput(record.run.id, job.params, this.state.options);
			const output: Record<string, unknown> = { ...extra };
			const expires = Date.now() + FILE_URL_VALIDITY_MS;
			for (const file of files) {
				const padding =
					file.contentType === 'video/mp4'
						? mp4Padding(file.bytes, this.state.options.videoOutputBytes)
						: undefined;
				record.files.set(file.name, { contentType: file.contentType, bytes: file.bytes, padding });
				const url = this.signer.sign(
					this.origin(),
					`/storage/files/${record.run.id}/${file.name}`,
					expires,
				);
				if (file.slot === 'image') ((output.images ??= []) as unknown[]).push({ url });
				else if (typeof file.slot === 'object')
					((output.model_urls ??= {}) as Record<string, string>)[file.slot.format] = url;
				else if (file.slot === 'draft') output.draft_cache_url = url;
				else output.output_url = url;
				output.output_url ??= url;
			}
			this.charge(record, at);
			record.run.status = 'completed';
			record.run.output = output;
			record.run.usage = { credits: record.price };
			record.run.provider_request_id = newId('prov');
		}
		record.run.updated_at = at;
		record.run.completed_at = at;
		this.state.events.emit('run.finished', record);
		this.pump(record.accountId);
	}

	private charge(record: RunRecord, at: string): void {
		if (this.state.chargesFor(record.run.id).length)
			throw new Error(`run ${record.run.id} charged twice`);
		if (record.teamId) this.state.teams.get(record.teamId)!.pool -= record.price;
		else this.state.account(record.accountId).balance -= record.price;
		this.state.ledger.push({
			run_id: record.run.id,
			account_id: record.accountId,
			team_id: record.teamId ?? null,
			credits: record.price,
			at,
		});
	}
}
