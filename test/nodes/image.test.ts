import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { binaryBytes, runNode } from '../helpers/n8n-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('MediaGen Image in n8n-core (against the sandbox)', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture();
	});
	afterEach(async () => fx.sandbox.close());

	it('generates, waits and returns each image as PNG binary with pairedItem', async () => {
		const { items, error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: { resource: 'image', operation: 'generate', prompt: 'a red fox', count: 2, aspectRatio: '16:9' },
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const [item] = items;
		expect(item.json.status).toBe('completed');
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(Object.keys(item.binary ?? {})).toEqual(['data', 'data_1']);
		expect(item.binary!.data.mimeType).toBe('image/png');
		expect(item.binary!.data.fileName).toMatch(/\.png$/);
		const bytes = await binaryBytes(item.binary!.data);
		expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
		expect(fx.sandbox.state.ledger).toHaveLength(1);
	});
});
