/**
 * What a user can do about a service code: shown with the error and in Continue On Fail items.
 * The codes are the API document's (Errors; run failure reasons) and decisions.md's.
 */
const HINTS: Record<string, string> = {
	insufficient_credits:
		'The account has too few credits: top up, or lower the cost (fewer images, shorter media, a cheaper model).',
	team_pool_insufficient:
		'The workspace pool has too few credits: ask a workspace admin to top it up, or remove Team ID to bill your own balance.',
	team_member_cap:
		'Your spending cap in this workspace is reached: ask a workspace admin to raise it, or remove Team ID.',
	team_monthly_cap:
		"The workspace's monthly cap is reached: wait for next month or ask a workspace admin to raise it.",
	member_budget_exceeded:
		'Your own monthly budget is used up: raise it in your account settings, or wait for next month.',
	provider_error:
		'The model failed on the provider side; nothing was charged. Try again, or choose another model.',
	team_role_cannot_spend:
		'Your role in this workspace cannot spend its pool: ask an admin for a spending role, or remove Team ID.',
	invalid_team_id:
		'You are not a member of this workspace: check Team ID (MediaGen Library → Team → List).',
	team_billing_unsupported: 'This operation cannot bill a workspace pool: remove Team ID.',
	project_filing_unsupported:
		'This operation makes no image, video or audio a project can hold: remove Project ID.',
	insufficient_scope:
		'The API key lacks the scope named in required_scope: create a key with it, or add it to the OAuth2 credential.',
	quote_invalid:
		'The quote token is not one the service issued: estimate again (Estimate Cost) or remove Quote Token.',
	quote_expired:
		'The quote lapsed. Set Max Credits so the node accepts the fresh quote in this answer (field quote) when it fits.',
	quote_mismatch:
		'The parameters or the price changed since the quote. Set Max Credits so the node accepts the fresh quote in this answer (field quote) when it fits.',
	model_not_found:
		'The service does not know this model alias. Pick a model from the list; a superseded alias works only while the service still keeps it.',
	rate_limited:
		'Too many requests: the node already waited and retried. Lower Max Parallel Submits or run fewer items at once.',
	idempotency_key_reused:
		'This Idempotency-Key was used with other parameters; no new run was created.',
	budget_exceeded:
		"A spending limit would be passed (the error names it, with spent, in_flight, admitted, quoted and limit): raise Max Credits per Execution (node option) or the credential's Credit Limit per Day / per Month, or wait for the next period. Nothing was sent for this item.",
	max_credits_exceeded:
		'The price is above Max Credits: raise it, or choose cheaper parameters. Nothing was sent for this item.',
	job_named_twice:
		'Two items name the same job (Options → Idempotency Key) with different requests: give each its own value. Nothing was sent for them.',
	invalid_prompt: 'The prompt is missing or was refused: check Prompt.',
	invalid_client:
		'The service does not accept the OAuth2 credential: check its Client ID and Client Secret. Nothing was spent.',
	invalid_scope:
		"The OAuth2 client is not granted every scope in the credential's Scope: remove the ones named, or leave Scope empty for the client's default scopes. Nothing was spent.",
};

export function hintFor(code: string | undefined): string | undefined {
	return code ? HINTS[code] : undefined;
}
