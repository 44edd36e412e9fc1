import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeExecutionData,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { findOperation, type NodeName } from '../catalog';
import { isBatchFinished, listBatchItems, readBatch } from '../runs/batches';
import type { Batch, BatchItem, Run } from '../runs/run';
import { readRunsOnce } from '../runs/read-runs';
import { isRun, isTerminal } from '../runs/run';
import type { WaitOutcome } from './wait-schedule';
import { type CredentialType } from '../credentials/credential-types';
import { sleep } from '../transport/sleep';
import { problemOf } from '../transport/problem';
import { SecretValues } from '../transport/redact';
import { apiRequest, createClient, type ApiClient } from '../transport/request';
import { SIGNATURE_HEADER, subjectKind, type WebhookEvent } from '../webhooks/events';
import { OpenedSecrets, openSecret } from '../webhooks/sealed-secret';
import { verifyDelivery } from '../webhooks/signature';
import { errorItem } from '../outputs/error-item';
import type { WaitSet } from './awaited';
import { DeliveredRuns, finishedAfter } from './paused-deliveries';
import { collectBatchOutputs } from './run-waits';
import { sealKeyOf } from './pause';
import { decodeState, waitSetFromStored, stateKey } from './pause-state';
import { collectRunOutputs } from './run-outputs';
import { credentialTypeOf } from '../credentials/authentication';

/**
 * The webhook every action node declares for its paused executions: n8n calls it with the
 * deliveries the service sends to the execution's resume URL (`restartWebhook`: it answers on
 * `$execution.resumeUrl`, never on a URL of its own).
 */
export const resumeWebhooks: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		path: '',
		restartWebhook: true,
	},
];

type Answer = IWebhookResponseData;

function answer(ctx: IWebhookFunctions, status: number, body: IDataObject): Answer {
	ctx.getResponseObject().status(status).json(body);
	return { noWebhookResponse: true };
}

/** The id of the subject that finished last (ties: the greatest id), so that one delivery resumes, not each of a burst. */
export function lastToFinish(subjects: IDataObject[]): string | undefined {
	let last: IDataObject | undefined;
	for (const subject of subjects) if (!last || finishedAfter(subject, last)) last = subject;
	return last ? String(last.id) : undefined;
}

/** Whether an event can be about what this execution waits for. */
function concerns(waitSet: WaitSet, event: WebhookEvent): boolean {
	const id = event.data.object.id;
	if (subjectKind(event.type) === 'batch') return waitSet.batches.some((b) => b.batch.id === id);
	// a run event may also be a batch item's: a batch that ends partial sends no batch event
	return waitSet.runs.some((r) => r.run.id === id) || waitSet.batches.length > 0;
}

/** The state of what a paused execution waits for, as one read showed it. */
interface Progress {
	runs: Map<string, Run>;
	batches: Map<string, Batch>;
	/**
	 * For each batch that ended partial (it sends no batch event): the run of its item that finished
	 * last, whose event resumes. Every run event after the batch's end would otherwise resume, and a
	 * burst of them resumed the execution several times at once.
	 */
	lastRunOfPartial: Map<string, string | undefined>;
}

function lastRunOf(items: BatchItem[]): string | undefined {
	const withRuns = items.filter((item) => typeof item.run_id === 'string');
	const last = lastToFinish(withRuns);
	return withRuns.find((item) => item.id === last)?.run_id as string | undefined;
}

/**
 * Reads what is held, apart from runs already known finished (from the deliveries this process
 * verified: a delivery carries the finished run, signed by the service): only the others are read.
 */
