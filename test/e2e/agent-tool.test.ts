import { findModel } from '../../sandbox/models';
import { SANDBOX_API_KEY } from '../../sandbox/options';
import { toolResults } from '../helpers/fake-openai-chat';
import {
	chatRequests,
	describeWithN8n,
	executeWorkflow,
	ledger,
	outputOf,
	readE2eState,
	sandboxRequests,
	scriptChat,
	type N8nRun,
} from './state';

/**
 * examples/07: Manual Trigger → AI Agent (v3.1) with n8n's OpenAI Chat Model pointed at the fake
 * chat API (its credential's Base URL) and MediaGen Image → Generate as its tool, prompt, aspect
 * ratio and count filled by the model through $fromAI(). The fake plays the model, turn by turn.
 */
const EXAMPLE = '07-ai-agent-image-tool';
const TOOL_NODE = 'Generate Image';
const MODEL = 'image.aurora-2';

/** What the tool node handed the agent (n8n logs it as the node's ai_tool output). */
function toolAnswers(run: N8nRun): Array<Record<string, unknown>> {
	const runs = run.data.resultData.runData[TOOL_NODE] as unknown as Array<{
		data?: { ai_tool?: Array<Array<{ json: Record<string, unknown>; binary?: unknown }>> };
	}>;
	expect(runs).toHaveLength(1);
	const items = runs[0].data?.ai_tool?.[0] ?? [];
	for (const item of items) expect(item.binary).toBeUndefined();
	return items.map((i) => i.json);
}

describeWithN8n(
	'MediaGen Image as an AI Agent tool in real n8n (OpenAI Chat Model → a scripted fake)',
	() => {
		const state = readE2eState();

		it('turn 1 the model calls the tool with a prompt and aspect ratio, turn 2 it gets the output URL: one run, charged once', async () => {
			const before = {
				charges: (await ledger(state)).length,
				chats: (await chatRequests(state)).length,
			};
			await scriptChat(state, [
				{
					callTool: {
						arguments: {
							prompt: 'a lighthouse at dusk, warm light, wide shot',
							aspect_ratio: '16:9',
							count: 1,
						},
					},
				},
				{ answer: 'Here is your picture: {tool_results}' },
			]);
			const run = await executeWorkflow(state, state.examples[EXAMPLE]);
			expect(run.data.resultData.error).toBeUndefined();
			expect(run.status).toBe('success');

			const chats = (await chatRequests(state)).slice(before.chats);
			expect(chats).toHaveLength(2);
			// what the model was offered: our tool description and the parameters $fromAI() declares
			const tool = chats[0].tools?.find((t) => t.function.name === 'Generate_Image');
			expect(tool?.function.description).toContain(
				"Cost: per image: the model's credits per image × count",
			);
			expect(tool?.function.description).toContain('still_running');
			expect(
				Object.keys((tool?.function.parameters as { properties: object }).properties).sort(),
			).toEqual(['aspect_ratio', 'count', 'prompt']);

			const charges = (await ledger(state)).slice(before.charges);
			expect(charges).toHaveLength(1);
			expect(charges[0].credits).toBe(findModel(MODEL)!.pricing.credits);
			const res = await fetch(`${state.sandbox.baseUrl}/runs/${charges[0].run_id}`, {
				headers: { authorization: `Bearer ${SANDBOX_API_KEY}` },
			});
			const made = (await res.json()) as {
				input_summary: Record<string, unknown>;
				output: { output_url: string };
			};
			expect(made.input_summary).toEqual(
				expect.objectContaining({
					prompt: 'a lighthouse at dusk, warm light, wide shot',
					aspect_ratio: '16:9',
					model: MODEL,
				}),
			);

			// the tool's answer: compact, no binary; the model's second request carries the output URL
			expect(toolAnswers(run)).toEqual([
				{
					run_id: charges[0].run_id,
					status: 'completed',
					model: MODEL,
					outputs: [{ url: made.output.output_url, mime_type: 'image/png' }],
					credits_spent: charges[0].credits,
				},
			]);
			const [returned] = toolResults(chats[1]);
			expect(returned).toContain(made.output.output_url);
			expect(returned.length).toBeLessThan(600);
			const [agent] = outputOf(run, 'AI Agent');
			expect(agent.json.output).toContain(made.output.output_url);
		});

		it('a bad aspect ratio reaches the model as a readable error naming the allowed values, and nothing is charged', async () => {
			const before = {
				charges: (await ledger(state)).length,
				chats: (await chatRequests(state)).length,
				requests: (await sandboxRequests(state)).length,
			};
			await scriptChat(state, [
				{
					callTool: {
						arguments: { prompt: 'a lighthouse at dusk', aspect_ratio: '7:3', count: 1 },
					},
				},
				{ answer: 'The tool said: {tool_results}' },
			]);
			const run = await executeWorkflow(state, state.examples[EXAMPLE]);
			expect(run.data.resultData.error).toBeUndefined();

			const chats = (await chatRequests(state)).slice(before.chats);
			expect(chats).toHaveLength(2);
			const [returned] = toolResults(chats[1]);
			const answer = JSON.parse(returned) as Array<Record<string, string>>;
			expect(answer).toHaveLength(1);
			expect(answer[0].status).toBe('error');
			expect(answer[0].error).toContain('Aspect Ratio: "7:3" is not allowed');
			for (const ratio of findModel(MODEL)!.limits.aspect_ratios as string[])
				expect(answer[0].error).toContain(ratio);
			expect(answer[0].hint).toMatch(
				/^Nothing was sent to the service, so no credits were spent\./,
			);

			expect((await ledger(state)).length).toBe(before.charges);
			const submits = (await sandboxRequests(state))
				.slice(before.requests)
				.filter((r) => r.method === 'POST' && r.path === '/v1/images/generations');
			expect(submits).toHaveLength(0);
		});
	},
);
