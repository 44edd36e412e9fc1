/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the local sandbox service: runs in Node, never shipped (CONTRIBUTING.md, Linting) */
import { EventEmitter } from 'node:events';

import { nowIso } from './ids';
import type { KeptBytes, PaddedFile } from './large-files';
import {
	ALL_SCOPES,
	SANDBOX_ACCOUNT_ID,
	SANDBOX_API_KEY,
	SANDBOX_BROKE_ACCOUNT_ID,
	SANDBOX_BROKE_API_KEY,
	SANDBOX_BUDGET_ACCOUNT_ID,
	SANDBOX_BUDGET_API_KEY,
	SANDBOX_EMPTY_POOL_TEAM_ID,
	SANDBOX_MEMBER_CAP_TEAM_ID,
	SANDBOX_MONTHLY_CAP_TEAM_ID,
	SANDBOX_OAUTH_CLIENT_ID,
	SANDBOX_OAUTH_CLIENT_SECRET,
	SANDBOX_PROJECT_ID,
	SANDBOX_TEAM_ID,
	SANDBOX_VIEWER_TEAM_ID,
	type SandboxOptions,
} from './options';

export interface Principal {
	credentialId: string;
	accountId: string;
	scopes: Set<string>;
}

export interface Account {
	id: string;
	object: 'account';
	display_name: string;
	email: string;
	plan: string;
	status: 'active';
	created_at: string;
	updated_at: string;
	balance: number;
	reserved: number;
	/** credits this account may spend per calendar month, personal and workspace runs together (member_budget_exceeded) */
	monthlyBudget?: number;
}

export interface Team {
	id: string;
	name: string;
	/** accountId -> role; only owner/admin/member can spend the pool */
	members: Record<string, 'owner' | 'admin' | 'member' | 'viewer'>;
	pool: number;
	reserved: number;
	/** credits the workspace may spend per calendar month (team_monthly_cap) */
	monthlyCap?: number;
	/** accountId -> credits that member may spend from the pool per month (team_member_cap) */
	memberCaps?: Record<string, number>;
}

export interface RunRecord {
	run: Record<string, unknown> & { id: string; status: string };
	accountId: string;
	credentialId: string;
	price: number;
	teamId?: string;
	/** set at submit when the run must fail for money reasons */
	moneyFailure?: string;
	/** the Idempotency-Key of the request that created the run (none for batch items and keyless routes) */
	idempotencyKey?: string;
	files: Map<string, PaddedFile>;
}

export interface LedgerEntry {
	run_id: string;
	account_id: string;
	team_id: string | null;
	credits: number;
	at: string;
}

export interface IdempotencyRecord {
	/** the operation and path the key was first used on, e.g. "POST /v1/images/generations" */
	request: string;
	/** the parsed body of that first request, compared structurally with every later one */
	body: unknown;
	status: number;
	/** id of the resource the original request created (a run or another object) */
	resourceId: string;
	kind: 'run' | 'object';
	/** what the first request answered (replayed as is for non-run results) */
	answer: unknown;
	at: number;
}

export interface UploadRecord {
	asset_id: string;
	accountId: string;
	content_type: string;
	filename?: string;
	uploadExpiresAt: number;
	assetExpiresAt: number;
	/** the uploaded bytes, when small */
	bytes?: Buffer;
	/** a large upload, kept in a temporary file (large-files.ts) */
	spool?: { path: string; size: number };
}

/** What was uploaded to an asset, wherever the sandbox keeps it (undefined: nothing yet). */
export function uploadedBytes(upload: UploadRecord | undefined): KeptBytes | undefined {
	if (upload?.bytes) return { size: upload.bytes.length, bytes: upload.bytes };
	return upload?.spool;
}

export interface RequestLogEntry {
	method: string;
	path: string;
	status: number;
	idempotencyKey?: string;
	/** the parsed JSON body of an API request (not kept for the token request, which carries the client secret) */
	body?: unknown;
	at: number;
}

