import {
	NodeHelpers,
	type INode,
	type INodeExecutionData,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { MediaGenImage } from '../../../nodes/MediaGenImage/MediaGenImage.node';

import { catalog, estimateOperation, findOperation } from '../../../src/catalog';
import { estimateToolDescriptionOf, toolDescriptionOf } from '../../../src/agents/tool-description';
import {
	compactRun,
	TOOL_ANSWER_LIMITS,
	toolAnswer,
	trimForModel,
} from '../../../src/agents/tool-output';
import type { Run } from '../../../src/runs/run';
import { sandboxModels } from '../../../sandbox/models';

const run = (extra: Partial<Run>): Run => ({
	id: 'run_1',
	object: 'run',
	status: 'completed',
	...extra,
});

describe('tool answers (what an AI agent reads)', () => {
	it('gives each file of a 3D run with the MIME type of its format, and a transcription its text (bounded)', () => {
		const model3d = compactRun(
			run({
				model: 'model3d.forge-1',
				output: { model_urls: { glb: 'https://files.test/a', stl: 'https://files.test/b' } },
				usage: { credits: 12 },
			}),
		);
		expect(model3d).toEqual({
			run_id: 'run_1',
			status: 'completed',
			model: 'model3d.forge-1',
			outputs: [
				{ url: 'https://files.test/a', mime_type: 'model/gltf-binary' },
				{ url: 'https://files.test/b', mime_type: 'model/stl' },
			],
			credits_spent: 12,
		});
		const text = 'word '.repeat(2000);
		const transcript = compactRun(
			run({
				output: {
					output_url: 'https://files.test/t.txt',
					text,
					segments: [{ start: 0, end: 1, text: 'word' }],
				},
			}),
		);
		expect(transcript.outputs).toEqual([
			{ url: 'https://files.test/t.txt', mime_type: 'text/plain' },
		]);
		expect(transcript.text).toMatch(/^word word .*… \(6000 more characters\)$/);
		expect(transcript).not.toHaveProperty('segments');
	});

	it('takes the MIME type of a downloaded binary over the URL, and leaves it out when neither tells', () => {
		const answer = compactRun(run({ output: { output_url: 'https://files.test/file' } }), [
			{ mimeType: 'video/mp4', data: '' },
		]);
		expect(answer.outputs).toEqual([{ url: 'https://files.test/file', mime_type: 'video/mp4' }]);
		expect(compactRun(run({ output: { output_url: 'https://files.test/file' } })).outputs).toEqual([
			{ url: 'https://files.test/file' },
		]);
	});

	it('tells the agent to check back on a run that is not finished, and gives a failed run its code', () => {
		expect(compactRun(run({ status: 'queued' }))).toEqual({
			run_id: 'run_1',
			status: 'queued',
			still_running: true,
			next: expect.stringContaining('MediaGen Run tool'),
		});
		// credits a running run reports are reserved, not spent; what it will cost comes with the answer
		expect(
			compactRun(run({ status: 'processing', usage: { credits: 30 } }), [], { credits_quoted: 30 }),
		).toEqual({
			run_id: 'run_1',
			status: 'processing',
			credits_reserved: 30,
			still_running: true,
			credits_quoted: 30,
			next: expect.stringContaining('with run_id "run_1"'),
		});
		expect(
			compactRun(
				run({
					status: 'failed',
					error: { code: 'provider_error', message: 'The provider failed' },
				}),
			),
		).toEqual({
			run_id: 'run_1',
			status: 'failed',
			error: 'The provider failed',
			code: 'provider_error',
		});
	});

	it('bounds other JSON: empty values dropped, long strings and arrays cut, deep objects summarised', () => {
		const { stringChars, arrayEntries } = TOOL_ANSWER_LIMITS;
		const trimmed = trimForModel({
			keep: 1,
			gone: null,
			empty: '',
			none: [],
			long: 'x'.repeat(stringChars + 10),
			many: Array.from({ length: arrayEntries + 3 }, (_, i) => i),
			deep: { a: { b: { c: { d: 1 } } } },
		});
		expect(trimmed).toEqual({
			keep: 1,
			long: `${'x'.repeat(stringChars)}… (10 more characters)`,
			many: [...Array.from({ length: arrayEntries }, (_, i) => i), '… 3 more'],
			deep: { a: { b: { c: '{…}' } } },
		});
	});

	it('never passes a binary on, keeps pairedItem, and says how many items there were beyond the limit', () => {
		const items: INodeExecutionData[] = Array.from(
			{ length: TOOL_ANSWER_LIMITS.items + 5 },
			(_, i) => ({
				json: { id: `m${i}` },
				binary: { data: { mimeType: 'image/png', data: 'AAAA' } },
				pairedItem: { item: 0 },
			}),
		);
		const answers = toolAnswer(items);
		expect(answers).toHaveLength(TOOL_ANSWER_LIMITS.items + 1);
		expect(
			answers.every((a) => a.binary === undefined && (a.pairedItem as { item: number }).item === 0),
		).toBe(true);
		expect(answers.at(-1)!.json).toEqual(
			expect.objectContaining({
				truncated: true,
				shown: TOOL_ANSWER_LIMITS.items,
				total: TOOL_ANSWER_LIMITS.items + 5,
			}),
		);
	});
});

describe('tool descriptions (what an AI agent reads about an operation)', () => {
	it('says what image generation does, costs, how long it takes, the inputs and their allowed values, and the answer', () => {
		const text = toolDescriptionOf(findOperation('MediaGenImage', 'image', 'generate')!);
		expect(text).toMatch(/^MediaGen Image: Generate images from a prompt\./);
		expect(text).toContain(
			"Cost: per image: the model's credits per image × count (each model's rate: GET /models/pricing",
		);
		expect(text).toContain('Price first: estimate_only true');
		expect(text).toContain('Tool Time Budget (50 s unless set)');
		expect(text).toContain('still_running');
		expect(text).toContain('The same inputs again return the same job, never a second charge.');
		expect(text).toContain("prompt (required; up to the model's prompt max length)");
		expect(text).toContain(
			"aspect_ratio (one of the model's aspect ratios; empty = the model default)",
		);
		expect(text).toContain("count (at least 1, up to the model's max count)");
		expect(text).toContain('outputs [{url, mime_type}]');
	});

	it('prices video per second, speech per character, and lists fixed choices', () => {
		expect(toolDescriptionOf(findOperation('MediaGenVideo', 'video', 'generate')!)).toContain(
			"Cost: per second of output: the model's credits per second × seconds of output",
		);
		expect(toolDescriptionOf(findOperation('MediaGenAudio', 'audio', 'speech')!)).toContain(
			"Cost: per character of text: the model's credits per character × characters",
		);
		expect(toolDescriptionOf(findOperation('MediaGenImage', 'image', 'capture')!)).toContain(
			'Cost: per run: the set number of credits per run',
		);
		// no estimate for an operation without a model to price
		expect(toolDescriptionOf(findOperation('MediaGenImage', 'image', 'capture')!)).not.toContain(
			'estimate_only',
		);
		expect(toolDescriptionOf(findOperation('MediaGenLibrary', 'lora', 'create')!)).toContain(
			'kind (one of character, style, object)',
		);
	});

	it('gives reading operations no price, and estimates say nothing is charged', () => {
		const get = toolDescriptionOf(findOperation('MediaGenRun', 'run', 'get')!);
		expect(get).not.toContain('Cost:');
		expect(toolDescriptionOf(findOperation('MediaGenRun', 'run', 'wait')!)).not.toContain('Cost:');
		const generate = findOperation('MediaGenImage', 'image', 'generate')!;
		expect(estimateToolDescriptionOf(generate, estimateOperation(generate))).toContain(
			'Nothing is charged.',
		);
	});

	it("is the tool variant's Tool Description for the chosen operation (and no parameter of the node in a workflow)", () => {
		const { description } = new MediaGenImage();
		const resolve = (type: INodeTypeDescription, operation: string) =>
			NodeHelpers.getNodeParameters(
				type.properties,
				{ resource: 'image', operation },
				true,
				false,
				{ typeVersion: 1 } as INode,
				type,
			)!;
		// n8n names the tool variant of a usableAsTool node `<name>Tool`; `@tool` display options key on that
		const tool = { ...description, name: `${description.name}Tool` };
		expect(resolve(tool, 'upscale').toolDescription).toBe(
			toolDescriptionOf(findOperation('MediaGenImage', 'image', 'upscale')!),
		);
		expect(resolve(tool, 'generateEstimateCost').toolDescription).toMatch(
			/^MediaGen Image: Estimate the cost to generate images from a prompt\./,
		);
		expect(resolve(description, 'upscale')).not.toHaveProperty('toolDescription');
	});

	it('states the price basis every model of the capability is priced in (GET /models/pricing, as the sandbox serves it)', () => {
		const priced = catalog.filter(
			(e) => e.capability && e.pricing && e.method === 'POST' && e.output === 'run',
		);
		expect(priced.length).toBeGreaterThan(10);
		for (const endpoint of priced) {
			const units = [
				...new Set(
					sandboxModels
						.filter((m) => m.capability === endpoint.capability)
						.map((m) => m.pricing.unit),
				),
			];
			const text = toolDescriptionOf(endpoint);
			// a basis that holds for every model of the capability, or "the model's unit" where they differ from the operation's
			const modelsUnit = text.includes(
				"Cost: in the model's unit: the model's credits per image, second or character",
			);
			for (const unit of units) {
				const basis = {
					per_image: 'Cost: per image:',
					per_second: 'Cost: per second of output:',
					per_character: 'Cost: per character of text:',
				}[unit];
				expect({
					op: `${endpoint.node} ${endpoint.operation}`,
					unit,
					stated: modelsUnit || text.includes(basis),
				}).toEqual({ op: `${endpoint.node} ${endpoint.operation}`, unit, stated: true });
			}
		}
	});

	it('names its node, so that an answer pointing to "the MediaGen Run tool" can be followed', () => {
		expect(toolDescriptionOf(findOperation('MediaGenRun', 'run', 'wait')!)).toMatch(
			/^MediaGen Run: Wait for a run to finish\./,
		);
		expect(toolDescriptionOf(findOperation('MediaGenLipSync', 'lipSync', 'generate')!)).toMatch(
			/^MediaGen Lip Sync: /,
		);
		expect(toolDescriptionOf(findOperation('MediaGenModel3D', 'model3d', 'generate')!)).toMatch(
			/^MediaGen 3D: /,
		);
	});

	it('writes one for every operation, each a few sentences long', () => {
		for (const endpoint of catalog) {
			const text = toolDescriptionOf(endpoint);
			expect({
				op: `${endpoint.node} ${endpoint.resource}.${endpoint.operation}`,
				long: text.length > 40 && text.length < 1500,
			}).toEqual({
				op: `${endpoint.node} ${endpoint.resource}.${endpoint.operation}`,
				long: true,
			});
		}
	});
});