async function readProgress(
	client: ApiClient,
	waitSet: WaitSet,
	known: Map<string, Run>,
): Promise<Progress> {
	const unknown = waitSet.runs.map((r) => r.run.id).filter((id) => !known.has(id));
	const runs = new Map<string, Run>(known);
	if (unknown.length)
		for (const [id, run] of await readRunsOnce(client, unknown)) runs.set(id, run);
	const batches = new Map<string, Batch>();
	const lastRunOfPartial = new Map<string, string | undefined>();
	for (const entry of waitSet.batches) {
		const batch = await readBatch(client, entry.batch.id);
		batches.set(batch.id, batch);
		if (batch.status === 'partial')
			lastRunOfPartial.set(
				batch.id,
				lastRunOf(await listBatchItems(client, batch.id, entry.calls[0].itemIndex)),
			);
	}
	return { runs, batches, lastRunOfPartial };
}

/**
 * The latest read of each paused execution this process answers deliveries for, by execution and
 * node (in flight or done; dropped when the execution resumes, at most 100 kept). The runs of one
 * execution finish together, so their events arrive as a burst. A delivery uses a read that starts
 * after it arrived, or an earlier one that already shows its run finished (a finished run stays
 * finished, and the run that finished last shows every other one finished too); only otherwise
 * does it schedule its own. Each read is an authenticated request, for which n8n resolves the
 * credential in an expression isolate, which takes long on a busy machine: deliveries that
 * arrive together share reads rather than each making its own.
 */
interface SharedRead {
	startsAt: number;
	progress: Promise<Progress>;
	/** what it read, once done */
	done?: Progress;
}
const latestReads = new Map<string, SharedRead>();
const READ_AFTER_MS = 200;
const READS_KEPT = 100;

/**
 * For each paused execution this process answers deliveries for (by execution, node and sealed
 * state; at most 100, dropped when it resumes): what it waits for, rebuilt once from its stored
 * items (n8n hands each delivery all of them through an expression, which for 1,000 items costs
 * more than the rest of a delivery), and the finished runs its verified deliveries carried. Another
 * process keeps its own; what it has not seen it reads from the service.
 */
interface PausedWait {
	stored: INodeExecutionData[];
	waitSet: WaitSet;
	delivered: DeliveredRuns;
}
const pausedWaits = new Map<string, PausedWait>();
const PAUSED_WAITS_KEPT = 100;
/** The delivery of the run that finished last so far holds on at most this long for the others (the service waits 10 s for an answer)... */
const HOLD_MS = 5_000;
/** ...and reads what is missing once no delivery came for this long. */
const QUIET_MS = 1_000;

function pausedWaitOf(place: string, build: () => Omit<PausedWait, 'delivered'>): PausedWait {
	const known = pausedWaits.get(place);
	if (known) return known;
	if (pausedWaits.size >= PAUSED_WAITS_KEPT) pausedWaits.delete(pausedWaits.keys().next().value!);
	const built = build();
	const wait = {
		...built,
		delivered: new DeliveredRuns(new Set(built.waitSet.runs.map((r) => r.run.id))),
	};
	pausedWaits.set(place, wait);
	return wait;
}

/** The progress the verified deliveries alone show, when they carried every held run (no batch held). */
function deliveredProgress(wait: PausedWait): Progress | undefined {
	if (wait.waitSet.batches.length || !wait.delivered.complete) return undefined;
	return { runs: wait.delivered.known(), batches: new Map(), lastRunOfPartial: new Map() };
}

/**
 * The progress a run's delivery acts on without reading, when the deliveries can tell: every held
 * run delivered; or `waiting` when a run that finished later was delivered (this one resumes
 * nothing). The delivery of the run that finished last so far holds on while more arrive; once
 * none came for a moment (or it held on long enough), it reads (undefined).
 */
async function progressFromDeliveries(
	wait: PausedWait,
	run: Run,
): Promise<Progress | 'waiting' | undefined> {
	const heldSince = Date.now();
	for (;;) {
		const progress = deliveredProgress(wait);
		if (progress) return progress;
		if (!wait.delivered.isLatest(run)) return 'waiting';
		if (Date.now() - heldSince >= HOLD_MS || !(await wait.delivered.next(QUIET_MS)))
			return undefined;
	}
}

