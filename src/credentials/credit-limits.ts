import type { INodeProperties } from 'n8n-workflow';

const limit = (period: 'Day' | 'Month', span: string): INodeProperties => ({
	displayName: `Credit Limit per ${period}`,
	name: `creditLimitPer${period}`,
	type: 'string',
	default: '',
	placeholder: 'no limit',
	description: `Most credits the account may spend ${span} (UTC). Before sending, the MediaGen nodes using this credential add what they are about to submit to what the service's ledger shows for the period (GET /usage, plus runs still in flight and batch items still queued; needs runs:read and batches:read) and refuse an item that would pass this with budget_exceeded. It holds across executions, workflows and workers; executions that check at the same moment can pass it together (README: Spend control). Empty: no limit.`,
});

/** The credential fields of the credit limits (both MediaGen credentials; read in src/spend/budget.ts). */
export const CREDIT_LIMIT_PROPERTIES: INodeProperties[] = [
	limit('Day', 'per day'),
	limit('Month', 'per calendar month'),
];
