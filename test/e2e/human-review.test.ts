/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// examples/10 in real n8n 2.41.1: an AI Agent (OpenAI Chat Model → the scripted fake of the suite)
// with MediaGen Video → Estimate Generate Cost as a tool and MediaGen Video → Generate behind n8n's
// human review for tool calls (Send Email → Send and Wait as "Ask for Approval", its HitlTool
// variant). The approval mail goes to an SMTP sink in this process; the test opens its Approve or
// Decline link. The example's Manual Trigger becomes a Webhook here: a manual execution started by
// `n8n execute` cannot wait for a person; one started by a webhook waits in the running n8n.
import { findModel } from '../../sandbox/models';
import { toolResults } from '../helpers/fake-openai-chat';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../helpers/smtp-sink';
import { eventually, publicApi } from './own-n8n-client';
import {
	chatRequests,
	describeWithN8n,
	ledger,
	readE2eState,
	sandboxRequests,
	scriptChat,
} from './state';

const EXAMPLE = '10-approve-before-spending';
const VIDEO_MODEL = 'video.motion-2';
const PRICE = findModel(VIDEO_MODEL)!.pricing.credits * 5;

interface Execution {
	id: string;
	status: string;
}

/**
 * n8n ignores an approval link opened by a bot (its `isbot` check on the User-Agent: mail scanners
 * open links), and Node's fetch says "node": the test opens it as a person's browser does.
 */
const BROWSER = {
	'user-agent':
		'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
};

