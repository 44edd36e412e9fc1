/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// Example 08 in real n8n: a brief comes in through n8n's Form Trigger, MediaGen estimates it, n8n's
// Wait node asks for approval on a form (what a Gmail or Slack "send and wait" would link to), and
// only an approval submits, bound to the quote the approver saw.
import type { LedgerEntry, RequestLogEntry } from '../../sandbox/state';
import { evaluateExpressions, readExample, senselessItems } from './example-checks';
import {
	describeWithN8n,
	eventually,
	n8nApi,
	readE2eState,
	sandboxAdmin,
	type N8nItem,
	type N8nRun,
} from './state';

const EXAMPLE = '08-approval-form-before-spending';
const FORM_PATH = 'mediagen-approval-request';

interface Execution {
	id: string;
	status: string;
	data?: {
		resultData: {
			runData: Record<
				string,
				Array<{ data?: { main: N8nItem[][] }; metadata?: { resumeFormUrl?: string } }>
			>;
		};
	};
}

describeWithN8n(
	'example 08, approve before spending, in real n8n (Form Trigger → Estimate → Wait for an approval form → Generate)',
	() => {
		const state = readE2eState();
		const workflowId = state.examples?.[EXAMPLE];
		const ledger = async () => (await sandboxAdmin<{ data: LedgerEntry[] }>(state, '/ledger')).data;
		const requests = async () =>
			(await sandboxAdmin<{ data: RequestLogEntry[] }>(state, '/requests')).data;
		const execution = (id: string) =>
			n8nApi<Execution>(state, `/executions/${id}?includeData=true`);
		const setSandbox = (options: Record<string, unknown>) =>
			fetch(`${state.sandbox.origin}/_sandbox/options`, {
				method: 'PATCH',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(options),
			});

		beforeAll(async () => {
			expect(workflowId).toBeDefined();
			await n8nApi(state, `/workflows/${workflowId}/activate`, 'POST');
			await eventually('the form to be served', async () =>
				(await fetch(`${state.n8nUrl}/form/${FORM_PATH}`)).status === 200 ? true : undefined,
			);
		});
		afterAll(async () => {
			await n8nApi(state, `/workflows/${workflowId}/deactivate`, 'POST');
		});

		/** Submits the brief, and returns the execution waiting for approval and the approval form's address. */
		async function requestImages(prompt: string, images: number) {
			const brief = new FormData();
			brief.append('field-0', prompt);
			brief.append('field-1', String(images));
			const submitted = await fetch(`${state.n8nUrl}/form/${FORM_PATH}`, {
				method: 'POST',
				body: brief,
			});
			expect(submitted.status).toBe(200);
			const { formWaitingUrl } = (await submitted.json()) as { formWaitingUrl: string };
			const executionId = /\/form-waiting\/(\d+)/.exec(formWaitingUrl)![1];
			const waiting = await eventually('the execution to wait for approval', async () => {
				const current = await execution(executionId);
				return current.status === 'waiting' ? current : undefined;
			});
			const [estimate] = waiting.data!.resultData.runData['Estimate Cost'][0].data!.main[0];
			const approvalForm =
				waiting.data!.resultData.runData['Ask for Approval'][0].metadata!.resumeFormUrl!;
			return {
				executionId,
				estimate: estimate.json as { credits: number; quote_token: string; model: string },
				approvalForm,
			};
		}

		async function answer(
			approvalForm: string,
			decision: 'Approve' | 'Decline',
			executionId: string,
		) {
			const form = new FormData();
			form.append('field-0', decision);
			const res = await fetch(approvalForm, { method: 'POST', body: form });
			expect(res.status).toBe(200);
			return await eventually('the execution to finish', async () => {
				const current = await execution(executionId);
				return ['success', 'error'].includes(current.status) ? current : undefined;
			});
		}

		it('approve: the form shows the quoted price; one run, charged once at that price, bound to the quote the approver saw', async () => {
			const { executionId, estimate, approvalForm } = await requestImages(
				'a red fox in fresh snow',
				2,
			);
			expect(estimate.credits).toBe(8);
			const page = await (await fetch(approvalForm)).text();
			expect(page).toContain('cost 8 credits on image.aurora-2');
			const before = (await requests()).length;
			const done = await answer(approvalForm, 'Approve', executionId);
			expect(done.status).toBe('success');
			const [image] = done.data!.resultData.runData['Generate Images'][0].data!.main[0];
			expect(image.json).toMatchObject({ status: 'completed', credits: 8, quoted_credits: 8 });
			expect(image.binary?.data.mimeType).toBe('image/png');
			const submits = (await requests())
				.slice(before)
				.filter((r) => r.method === 'POST' && r.path === '/v1/images/generations');
			expect(
				submits.map((r) => [r.status, (r.body as { quote_token?: string }).quote_token]),
			).toEqual([[202, estimate.quote_token]]);
			const charges = (await ledger()).filter((e) => e.run_id === image.json.run_id);
			expect(charges.map((e) => e.credits)).toEqual([8]);
			// what every example's output must be (test/e2e/example-checks.ts): every item makes sense, every expression has a value
			expect(senselessItems(done as unknown as N8nRun)).toEqual([]);
			expect(evaluateExpressions(readExample(EXAMPLE), done as unknown as N8nRun).problems).toEqual(
				[],
			);
		});

		it('decline: nothing is submitted and nothing is charged', async () => {
			const { executionId, approvalForm } = await requestImages('a lighthouse at dusk', 3);
			const chargesBefore = (await ledger()).length;
			const before = (await requests()).length;
			const done = await answer(approvalForm, 'Decline', executionId);
			expect(done.status).toBe('success');
			expect(done.data!.resultData.runData['Declined']).toHaveLength(1);
			expect(done.data!.resultData.runData['Generate Images']).toBeUndefined();
			expect(
				(await requests())
					.slice(before)
					.filter((r) => r.method === 'POST' && r.path === '/v1/images/generations'),
			).toEqual([]);
			await new Promise((r) => setTimeout(r, 1000));
			expect(await ledger()).toHaveLength(chargesBefore);
		});

		it('a quote that expired while waiting: the fresh quote is used, because it is within Max Credits (the approved price)', async () => {
			await setSandbox({ quoteTtlSeconds: 1 });
			try {
				const { executionId, estimate, approvalForm } = await requestImages(
					'a paper boat on a rainy street',
					1,
				);
				await new Promise((r) => setTimeout(r, 1500));
				const before = (await requests()).length;
				const done = await answer(approvalForm, 'Approve', executionId);
				expect(done.status).toBe('success');
				const [image] = done.data!.resultData.runData['Generate Images'][0].data!.main[0];
				const submits = (await requests())
					.slice(before)
					.filter((r) => r.method === 'POST' && r.path === '/v1/images/generations');
				// the approved token first (refused: expired), then the fresh quote of the answer
				expect(submits.map((r) => r.status)).toEqual([409, 202]);
				expect((submits[0].body as { quote_token?: string }).quote_token).toBe(
					estimate.quote_token,
				);
				expect((submits[1].body as { quote_token?: string }).quote_token).not.toBe(
					estimate.quote_token,
				);
				expect(
					(await ledger()).filter((e) => e.run_id === image.json.run_id).map((e) => e.credits),
				).toEqual([estimate.credits]);
			} finally {
				await setSandbox({ quoteTtlSeconds: 600 });
			}
		});
	},
);
