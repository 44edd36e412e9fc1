import type { Request } from 'express';

import { operationName, tableEndpoint, type TableEndpoint } from '../endpoint-table';
import {
	bodyOf,
	listReply,
	principalOf,
	ProblemError,
	requireScope,
	type RouteContext,
	type RouteHandler,
} from '../http';
import { newId, nowIso } from '../ids';
import { moduleState, notFound } from '../module-state';
import type { SandboxServices } from '../services';
import type { Principal, RunRecord, SandboxState } from '../state';
import { batchableOperations } from '../submits';
import { emitEvent } from '../webhooks';
import { WORKFLOW_KEYS } from '../workflow-table';
import { createWorkflowRun } from './workflows';

type ItemStatus = 'queued' | 'processing' | 'completed' | 'failed';

interface BatchItemRecord {
	id: string;
	object: 'batch_item';
	batch_id: string;
	index: number;
	target: string;
	status: ItemStatus;
	run_id: string | null;
	input_summary: Record<string, unknown> | null;
	output: Record<string, unknown> | null;
	error: { code: string; message: string } | null;
	created_at: string;
	updated_at: string;
	completed_at: string | null;
}

interface BatchRecord {
	batch: {
		id: string;
		object: 'batch';
		mode: 'operation' | 'workflow';
		target: string;
		status: 'queued' | 'processing' | 'completed' | 'failed' | 'partial';
		total_items: number;
		completed_items: number;
		failed_items: number;
		concurrency: number;
		input_summary: Record<string, unknown>;
		output: Record<string, unknown> | null;
		error: { code: string; message: string } | null;
		created_at: string;
		updated_at: string;
		completed_at: string | null;
	};
	items: BatchItemRecord[];
	bodies: Array<Record<string, unknown>>;
	/** attempts per item index: the sandbox_fail flag applies to the first attempt only */
	attempts: number[];
	principal: Principal;
	origin: string;
	/** a generating submit (mode operation) */
	endpoint?: TableEndpoint;
	active: number;
}

const MAX_ITEMS = 1000;
const MAX_CONCURRENCY = 20;

/**
 * The generating submit a batch of mode `operation` names. An operation name is the method and path
 * as the API document's endpoint tables write them ("POST /images/generations"), the same string a
 * run's `endpoint` field carries; nothing else is read as one.
 */
function operationTarget(target: string): TableEndpoint | undefined {
	if (!batchableOperations().includes(target)) return undefined;
	const [method, path] = target.split(' ');
	return tableEndpoint(method, path);
}

function summaryOf(body: Record<string, unknown>): Record<string, unknown> {
	const summary: Record<string, unknown> = {};
	for (const key of [
		'prompt',
		'model',
		'aspect_ratio',
		'count',
		'duration',
		'product_name',
		'variant_count',
	])
		if (body[key] !== undefined) summary[key] = body[key];
	return summary;
}

const batchesOf = moduleState((state: SandboxState) => {
	const batches = new Map<string, BatchRecord>();
	/** run id → the batch item it runs */
	const byRun = new Map<string, { record: BatchRecord; item: BatchItemRecord }>();
	state.events.on('run.finished', (run: RunRecord) => {
		const owner = byRun.get(run.run.id);
		if (!owner) return;
		byRun.delete(run.run.id);
		owner.record.active--;
		finishItem(
			state,
			owner.record,
			owner.item,
			run.run.status === 'completed' ? 'completed' : 'failed',
			run.run.output as Record<string, unknown> | null,
			run.run.error as BatchItemRecord['error'],
		);
	});
	return { batches, byRun };
});

/** How a batch finds the handler of its target operation: the sandbox's own, given by handlers.ts. */
export type TargetHandler = (operation: string) => RouteHandler;
const targetHandlers = new WeakMap<SandboxServices, TargetHandler>();

/** The sandbox's own handler of a target operation (this module is one of the handler modules). */
function handlerFor(services: SandboxServices, endpoint: TableEndpoint): RouteHandler {
	return targetHandlers.get(services)!(operationName(endpoint));
}

function finishItem(
	state: SandboxState,
	record: BatchRecord,
	item: BatchItemRecord,
	status: 'completed' | 'failed',
	output: Record<string, unknown> | null,
	error: BatchItemRecord['error'],
): void {
	const at = nowIso();
	item.status = status;
	item.output = status === 'completed' ? output : null;
	item.error =
		status === 'failed' ? (error ?? { code: 'provider_error', message: 'The item failed' }) : null;
	item.updated_at = at;
	item.completed_at = at;
	const { batch } = record;
	if (status === 'completed') batch.completed_items++;
	else batch.failed_items++;
	batch.updated_at = at;
	pump(state, record);
}

