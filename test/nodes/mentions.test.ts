// Mentions name ready influencers only (document: Influencer states, Limits): the shape and the status
// are checked before sending; the UI offers ready influencers only.
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { loadOptions, runNode } from '../helpers/n8n-harness';
import { posts, startFixture, type Fixture } from '../helpers/sandbox-fixture';

describe('image mentions', () => {
	let fx: Fixture;
	beforeAll(async () => {
		fx = await startFixture({ latencyMs: 50 });
	});
	afterAll(async () => fx.sandbox.close());

	const generate = (mentions: unknown) => ({
		resource: 'image',
		operation: 'generate',
		prompt: 'ava on a beach',
		additionalFields: { mentions },
	});
	const run = (mentions: unknown) =>
		runNode({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: generate(mentions),
		});

	it('sends a mention of a ready influencer, entered as Handle + Influencer', async () => {
		const { error, items } = await run({ values: [{ handle: 'ava', influencerId: 'inf_ava' }] });
		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('completed');
	});

	it.each([
		[
			'a draft influencer',
			{ values: [{ handle: 'leo', influencerId: 'inf_leo' }] },
			'@leo (inf_leo) is draft, not ready; allowed: ava (inf_ava)',
		],
		[
			'an archived influencer',
			{ values: [{ handle: 'mia', influencerId: 'inf_mia_old' }] },
			'@mia (inf_mia_old) is archived, not ready',
		],
		[
			'an unknown influencer',
			{ values: [{ handle: 'zed', influencerId: 'inf_zed' }] },
			'@zed (inf_zed) is not an influencer of this account',
		],
		[
			'an entry without a handle',
			{ values: [{ influencerId: 'inf_ava' }] },
			'entry 1 needs a Handle and an Influencer',
		],
		[
			'an expression giving entries of another shape',
			{ values: [{ handle: '={{ 42 }}', influencerId: 'inf_ava' }] },
			'entry 1 needs a Handle and an Influencer',
		],
	])('refuses %s before sending', async (_name, mentions, message) => {
		const before = posts(fx.sandbox, '/images/generations').length;
		const { error } = await run(mentions);
		expect(error?.message).toContain(`Mentions: ${message}`);
		expect(posts(fx.sandbox, '/images/generations')).toHaveLength(before);
	});

	it('offers only ready influencers in the Influencer list', async () => {
		const options = await loadOptions({
			nodeType: new MediaGenImage(),
			credentials: fx.credentials,
			parameters: generate({}),
			method: 'getReadyInfluencers',
		});
		expect(options.map((o) => o.value)).toEqual(['inf_ava']);
	});

	it('shows Mentions as a list of Handle + Influencer entries, the influencer loaded from the ready ones', () => {
		const additional = new MediaGenImage().description.properties.find(
			(p) =>
				p.name === 'additionalFields' &&
				(p.displayOptions?.show?.operation as string[]).includes('generate'),
		)!;
		const field = (additional.options ?? []).find(
			(o) => (o as { name: string }).name === 'mentions',
		) as {
			type: string;
			options: Array<{
				values: Array<{ name: string; typeOptions?: { loadOptionsMethod?: string } }>;
			}>;
		};
		expect(field.type).toBe('fixedCollection');
		expect(field.options[0].values.map((v) => v.name)).toEqual(['handle', 'influencerId']);
		expect(field.options[0].values[1].typeOptions?.loadOptionsMethod).toBe('getReadyInfluencers');
	});
});