function scheduleRead(place: string, read: () => Promise<Progress>): Promise<Progress> {
	// read after a pause: the deliveries of a burst arriving meanwhile share it (and may make it unneeded)
	const progress = sleep(READ_AFTER_MS).then(read);
	const entry: SharedRead = { startsAt: Date.now() + READ_AFTER_MS, progress };
	if (!latestReads.has(place) && latestReads.size >= READS_KEPT)
		latestReads.delete(latestReads.keys().next().value!);
	latestReads.set(place, entry);
	progress.then(
		(done) => (entry.done = done),
		() => latestReads.get(place) === entry && latestReads.delete(place),
	);
	return progress;
}

/**
 * The read a delivery acts on: one that starts after it arrived or after its event was sent (the
 * run had finished then), or one already done that shows the event's subject finished.
 */
async function sharedProgress(
	place: string,
	arrivedAt: number,
	event: WebhookEvent,
	read: () => Promise<Progress>,
): Promise<Progress> {
	const latest = latestReads.get(place);
	const sentAt = Date.parse(event.created_at) || arrivedAt;
	if (latest?.done && showsFinished(latest.done, event)) return latest.done;
	if (latest && !latest.done && latest.startsAt >= Math.min(arrivedAt, sentAt)) {
		const progress = await latest.progress;
		if (latest.startsAt >= arrivedAt || showsFinished(progress, event)) return progress;
	}
	return await scheduleRead(place, read);
}

/** Whether a read shows the subject of the event finished (then it is recent enough to act on). */
function showsFinished(progress: Progress, event: WebhookEvent): boolean {
	const subject = String(event.data.object.id);
	if (subjectKind(event.type) === 'batch') {
		const batch = progress.batches.get(subject);
		return batch !== undefined && isBatchFinished(batch);
	}
	// a batch item's run event: only a read made after it tells whether the batch ended with it
	const run = progress.runs.get(subject);
	return progress.batches.size === 0 && run !== undefined && isTerminal(run);
}

/** Applies a read to what is held; ready when all of it finished and this event is the one to resume on. */
function readyToResume(
	waitSet: WaitSet,
	progress: Progress,
	event: WebhookEvent,
): { ready: boolean; waitingFor: number } {
	for (const entry of waitSet.runs) entry.run = progress.runs.get(entry.run.id) ?? entry.run;
	for (const entry of waitSet.batches)
		entry.batch = progress.batches.get(entry.batch.id) ?? entry.batch;
	const waitingFor =
		waitSet.runs.filter((r) => !isTerminal(r.run)).length +
		waitSet.batches.filter((b) => !isBatchFinished(b.batch)).length;
	if (waitingFor > 0) return { ready: false, waitingFor };
	const subjectId = event.data.object.id;
	if (waitSet.runs.length)
		return { ready: lastToFinish(waitSet.runs.map((r) => r.run)) === subjectId, waitingFor };
	const batches: Batch[] = waitSet.batches.map((b) => b.batch);
	const last = batches.find((b) => b.id === lastToFinish(batches))!;
	// a partial batch announces nothing: the event of the run that ended it resumes
	return {
		ready:
			subjectKind(event.type) === 'batch'
				? last.id === subjectId
				: last.status === 'partial' && progress.lastRunOfPartial.get(last.id) === subjectId,
		waitingFor,
	};
}

/** The outputs of everything held, into the stored items' places. Never throws: what fails becomes its error item. */
async function resumedItems(
	ctx: IWebhookFunctions,
	client: ApiClient,
	waitSet: WaitSet,
	stored: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const results: INodeExecutionData[][] = stored.map((item) => [item]);
	// A resumed node cannot stop the workflow (n8n runs no node code then, it passes the returned
	// items on), so every failure is an error item, as with Continue On Fail.
	const fail = (itemIndex: number, error: unknown) =>
		(results[itemIndex] = [errorItem(error, itemIndex, client.secrets)]);
	const outcomes = new Map<string, WaitOutcome>(
		waitSet.runs.map(({ run }) => [
			run.id,
			{ state: run.status === 'completed' ? 'completed' : 'failed', run },
		]),
	);
	await collectRunOutputs(ctx, client, waitSet.runs, outcomes, results, fail);
	for (const entry of waitSet.batches) {
		await collectBatchOutputs(ctx, client, entry, results, fail).catch((error: unknown) => {
			for (const call of entry.calls) fail(call.itemIndex, error);
		});
	}
	return results.flat();
}

