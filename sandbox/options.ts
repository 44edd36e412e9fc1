/** Knobs of the sandbox service (CLI flags and test options). */
export interface SandboxOptions {
	/** how long a run stays processing (ms) */
	latencyMs: number;
	/**
	 * how long a run of a long kind stays processing (ms): video, lip sync, 3D, producers and
	 * trainings (run-durations.ts); 0 gives them `latencyMs` too
	 */
	longRunLatencyMs: number;
	/** share of runs that fail with provider_error (0..1) */
	failureRate: number;
	/** requests per second per credential before 429 rate_limited */
	rateLimitPerSecond: number;
	/** runs processing at once per account; further runs wait queued */
	concurrencyPerAccount: number;
	/** lifetime of OAuth access tokens (s) */
	tokenTtlSeconds: number;
	/** lifetime of cost quotes (s) */
	quoteTtlSeconds: number;
	/** starting balance of the sandbox account (credits) */
	startingCredits: number;
	/** webhook retry back-off is multiplied by this (tests use small values) */
	webhookBackoffScale: number;
	/** disable a webhook endpoint once one of its deliveries failed every attempt (the sandbox's choice; tests may turn it off) */
	webhookAutoDisable: boolean;
	/** share of requests hit by injected chaos (500/503, 429, resets, slow replies), 0..1 */
	chaos: number;
	/** how late a chaos "slow reply" answers (ms): longer than the client's request timeout */
	chaosSlowMs: number;
	/**
	 * bytes of every MP4 a run produces (0: the clip as it is): the clip followed by a `free` box
	 * generated while it is sent, so a 1 GB output costs the sandbox no memory (large-files.ts)
	 */
	videoOutputBytes: number;
	/**
	 * pictures show the text that made them (a prompt, or the edit and the input's caption), drawn
	 * on a 320 px short side and kept in the PNG's Description chunk (png.ts); off: 64 px gradients
	 */
	captionPictures: boolean;
}

export const defaultSandboxOptions: SandboxOptions = {
	latencyMs: 1500,
	longRunLatencyMs: 0,
	failureRate: 0,
	rateLimitPerSecond: 500,
	concurrencyPerAccount: 50,
	tokenTtlSeconds: 3600,
	quoteTtlSeconds: 600,
	startingCredits: 100000,
	webhookBackoffScale: 1,
	webhookAutoDisable: true,
	chaos: 0,
	chaosSlowMs: 35_000,
	videoOutputBytes: 0,
	captionPictures: false,
};

/** The ready-made credentials the sandbox starts with (printed by `npm run sandbox`). */
export const SANDBOX_API_KEY = 'mg_sandbox_full_access_key';
export const SANDBOX_OAUTH_CLIENT_ID = 'mg_sandbox_client';
export const SANDBOX_OAUTH_CLIENT_SECRET = 'mg_sandbox_client_secret';
export const SANDBOX_ACCOUNT_ID = 'acc_sandbox';
export const SANDBOX_TEAM_ID = 'team_sandbox';
export const SANDBOX_VIEWER_TEAM_ID = 'team_viewer';
export const SANDBOX_PROJECT_ID = 'proj_sandbox';

/**
 * Seeded money situations, so that every failure reason of the API document can be produced from
 * any process: a key whose account has no credits (insufficient_credits), a key whose account has a
 * zero monthly budget (member_budget_exceeded), and workspaces of the sandbox account with an empty
 * pool (team_pool_insufficient), a zero monthly cap (team_monthly_cap) and a zero member cap
 * (team_member_cap).
 */
export const SANDBOX_BROKE_ACCOUNT_ID = 'acc_broke';
export const SANDBOX_BROKE_API_KEY = 'mg_sandbox_no_credits_key';
export const SANDBOX_BUDGET_ACCOUNT_ID = 'acc_budgeted';
export const SANDBOX_BUDGET_API_KEY = 'mg_sandbox_zero_budget_key';
export const SANDBOX_EMPTY_POOL_TEAM_ID = 'team_empty_pool';
export const SANDBOX_MONTHLY_CAP_TEAM_ID = 'team_month_capped';
export const SANDBOX_MEMBER_CAP_TEAM_ID = 'team_member_capped';

/** Every scope the API document names. */
export const ALL_SCOPES = [
	'account:read',
	'credits:read',
	'models:read',
	'runs:read',
	'uploads:write',
	'influencers:read',
	'influencers:write',
	'projects:read',
	'projects:write',
	'elements:read',
	'elements:write',
	'brands:read',
	'brands:write',
	'moodboards:read',
	'teams:read',
	'images:write',
	'videos:write',
	'lipsync:write',
	'audio:write',
	'products:write',
	'marketing:read',
	'workflows:read',
	'workflows:write',
	'batches:read',
	'batches:write',
	'webhooks:read',
	'webhooks:write',
	'reels:read',
	'reels:write',
	'tasks:read',
	'tasks:write',
];