/** A failure injected for the next matching requests (tests and chaos). */
export interface Fault {
	method?: string;
	path?: string | RegExp;
	/** before: answer instead of handling; after: handle, then answer with the fault (the service acted) */
	when: 'before' | 'after';
	status?: number;
	/** the problem document's code (default: rate_limited for 429, service_unavailable otherwise) */
	code?: string;
	retryAfter?: number;
	/** drop the connection instead of answering */
	reset?: boolean;
	/** delay the answer (ms) */
	delayMs?: number;
	/**
	 * A misbehaving service or proxy (off the published contract, so not checked against it): answer
	 * `status` (default 200) with this body as it is, e.g. a run that is not a run.
	 */
	body?: string;
	contentType?: string;
	/** A misbehaving service or proxy: answer with a secret of the request echoed back (echo.ts). */
	echo?: SecretEcho;
	remaining: number;
}

/** Which secret an echo fault sends back, where in the answer and how encoded. */
export interface SecretEcho {
	/**
	 * bearer: the request's bearer credential (API key or access token); client_id / client_secret:
	 * the token request's client (JSON body or Basic); basic: the Basic header's base64 as sent;
	 * value: `value` itself (e.g. a webhook endpoint's signing secret)
	 */
	secret: 'bearer' | 'client_id' | 'client_secret' | 'basic' | 'value';
	value?: string;
	/** a problem's detail or title, an OAuth2 error_description, or a text/plain body */
	in: 'detail' | 'title' | 'error_description' | 'text';
	/** json: as a JSON string literal's inside (quotes and backslashes escaped); url: percent-encoded; base64 */
	encoding?: 'raw' | 'json' | 'url' | 'base64';
}

/** Everything the sandbox remembers. One instance per running sandbox. */
export class SandboxState {
	readonly events = new EventEmitter();
	readonly accounts = new Map<string, Account>();
	readonly apiKeys = new Map<string, { accountId: string; scopes: string[]; label: string }>();
	readonly oauthClients = new Map<
		string,
		{ secret: string; accountId: string; allowedScopes: string[]; defaultScopes: string[] }
	>();
	readonly tokens = new Map<
		string,
		{ clientId: string; accountId: string; scopes: string[]; expiresAt: number }
	>();
	readonly teams = new Map<string, Team>();
	readonly projects = new Map<
		string,
		{ id: string; name: string; accountId: string; items: string[] }
	>();
	readonly runs = new Map<string, RunRecord>();
	readonly ledger: LedgerEntry[] = [];
	readonly idempotency = new Map<string, IdempotencyRecord>();
	readonly uploads = new Map<string, UploadRecord>();
	readonly requests: RequestLogEntry[] = [];
	readonly faults: Fault[] = [];
	tokensIssued = 0;

