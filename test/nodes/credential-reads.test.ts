// The API key credential is read once per execution, however many requests the node sends: n8n's
// httpRequestWithAuthentication reads and decrypts it again for every request (a CPU profile of
// 100 submits put ~270 ms there).
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { runNode } from '../helpers/n8n-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';

describe('credential reads', () => {
	let fx: Fixture;
	beforeEach(async () => {
		fx = await startFixture({ latencyMs: 50 });
	});
	afterEach(async () => fx.sandbox.close());

	const generateFor = async (items: number) => {
		fx.credentials.decryptions = 0;
		const { error, items: out } = await runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: {
				resource: 'image',
				operation: 'generate',
				prompt: '={{ $json.prompt }}',
				options: { returnUrlsOnly: true },
			},
			input: Array.from({ length: items }, (_, i) => ({ json: { prompt: `poster ${i}` } })),
		});
		expect(error).toBeUndefined();
		expect(out.every((i) => i.json.status === 'completed')).toBe(true);
		return fx.credentials.decryptions;
	};

	it('reads the API key once per execution, not once per request (1 item and 8 items alike)', async () => {
		const one = await generateFor(1);
		const eight = await generateFor(8);
		expect(posts(fx.sandbox, '/images/generations')).toHaveLength(9);
		expect(one).toBe(1);
		expect(eight).toBe(1);
	});
});