/**
 * Signing secrets opened in this process, with the credential they were opened with (the client's
 * base URL and, for an API key, its header): a burst of deliveries to one paused execution reads the
 * credential once.
 */
const openedSecrets = new OpenedSecrets<{
	secret: string;
	credentials: ICredentialDataDecryptedObject;
}>();

async function openedSecret(
	ctx: IWebhookFunctions,
	credentialType: CredentialType,
	sealed: string,
): Promise<{ secret: string; credentials: ICredentialDataDecryptedObject } | undefined> {
	return await openedSecrets.open(
		`${ctx.getExecutionId()}\u0000${ctx.getNode().name}`,
		sealed,
		async () => {
			const credentials = await ctx.getCredentials<ICredentialDataDecryptedObject>(credentialType);
			const key = sealKeyOf(credentials, ctx.getExecutionId(), ctx.getNode().name);
			const secret = key && openSecret(sealed, key);
			return secret ? { secret, credentials } : undefined;
		},
	);
}

/**
 * Paused executions (by execution and node) a delivery in this process is resuming or has resumed:
 * the one delivery that claims it resumes, copies answer 200 and do nothing. At most 1000 kept
 * (n8n itself refuses deliveries to an execution that runs or finished).
 */
const resumingHere = new Set<string>();
const RESUMES_KEPT = 1000;

function claimResume(place: string): void {
	if (resumingHere.size >= RESUMES_KEPT) resumingHere.delete(resumingHere.values().next().value!);
	resumingHere.add(place);
}

/**
 * The claim between processes (queue mode: main and webhook processes each answer deliveries): the
 * service deletes an endpoint once, so of the deliveries that get this far in different processes
 * only the one whose delete succeeds resumes; `gone` (code not_found) means another one did. A
 * delete whose outcome is unknown (no answer, an outage) resumes anyway: a paused execution waiting
 * for an event that was answered would wait until its deadline.
 */
async function deleteEndpointToResume(
	client: ApiClient,
	endpointId: string,
): Promise<'deleted' | 'gone' | 'unknown'> {
	try {
		await apiRequest(client, {
			method: 'DELETE',
			path: `/webhooks/${encodeURIComponent(endpointId)}`,
		});
		return 'deleted';
	} catch (error) {
		return problemOf(error)?.code === 'not_found' ? 'gone' : 'unknown';
	}
}

