import { MediaGenLibrary } from '../../nodes/MediaGenLibrary/MediaGenLibrary.node';
import { makePng } from '../../sandbox/png';
import { runNode } from '../helpers/n8n-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- service JSON, read by path in assertions
type Json = Record<string, any>;

const photos = Array.from({ length: 4 }, (_, i) => `https://photos.example.com/${i}.jpg`);

describe('MediaGen Library in n8n-core (trained models and styles, against the sandbox)', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture();
	});
	afterEach(async () => fx.sandbox.close());

	const run = async (
		parameters: Record<string, unknown>,
		input?: Array<{ json: Json; binary?: Json }>,
	) => {
		const result = await runNode({
			nodeType: new MediaGenLibrary(),
			credentials: fx.credentials,
			parameters: parameters as never,
			input: input as never,
		});
		expect(result.error).toBeUndefined();
		return result.items as unknown as Array<{ json: Json; binary?: Json; pairedItem?: unknown }>;
	};

	it('trains a LoRA and waits for it, then gets, lists, continues and deletes it', async () => {
		const [trained] = await run({
			resource: 'lora',
			operation: 'create',
			name: 'Mascot',
			imageUrls: photos,
			kind: 'character',
		});
		const loraId = trained.json.resource_id as string;
		expect(trained.json).toMatchObject({
			status: 'completed',
			capability: 'lora_training',
			output: { lora_id: loraId },
		});
		expect(trained.binary).toBeUndefined();
		expect(posts(fx.sandbox, '/loras')[0].idempotencyKey).toMatch(/^n8n-/);

		expect((await run({ resource: 'lora', operation: 'get', loraId }))[0].json).toMatchObject({
			id: loraId,
			status: 'completed',
			name: 'Mascot',
		});
		expect(
			(await run({ resource: 'lora', operation: 'list', returnAll: true })).map((i) => i.json.id),
		).toEqual([loraId]);
		const [more] = await run({ resource: 'lora', operation: 'continue', loraId, steps: 300 });
		expect(more.json).toMatchObject({ status: 'completed', resource_id: loraId });
		expect((await run({ resource: 'lora', operation: 'get', loraId }))[0].json.steps).toBe(1300);
		const [estimate] = await run({
			resource: 'lora',
			operation: 'estimateCost',
			imageUrls: photos,
			additionalFields: { steps: 2000 },
		});
		expect(estimate.json).toMatchObject({
			object: 'cost_estimate',
			credits: 100,
			quote_token: expect.any(String),
		});
		expect((await run({ resource: 'lora', operation: 'delete', loraId }))[0].json).toEqual({
			success: true,
		});
		expect(await run({ resource: 'lora', operation: 'list', returnAll: true })).toEqual([]);
	});

	it('uploads input binaries as training images of a style skill, and the trained style is listed', async () => {
		const binary = Object.fromEntries(
			['a', 'b', 'c', 'd'].map((name, i) => [
				name,
				{
					data: makePng(8, 8, i + 1).toString('base64'),
					mimeType: 'image/png',
					fileName: `${name}.png`,
				},
			]),
		);
		const [trained] = await run(
			{
				resource: 'styleSkill',
				operation: 'train',
				skillId: 'pastel',
				imageUrlsSource: 'binary',
				imageUrlsBinaryProperty: 'a, b, c, d',
				additionalFields: { name: 'Pastel' },
			},
			[{ json: {}, binary }],
		);
		expect(trained.json).toMatchObject({ status: 'completed', resource_id: 'style_pastel' });
		expect(posts(fx.sandbox, '/uploads')).toHaveLength(4);
		const styles = await run({ resource: 'imageStyle', operation: 'list', returnAll: true });
		expect(styles.find((s) => s.json.id === 'style_pastel')?.json).toMatchObject({
			name: 'Pastel',
			status: 'ready',
			source: 'trained',
		});
	});

	it('shows every Library resource it has operations for, with readable labels', () => {
		const resource = new MediaGenLibrary().description.properties.find(
			(p) => p.name === 'resource',
		)!;
		expect(resource.options).toEqual(
			expect.arrayContaining([
				{ name: 'LoRA (Trained Model)', value: 'lora' },
				{ name: 'Image Style', value: 'imageStyle' },
				{ name: 'Style Skill', value: 'styleSkill' },
			]),
		);
	});
});
