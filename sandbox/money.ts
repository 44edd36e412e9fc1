import type { LedgerEntry, RunRecord, SandboxState } from './state';

/**
 * Whether a submit of `price` credits can be paid, decided when the run is accepted: the run is
 * then queued either way, and one that cannot be paid fails with the money reason in `error.code`
 * (API document, Errors: "Money failures record their real reason and not provider_error").
 *
 * - personal balance below the price: `insufficient_credits`
 * - workspace pool below the price: `team_pool_insufficient`
 * - the workspace's monthly cap (`Team.monthlyCap`) would be passed: `team_monthly_cap`
 * - the member's cap in that workspace (`Team.memberCaps[account]`) would be passed: `team_member_cap`
 * - the account's own monthly budget (`Account.monthlyBudget`, personal and workspace spending
 *   together) would be passed: `member_budget_exceeded`
 *
 * Spending counts this calendar month's charges plus the runs still waiting to be charged.
 */
export function moneyFailureOf(
	state: SandboxState,
	accountId: string,
	teamId: string | undefined,
	price: number,
): string | undefined {
	const month = new Date().toISOString().slice(0, 7);
	const spent = (charged: (e: LedgerEntry) => boolean, pending: (r: RunRecord) => boolean) =>
		state.ledger
			.filter((e) => e.at.startsWith(month) && charged(e))
			.reduce((n, e) => n + e.credits, 0) +
		[...state.runs.values()]
			.filter(
				(r) =>
					!r.moneyFailure &&
					(r.run.status === 'queued' || r.run.status === 'processing') &&
					pending(r),
			)
			.reduce((n, r) => n + r.price, 0);
	if (teamId) {
		const team = state.teams.get(teamId)!;
		if (team.pool - team.reserved < price) return 'team_pool_insufficient';
		if (
			team.monthlyCap !== undefined &&
			spent(
				(e) => e.team_id === teamId,
				(r) => r.teamId === teamId,
			) +
				price >
				team.monthlyCap
		)
			return 'team_monthly_cap';
		const memberCap = team.memberCaps?.[accountId];
		const memberSpent = () =>
			spent(
				(e) => e.team_id === teamId && e.account_id === accountId,
				(r) => r.teamId === teamId && r.accountId === accountId,
			);
		if (memberCap !== undefined && memberSpent() + price > memberCap) return 'team_member_cap';
	} else {
		const account = state.account(accountId);
		if (account.balance - account.reserved < price) return 'insufficient_credits';
	}
	const budget = state.account(accountId).monthlyBudget;
	if (
		budget !== undefined &&
		spent(
			(e) => e.account_id === accountId,
			(r) => r.accountId === accountId,
		) +
			price >
			budget
	)
		return 'member_budget_exceeded';
	return undefined;
}

/** error.message of a run that failed for a money reason. */
export const MONEY_FAILURE_MESSAGES: Record<string, string> = {
	insufficient_credits: 'The account balance cannot pay for this run',
	team_pool_insufficient: 'The workspace pool cannot pay for this run',
	team_monthly_cap: "This run would pass the workspace's monthly spending cap",
	team_member_cap: 'This run would pass your spending cap in the workspace',
	member_budget_exceeded: 'This run would pass your monthly budget',
};