/** The link of a send-and-wait mail's button (n8n's signed resume URL of the waiting execution). */
function buttonLink(mail: ReceivedMail, approved: boolean): string {
	const links = [...mail.text.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
	const link = links.find((l) => l.includes(`approved=${approved}`));
	if (!link)
		throw new Error(`no ${approved ? 'approve' : 'decline'} link in the mail: ${links.join(', ')}`);
	return link;
}

describeWithN8n(
	"MediaGen tools behind n8n's human review for tool calls (examples/10, approval by email)",
	() => {
		const state = readE2eState();
		const api = <T>(path: string, method = 'GET', body?: unknown) =>
			publicApi<T>({ url: state.n8nUrl }, state.apiKey, path, method, body);
		let smtp: SmtpSink;
		let workflowId = '';
		const path = `mediagen-approval-${Date.now()}`;

		beforeAll(async () => {
			smtp = await startSmtpSink();
			const mail = await api<{ id: string; name: string }>('/credentials', 'POST', {
				name: 'SMTP sink (e2e)',
				type: 'smtp',
				data: {
					user: '',
					password: '',
					host: smtp.host,
					port: smtp.port,
					secure: false,
					disableStartTls: true,
				},
			});
			const example = (
				await api<{
					data: Array<{
						id: string;
						name: string;
						nodes: Array<Record<string, unknown>>;
						connections: unknown;
						settings: unknown;
					}>;
				}>('/workflows?limit=250')
			).data.find((w) => w.id === state.examples[EXAMPLE])!;
			const nodes = example.nodes.map((node) => {
				if (node.type === 'n8n-nodes-base.manualTrigger') {
					return {
						...node,
						type: 'n8n-nodes-base.webhook',
						typeVersion: 2,
						webhookId: path,
						parameters: { httpMethod: 'POST', path, responseMode: 'onReceived' },
					};
				}
				if (node.type === 'n8n-nodes-base.emailSendHitlTool')
					return { ...node, credentials: { smtp: mail } };
				return node;
			});
			workflowId = (
				await api<{ id: string }>('/workflows', 'POST', {
					name: `${example.name} (webhook)`,
					nodes,
					connections: example.connections,
					settings: example.settings,
				})
			).id;
			await api(`/workflows/${workflowId}/activate`, 'POST');
		});

		afterAll(async () => {
			if (workflowId)
				await api(`/workflows/${workflowId}/deactivate`, 'POST').catch(() => undefined);
			await smtp?.close();
		});

		/** Starts the agent with a scripted model; returns the approval mail once the execution waits for it. */
		async function startAgent(
			prompt: string,
		): Promise<{ mail: ReceivedMail; chatsBefore: number; executionId: string }> {
			const chatsBefore = (await chatRequests(state)).length;
			const mailsBefore = smtp.mails.length;
			await scriptChat(state, [
				{ callTool: { name: 'Estimate_Video_Cost', arguments: { prompt, duration: 5 } } },
				{
					callTool: {
						name: 'Generate_Video',
						arguments: {
							toolParameters: { prompt, duration: 5, max_credits: PRICE },
							hitlParameters: {},
						},
					},
				},
				{ answer: 'Result: {tool_results}' },
			]);
			await eventually(`the webhook ${path}`, async () => {
				const res = await fetch(`${state.n8nUrl}/webhook/${path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: '{}',
				});
				return res.status === 200 ? true : undefined;
			});
			const mail = await eventually('the approval mail', async () => smtp.mails[mailsBefore]);
			const waiting = await eventually('the execution to wait for the approval', async () => {
				const { data } = await api<{ data: Execution[] }>(
					`/executions?workflowId=${workflowId}&limit=1`,
				);
				return data[0]?.status === 'waiting' ? data[0] : undefined;
			});
			return { mail, chatsBefore, executionId: waiting.id };
		}

		/** The execution once it ended; on a timeout, the error says where it stood. */
		async function finished(executionId: string): Promise<Execution> {
			const deadline = Date.now() + 120_000;
			for (;;) {
				const execution = await api<
					Execution & { data?: { resultData?: { error?: unknown; lastNodeExecuted?: string } } }
				>(`/executions/${executionId}?includeData=true`);
				if (['success', 'error', 'crashed', 'canceled'].includes(execution.status))
					return execution;
				if (Date.now() > deadline) {
					const { status, data } = execution;
					throw new Error(
						`execution ${executionId} did not end: ${JSON.stringify({ status, last: data?.resultData?.lastNodeExecuted, error: data?.resultData?.error })}`,
					);
				}
				await new Promise((r) => setTimeout(r, 500));
			}
		}

		it('approve: the mail shows the quoted price, and the video is made once, charged at that price', async () => {
			const prompt = 'waves rolling onto a beach at sunrise, approved (e2e)';
			const before = {
				charges: (await ledger(state)).length,
				requests: (await sandboxRequests(state)).length,
			};
			const { mail, chatsBefore, executionId } = await startAgent(prompt);
			expect(mail.to).toEqual(['approver@example.com']);
			expect(mail.text).toContain(
				`The assistant asks to make a video for at most ${PRICE} credits.`,
			);
			expect(mail.text).toContain(`Prompt: ${prompt}`);
			// nothing is sent to the service while the person decides
			expect(
				(await sandboxRequests(state))
					.slice(before.requests)
					.filter((r) => r.path === '/v1/videos/generations'),
			).toEqual([]);

			const resumed = await fetch(buttonLink(mail, true), { headers: BROWSER });
			expect(resumed.status).toBe(200);
			expect((await finished(executionId)).status).toBe('success');

			const chats = (await chatRequests(state)).slice(chatsBefore);
			expect(chats).toHaveLength(3);
			const [quote] = JSON.parse(toolResults(chats[1])[0]) as Array<Record<string, unknown>>;
			expect(quote).toEqual(
				expect.objectContaining({ credits: PRICE, quote_token: expect.any(String) }),
			);
			const charges = (await ledger(state)).slice(before.charges);
			expect(charges).toEqual([expect.objectContaining({ credits: PRICE })]);
			const [made] = JSON.parse(toolResults(chats[2]).at(-1)!) as Array<Record<string, unknown>>;
			expect(made).toEqual(
				expect.objectContaining({
					run_id: charges[0].run_id,
					status: 'completed',
					credits_spent: PRICE,
				}),
			);
			// Max Credits estimated again just before the submit; as a tool the submit carries no quote
			// of the node's, so the model asking again sends the same request (docs/ai-agents.md)
			const sent = (await sandboxRequests(state))
				.slice(before.requests)
				.filter((r) => r.method === 'POST');
			expect(sent.map((r) => r.path)).toEqual([
				'/v1/models/estimate-cost',
				'/v1/models/estimate-cost',
				'/v1/videos/generations',
			]);
			expect(sent[2].body).toEqual(expect.objectContaining({ prompt }));
			expect(sent[2].body).not.toHaveProperty('quote_token');
		});

		it('decline: the model is told the person refused, nothing is sent or charged', async () => {
			const prompt = 'waves rolling onto a beach at sunrise, declined (e2e)';
			const before = {
				charges: (await ledger(state)).length,
				requests: (await sandboxRequests(state)).length,
			};
			const { mail, chatsBefore, executionId } = await startAgent(prompt);
			const resumed = await fetch(buttonLink(mail, false), { headers: BROWSER });
			expect(resumed.status).toBe(200);
			expect((await finished(executionId)).status).toBe('success');

			const chats = (await chatRequests(state)).slice(chatsBefore);
			expect(chats).toHaveLength(3);
			expect(toolResults(chats[2]).at(-1)).toContain(
				'User rejected the tool call to Generate Video',
			);
			expect((await ledger(state)).length).toBe(before.charges);
			const sent = (await sandboxRequests(state))
				.slice(before.requests)
				.filter((r) => r.method === 'POST')
				.map((r) => r.path);
			// only the estimate reached the service
			expect(sent).toEqual(['/v1/models/estimate-cost']);
		});
	},
);
