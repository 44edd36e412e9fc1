/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeType } from 'n8n-workflow';

import { findModel } from '../../../sandbox/models';
import { agentAnswer, agentToolCall, type ChatRequest } from '../../helpers/fake-openai-chat';

const REPO = join(__dirname, '..', '..', '..');
const PREFIX = 'n8n-nodes-mediagen.';

interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
}

const examples = readdirSync(join(REPO, 'examples'))
	.filter((f) => f.endsWith('.json'))
	.map(
		(file) =>
			[
				file,
				JSON.parse(readFileSync(join(REPO, 'examples', file), 'utf8')) as {
					active?: boolean;
					nodes: ExampleNode[];
				},
			] as const,
	);

/** The node class behind an example's node type (`mediaGenImageTool` is MediaGen Image as a tool). */
function nodeClass(type: string): INodeType {
	const folder = type
		.slice(PREFIX.length)
		.replace(/Tool$/, '')
		.replace(/^./, (c) => c.toUpperCase());
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the node file, loaded by name
	const module = require(join(REPO, 'nodes', folder, `${folder}.node.ts`)) as Record<
		string,
		new () => INodeType
	>;
	return new module[folder]();
}

describe.each(examples)('examples/%s', (_file, workflow) => {
	const ours = workflow.nodes.filter((n) => n.type.startsWith(PREFIX));

	// A tool answers its agent in compact JSON whatever its version (Simplify is not offered there).
	it("uses every MediaGen node that passes items on at the node's current version (Simplify on)", () => {
		for (const node of ours.filter((n) => !n.type.endsWith('Tool'))) {
			const { defaultVersion, version } = nodeClass(node.type).description;
			expect({ node: node.name, version: node.typeVersion }).toEqual({
				node: node.name,
				version: defaultVersion ?? version,
			});
			if (node.parameters.simplify !== undefined) expect(node.parameters.simplify).toBe(true);
		}
	});

	it('saves each model as a choice of the Model list: an alias of the service, with its name', () => {
		for (const node of ours.filter((n) => 'model' in n.parameters)) {
			const model = node.parameters.model as Record<string, unknown>;
			expect({ node: node.name, model }).toEqual({
				node: node.name,
				model: {
					__rl: true,
					mode: 'list',
					value: expect.any(String),
					cachedResultName: expect.any(String),
				},
			});
			const known = findModel(String(model.value));
			expect(known).toBeDefined();
			expect(model.cachedResultName).toBe(`${known!.name} (${known!.id})`);
		}
	});

	it('ships unpublished, with a sticky note saying what it does', () => {
		expect(workflow.active ?? false).toBe(false);
		const notes = workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.stickyNote');
		expect(notes).toHaveLength(1);
		expect(String(notes[0].parameters.content)).toMatch(/^## /);
	});
});

describe("the playground's local chat model, acting as a plain image-making agent", () => {
	const tool = (properties: Record<string, { description?: string }>) => ({
		type: 'function' as const,
		function: { name: 'Generate_Image', parameters: { type: 'object', properties } },
	});
	const request = (
		text: string,
		properties: Record<string, { description?: string }>,
	): ChatRequest => ({
		model: 'gpt-4.1-mini',
		messages: [
			{ role: 'system', content: 'You make images.' },
			{ role: 'user', content: text },
		],
		tools: [tool(properties)],
	});
	const RATIOS = {
		description:
			'Shape of the image, one of 1:1 (square), 16:9 (wide), 9:16 (tall), 4:3, 3:4, 21:9',
	};

	it.each([
		[
			'Make a wide picture of a lighthouse at dusk for a blog header, and give me its link.',
			'a lighthouse at dusk for a blog header',
			'16:9',
			1,
		],
		['Draw two images of a fox for my story', 'a fox for my story', '9:16', 2],
		['Create an illustration of a teapot', 'a teapot', '1:1', 1],
	])('"%s" → prompt "%s", aspect ratio %s, count %s', (text, prompt, ratio, count) => {
		expect(agentToolCall(request(text, { prompt: {}, aspect_ratio: RATIOS, count: {} }))).toEqual({
			name: 'Generate_Image',
			arguments: { prompt, aspect_ratio: ratio, count },
		});
	});

	it('sends only the arguments the tool declares, and a ratio the tool offers', () => {
		expect(agentToolCall(request('a wide banner of a city', { prompt: {} }))!.arguments).toEqual({
			prompt: 'a wide banner of a city',
		});
		expect(
			agentToolCall(
				request('a wide banner', { prompt: {}, aspect_ratio: { description: 'one of 1:1, 4:3' } }),
			)!.arguments.aspect_ratio,
		).toBe('1:1');
	});

	it('answers with the links the tool returned, the run still going, or the refusal', () => {
		const answered = (content: string): ChatRequest => ({
			model: 'm',
			messages: [
				{ role: 'user', content: 'x' },
				{ role: 'tool', tool_call_id: 'call_1', content },
			],
		});
		const url = 'http://127.0.0.1:4010/storage/files/run_1/run_1_0.png?expires=1&sig=abc';
		expect(
			agentAnswer(
				answered(JSON.stringify({ run_id: 'run_1', outputs: [{ url, mime_type: 'image/png' }] })),
			),
		).toBe(`Here is your picture: ${url}`);
		expect(agentAnswer(answered(JSON.stringify({ outputs: [{ url }, { url: `${url}2` }] })))).toBe(
			`Here are your pictures:\n- ${url}\n- ${url}2`,
		);
		expect(
			agentAnswer(
				answered(JSON.stringify({ run_id: 'run_2', still_running: true, status: 'processing' })),
			),
		).toBe('The picture is still being made; its run ID is run_2.');
		expect(
			agentAnswer(
				answered(
					JSON.stringify([{ status: 'error', error: 'Aspect Ratio: "7:3" is not allowed' }]),
				),
			),
		).toBe('The image tool could not make it: Aspect Ratio: \\"7:3\\" is not allowed');
	});
});