/** Starts queued items while fewer than `concurrency` are processing; ends the batch when all are done. */
function pump(state: SandboxState, record: BatchRecord): void {
	const { batch } = record;
	const store = batchesOf(state);
	for (const item of record.items) {
		if (record.active >= batch.concurrency) break;
		if (item.status !== 'queued') continue;
		const attempt = ++record.attempts[item.index];
		const body = { ...record.bodies[item.index] };
		if (attempt > 1) delete body.sandbox_fail;
		item.status = 'processing';
		item.updated_at = nowIso();
		if (batch.status === 'queued') batch.status = 'processing';
		try {
			const runId = startItem(state, record, body);
			item.run_id = runId;
			record.active++;
			store.byRun.set(runId, { record, item });
		} catch (error) {
			const problem =
				error instanceof ProblemError
					? { code: error.code, message: error.message }
					: { code: 'internal_error', message: String(error) };
			finishItem(state, record, item, 'failed', null, problem);
			return;
		}
	}
	if (
		batch.completed_items + batch.failed_items === batch.total_items &&
		batch.status !== 'completed' &&
		batch.status !== 'failed' &&
		batch.status !== 'partial'
	) {
		const at = nowIso();
		batch.status =
			batch.failed_items === 0 ? 'completed' : batch.completed_items === 0 ? 'failed' : 'partial';
		batch.output = { completed_items: batch.completed_items, failed_items: batch.failed_items };
		batch.error =
			batch.status === 'failed'
				? { code: 'all_items_failed', message: 'Every item of the batch failed' }
				: null;
		batch.updated_at = at;
		batch.completed_at = at;
		// Webhooks know batch.completed and batch.failed only (API document); a partial batch sends none.
		if (batch.status !== 'partial')
			emitEvent(
				state,
				batch.status === 'completed' ? 'batch.completed' : 'batch.failed',
				{ ...batch },
				record.principal.accountId,
			);
		// Sandbox-internal announcement of every finished batch, partial ones included (tests).
		state.events.emit('batch.finished', { ...batch });
	}
}

/** Creates the run of one item through the target's own handler (or the workflow runner); returns its id. */
function startItem(
	state: SandboxState,
	record: BatchRecord,
	body: Record<string, unknown>,
): string {
	const services = servicesOf(state);
	const endpoint = record.endpoint ?? tableEndpoint('POST', '/workflows/{workflowKey}/runs')!;
	const req = {
		body,
		params: {},
		query: {},
		path: endpoint.path,
		method: 'POST',
		get: () => undefined,
		header: () => undefined,
	} as unknown as Request;
	const ctx: RouteContext = {
		req,
		res: undefined as never,
		state,
		endpoint,
		principal: record.principal,
		origin: record.origin,
		baseUrl: `${record.origin}/v1`,
	};
	const reply =
		record.batch.mode === 'workflow'
			? createWorkflowRun(ctx, services, record.batch.target, body)
			: handlerFor(services, endpoint)(ctx);
	if (reply instanceof Promise)
		throw new ProblemError(
			500,
			'internal_error',
			`${operationName(endpoint)} cannot run inside a batch`,
		);
	if (!reply.runId)
		throw new ProblemError(
			500,
			'internal_error',
			`${operationName(endpoint)} did not create a run`,
		);
	return reply.runId;
}

const servicesByState = new WeakMap<SandboxState, SandboxServices>();
function servicesOf(state: SandboxState): SandboxServices {
	return servicesByState.get(state)!;
}

function batchOf(ctx: RouteContext): BatchRecord {
	const id = String(ctx.req.params.batchId);
	const record = batchesOf(ctx.state).batches.get(id);
	if (!record || record.principal.accountId !== principalOf(ctx).accountId)
		throw notFound('batch', id);
	return record;
}

function itemOf(ctx: RouteContext): { record: BatchRecord; item: BatchItemRecord } {
	const record = batchOf(ctx);
	const id = String(ctx.req.params.itemId);
	const item = record.items.find((i) => i.id === id);
	if (!item) throw notFound(`item of batch ${record.batch.id}`, id);
	return { record, item };
}

