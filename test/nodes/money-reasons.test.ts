// Every money reason of the API document reaches the user as its own code, with what to do about it.
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import {
	SANDBOX_API_KEY,
	SANDBOX_BROKE_API_KEY,
	SANDBOX_BUDGET_API_KEY,
	SANDBOX_EMPTY_POOL_TEAM_ID,
	SANDBOX_MEMBER_CAP_TEAM_ID,
	SANDBOX_MONTHLY_CAP_TEAM_ID,
} from '../../sandbox/options';
import { runNode } from '../helpers/n8n-harness';
import { startFixture, type Fixture } from '../helpers/sandbox-fixture';

describe('money reasons of failed runs', () => {
	let fx: Fixture;
	beforeAll(async () => {
		fx = await startFixture({ latencyMs: 50 });
	});
	afterAll(async () => fx.sandbox.close());

	it.each([
		['insufficient_credits', SANDBOX_BROKE_API_KEY, undefined, 'top up'],
		['member_budget_exceeded', SANDBOX_BUDGET_API_KEY, undefined, 'monthly budget'],
		['team_pool_insufficient', SANDBOX_API_KEY, SANDBOX_EMPTY_POOL_TEAM_ID, 'workspace pool'],
		['team_monthly_cap', SANDBOX_API_KEY, SANDBOX_MONTHLY_CAP_TEAM_ID, 'monthly cap'],
		['team_member_cap', SANDBOX_API_KEY, SANDBOX_MEMBER_CAP_TEAM_ID, 'spending cap'],
	])(
		'%s: the item carries the code, the run id and a hint; nothing is charged',
		async (code, apiKey, teamId, hint) => {
			fx.credentials.set('mediaGenApi', { baseUrl: fx.sandbox.baseUrl, apiKey });
			const charges = fx.sandbox.state.ledger.length;
			const { items, error } = await runNode({
				nodeType: new MediaGenImage(),
				credentials: fx.credentials,
				parameters: {
					resource: 'image',
					operation: 'generate',
					prompt: 'a fox',
					options: teamId ? { teamId } : {},
				},
				settings: { onError: 'continueRegularOutput' },
			});
			expect(error).toBeUndefined();
			expect(items[0].json).toEqual(
				expect.objectContaining({ code, run_id: expect.stringMatching(/^run_/) }),
			);
			expect(String(items[0].json.error)).toMatch(new RegExp(`^${code} — Run run_\\S+ failed`));
			expect(String(items[0].json.hint)).toContain(hint);
			expect(fx.sandbox.state.ledger.length).toBe(charges);
		},
	);
});