	constructor(readonly options: SandboxOptions) {
		this.addAccount(SANDBOX_ACCOUNT_ID, 'Sandbox Studio', options.startingCredits);
		this.apiKeys.set(SANDBOX_API_KEY, {
			accountId: SANDBOX_ACCOUNT_ID,
			scopes: [...ALL_SCOPES],
			label: 'full access',
		});
		// accounts whose every paid run fails for a money reason (reachable from another process, e.g. real n8n)
		this.addAccount(SANDBOX_BROKE_ACCOUNT_ID, 'Broke Studio', 0);
		this.apiKeys.set(SANDBOX_BROKE_API_KEY, {
			accountId: SANDBOX_BROKE_ACCOUNT_ID,
			scopes: [...ALL_SCOPES],
			label: 'no credits',
		});
		this.addAccount(
			SANDBOX_BUDGET_ACCOUNT_ID,
			'Budgeted Studio',
			options.startingCredits,
		).monthlyBudget = 0;
		this.apiKeys.set(SANDBOX_BUDGET_API_KEY, {
			accountId: SANDBOX_BUDGET_ACCOUNT_ID,
			scopes: [...ALL_SCOPES],
			label: 'zero monthly budget',
		});
		this.oauthClients.set(SANDBOX_OAUTH_CLIENT_ID, {
			secret: SANDBOX_OAUTH_CLIENT_SECRET,
			accountId: SANDBOX_ACCOUNT_ID,
			allowedScopes: [...ALL_SCOPES],
			defaultScopes: ALL_SCOPES.filter(
				(s) => s.endsWith(':read') || s === 'images:write' || s === 'uploads:write',
			),
		});
		this.teams.set(SANDBOX_TEAM_ID, {
			id: SANDBOX_TEAM_ID,
			name: 'Sandbox Team',
			members: { [SANDBOX_ACCOUNT_ID]: 'owner' },
			pool: 5000,
			reserved: 0,
		});
		this.teams.set(SANDBOX_VIEWER_TEAM_ID, {
			id: SANDBOX_VIEWER_TEAM_ID,
			name: 'Viewer Team',
			members: { [SANDBOX_ACCOUNT_ID]: 'viewer' },
			pool: 5000,
			reserved: 0,
		});
		this.teams.set(SANDBOX_EMPTY_POOL_TEAM_ID, {
			id: SANDBOX_EMPTY_POOL_TEAM_ID,
			name: 'Empty Pool Team',
			members: { [SANDBOX_ACCOUNT_ID]: 'member' },
			pool: 0,
			reserved: 0,
		});
		this.teams.set(SANDBOX_MONTHLY_CAP_TEAM_ID, {
			id: SANDBOX_MONTHLY_CAP_TEAM_ID,
			name: 'Capped Month Team',
			members: { [SANDBOX_ACCOUNT_ID]: 'member' },
			pool: 5000,
			reserved: 0,
			monthlyCap: 0,
		});
		this.teams.set(SANDBOX_MEMBER_CAP_TEAM_ID, {
			id: SANDBOX_MEMBER_CAP_TEAM_ID,
			name: 'Capped Member Team',
			members: { [SANDBOX_ACCOUNT_ID]: 'member' },
			pool: 5000,
			reserved: 0,
			memberCaps: { [SANDBOX_ACCOUNT_ID]: 0 },
		});
		this.projects.set(SANDBOX_PROJECT_ID, {
			id: SANDBOX_PROJECT_ID,
			name: 'Sandbox Project',
			accountId: SANDBOX_ACCOUNT_ID,
			items: [],
		});
	}

	private addAccount(id: string, displayName: string, balance: number): Account {
		const at = nowIso();
		const account: Account = {
			id,
			object: 'account',
			display_name: displayName,
			email: `${id.replace(/^acc_/, '')}@sandbox.invalid`,
			plan: 'pro',
			status: 'active',
			created_at: at,
			updated_at: at,
			balance,
			reserved: 0,
		};
		this.accounts.set(id, account);
		return account;
	}

	/** Adds an API key with the given scopes (tests use narrow keys to provoke insufficient_scope). */
	createApiKey(scopes: string[], label = 'test key', accountId = SANDBOX_ACCOUNT_ID): string {
		const key = `mg_key_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
		this.apiKeys.set(key, { accountId, scopes, label });
		return key;
	}

	/** A new account of its own with a full-access key (tests that need a ledger nobody else writes to). */
	createAccount(
		displayName = 'Test Studio',
		balance = this.options.startingCredits,
	): { accountId: string; apiKey: string } {
		const accountId = `acc_${Math.random().toString(36).slice(2, 10)}`;
		this.addAccount(accountId, displayName, balance);
		return { accountId, apiKey: this.createApiKey([...ALL_SCOPES], displayName, accountId) };
	}

	account(id: string): Account {
		const account = this.accounts.get(id);
		if (!account) throw new Error(`no account ${id}`);
		return account;
	}

	/** The ledger's charges of one run: one entry once it completed, none while it waits or after it failed. */
	chargesFor(runId: string): LedgerEntry[] {
		return this.ledger.filter((e) => e.run_id === runId);
	}

	/** Every run created by a request carrying this Idempotency-Key (any account), oldest first. */
	runsWithKey(idempotencyKey: string): RunRecord[] {
		return [...this.runs.values()].filter((r) => r.idempotencyKey === idempotencyKey);
	}

	/** The charges of the runs created with this Idempotency-Key. */
	chargesForKey(idempotencyKey: string): LedgerEntry[] {
		const runs = new Set(this.runsWithKey(idempotencyKey).map((r) => r.run.id));
		return this.ledger.filter((e) => runs.has(e.run_id));
	}

	/** Requests that reached a route (method + path as sent, e.g. "POST /v1/images/generations"). */
	countRequests(method: string, pathPrefix: string): number {
		return this.requests.filter((r) => r.method === method && r.path.startsWith(pathPrefix)).length;
	}
}