function create(ctx: RouteContext): { status: number; body: unknown } {
	const params = bodyOf(ctx);
	const principal = principalOf(ctx);
	const mode = params.mode;
	if (mode !== 'operation' && mode !== 'workflow')
		throw new ProblemError(400, 'invalid_parameter', 'mode must be operation or workflow', {
			param: 'mode',
		});
	const target = typeof params.target === 'string' ? params.target : '';
	let endpoint: TableEndpoint | undefined;
	if (mode === 'workflow') {
		if (!(WORKFLOW_KEYS as readonly string[]).includes(target)) {
			throw new ProblemError(
				400,
				'invalid_parameter',
				`target must be a workflow key: ${WORKFLOW_KEYS.join(', ')}`,
				{ param: 'target' },
			);
		}
		requireScope(ctx, 'workflows:write');
	} else {
		endpoint = operationTarget(target);
		if (!endpoint) {
			throw new ProblemError(
				400,
				'invalid_parameter',
				`target ${JSON.stringify(target)} is not an operation name: write the method and path of a generating submit as the API document does, e.g. "POST /images/generations"`,
				{ param: 'target' },
			);
		}
		if (endpoint.scope) requireScope(ctx, endpoint.scope);
	}
	const items = params.items;
	if (!Array.isArray(items) || items.length === 0 || items.length > MAX_ITEMS) {
		throw new ProblemError(
			400,
			'invalid_parameter',
			`items must be an array of 1 to ${MAX_ITEMS} objects`,
			{ param: 'items' },
		);
	}
	const bad = items.findIndex((i) => typeof i !== 'object' || i === null || Array.isArray(i));
	if (bad >= 0)
		throw new ProblemError(
			400,
			'invalid_parameter',
			`items[${bad}] must be an object (the body the target takes)`,
			{ param: `items[${bad}]` },
		);
	const concurrency = params.concurrency === undefined ? 5 : Number(params.concurrency);
	if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
		throw new ProblemError(
			400,
			'invalid_parameter',
			`concurrency must be an integer from 1 to ${MAX_CONCURRENCY}`,
			{ param: 'concurrency' },
		);
	}
	const at = nowIso();
	const id = newId('batch');
	const record: BatchRecord = {
		batch: {
			id,
			object: 'batch',
			mode,
			target: target,
			status: 'queued',
			total_items: items.length,
			completed_items: 0,
			failed_items: 0,
			concurrency,
			input_summary: { mode, target: target, item_count: items.length },
			output: null,
			error: null,
			created_at: at,
			updated_at: at,
			completed_at: null,
		},
		items: (items as Array<Record<string, unknown>>).map((body, index) => ({
			id: newId('bitem'),
			object: 'batch_item',
			batch_id: id,
			index,
			target: target,
			status: 'queued',
			run_id: null,
			input_summary: summaryOf(body),
			output: null,
			error: null,
			created_at: at,
			updated_at: at,
			completed_at: null,
		})),
		bodies: items as Array<Record<string, unknown>>,
		attempts: items.map(() => 0),
		principal,
		origin: ctx.origin,
		endpoint,
		active: 0,
	};
	batchesOf(ctx.state).batches.set(id, record);
	const answer = { ...record.batch, items: record.items.map((i) => ({ ...i })) };
	pump(ctx.state, record);
	return { status: 201, body: answer };
}

/** Handlers of the batch endpoints. Items run through the target's own handler, at most `concurrency` at once. */
export function batchHandlers(
	services: SandboxServices,
	targetHandler: TargetHandler,
): Record<string, RouteHandler> {
	servicesByState.set(services.state, services);
	targetHandlers.set(services, targetHandler);
	return {
		'POST /batches': create,
		'GET /batches': (ctx) => {
			const accountId = principalOf(ctx).accountId;
			const batches = [...batchesOf(ctx.state).batches.values()]
				.filter((r) => r.principal.accountId === accountId)
				.reverse();
			return listReply(
				ctx.req,
				batches.map((r) => r.batch),
			);
		},
		'GET /batches/{batchId}': (ctx) => ({ status: 200, body: batchOf(ctx).batch }),
		'GET /batches/{batchId}/items': (ctx) => listReply(ctx.req, batchOf(ctx).items),
		'GET /batches/{batchId}/items/{itemId}': (ctx) => ({ status: 200, body: itemOf(ctx).item }),
		'POST /batches/{batchId}/items/{itemId}/retry': (ctx) => {
			const { record, item } = itemOf(ctx);
			if (item.status !== 'failed')
				throw new ProblemError(
					409,
					'item_not_failed',
					`Item ${item.id} is ${item.status}; only a failed item can be retried`,
				);
			const at = nowIso();
			item.status = 'queued';
			item.error = null;
			item.run_id = null;
			item.completed_at = null;
			item.updated_at = at;
			const { batch } = record;
			batch.failed_items--;
			batch.status = 'processing';
			batch.output = null;
			batch.error = null;
			batch.completed_at = null;
			batch.updated_at = at;
			const answer = { ...item };
			pump(ctx.state, record);
			return { status: 200, body: answer };
		},
	};
}