function header(ctx: IWebhookFunctions, name: string): string | undefined {
	const value = ctx.getHeaderData()[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

/**
 * A delivery to a paused execution's resume URL. Verified like the trigger's (signature over the
 * exact raw body, 401 and still paused when it fails; no age limit: a replayed delivery is how a
 * person resumes an execution whose events were lost, and an event only makes the node read the
 * runs from the service). An event about other runs is answered 200 and changes nothing. Once
 * every held run or batch finished (one read of the runs list), the delivery of the one that
 * finished last (by completed_at: not the order they were made in) claims the execution — in this
 * process, then at the service by deleting the endpoint — and resumes it with the outputs the
 * in-execution wait gives, downloading each once; the others, and copies of it, are answered 200.
 */
export async function resumePausedExecution(
	ctx: IWebhookFunctions,
	node: NodeName,
): Promise<IWebhookResponseData> {
	const reject = (reason: string) => answer(ctx, 401, { error: 'unauthorized', reason });
	const arrivedAt = Date.now();
	let answered = false;
	let claimed: string | undefined;
	// what the answers and items may not show; the credential's values join once it is read
	let secrets = new SecretValues();
	let stored: INodeExecutionData[] = [];
	try {
		const nodeName = ctx.getNode().name;
		const state = decodeState(ctx.customData.get(stateKey(nodeName)));
		if (!state) return reject('not_paused');
		const credentialType = credentialTypeOf((name, fallback) =>
			ctx.getNodeParameter(name, fallback),
		);
		const opened = await openedSecret(ctx, credentialType, state.sealedSecret);
		if (!opened) return reject('no_signing_secret');
		const { secret } = opened;
		const req = ctx.getRequestObject();
		if (!req.rawBody && typeof req.readRawBody === 'function') await req.readRawBody();
		const verification = verifyDelivery({
			secret,
			rawBody: req.rawBody,
			signatureHeader: header(ctx, SIGNATURE_HEADER),
		});
		if (!verification.ok) return reject(verification.reason);
		const { event } = verification;

		const endpoint = findOperation(
			node,
			String(ctx.getNodeParameter('resource', '')),
			String(ctx.getNodeParameter('operation', '')),
		);
		if (!endpoint) return answer(ctx, 500, { error: 'not_resumed', reason: 'unknown_operation' });
		const place = `${ctx.getExecutionId()}\u0000${nodeName}\u0000${state.sealedSecret}`;
		const wait = pausedWaitOf(place, () => {
			const items =
				(ctx.evaluateExpression('{{ $input.all() }}', 0) as unknown as INodeExecutionData[]) ?? [];
			return { stored: items, waitSet: waitSetFromStored(items, state, endpoint) };
		});
		stored = wait.stored;
		const { waitSet } = wait;
		if (!concerns(waitSet, event))
			return answer(ctx, 200, { received: true, ignored: 'not_this_execution' });
		const subject = event.data.object;
		const delivered =
			subjectKind(event.type) === 'run' &&
			isRun(subject) &&
			isTerminal(subject) &&
			!waitSet.batches.length
				? subject
				: undefined;
		if (delivered) wait.delivered.add(delivered);
		const known = delivered ? await progressFromDeliveries(wait, delivered) : undefined;
		if (known === 'waiting')
			return answer(ctx, 200, { received: true, waiting_for: wait.delivered.missing });
		const client = await createClient(ctx, credentialType, opened.credentials);
		secrets = client.secrets.add(secret);
		const progress =
			known ??
			(await sharedProgress(
				place,
				arrivedAt,
				event,
				async () =>
					deliveredProgress(wait) ?? (await readProgress(client, waitSet, wait.delivered.known())),
			));
		const { ready, waitingFor } = readyToResume(waitSet, progress, event);
		if (!ready) return answer(ctx, 200, { received: true, waiting_for: waitingFor });
		// claimed before anything is awaited: a copy of this delivery (a burst, a retry) that got here
		// too is answered 200 and does nothing
		if (resumingHere.has(place)) return answer(ctx, 200, { received: true, ignored: 'resuming' });
		claimResume(place);
		claimed = place;
		pausedWaits.delete(place);
		latestReads.delete(place);
		if ((await deleteEndpointToResume(client, state.endpointId)) === 'gone') {
			return answer(ctx, 200, { received: true, ignored: 'resumed_elsewhere' });
		}

		// answered before the outputs are downloaded: the service waits 10 s at most
		answer(ctx, 200, { received: true, resumed: true });
		answered = true;
		return {
			noWebhookResponse: true,
			workflowData: [await resumedItems(ctx, client, waitSet, stored)],
		};
	} catch (error) {
		// Before answering: the service retries the delivery later and the execution stays paused.
		// After: resume with the error on every item that waited (the endpoint is gone already).
		if (!answered) {
			if (claimed) resumingHere.delete(claimed);
			return answer(ctx, 500, {
				error: 'not_resumed',
				message: secrets.text(error instanceof Error ? error.message : String(error)),
			});
		}
		return {
			noWebhookResponse: true,
			workflowData: [
				stored.map((item, index) =>
					item.json?.code === 'wait_timeout' ? errorItem(error, index, secrets) : item,
				),
			],
		};
	}
}
