import { MediaGenOAuth2Api } from '../../../credentials/MediaGenOAuth2Api.credentials';
import { catalog } from '../../../src/catalog';
import { ALL_NODE_SCOPES } from '../../../src/credentials/scopes';

describe("the OAuth2 credential's default scopes", () => {
	it('are exactly the scopes the catalog needs', () => {
		const needed = [
			...new Set(catalog.map((e) => e.scope).filter((s): s is string => Boolean(s))),
		].sort();
		expect(ALL_NODE_SCOPES).toEqual(needed);
	});

	it('are the Scope field default', () => {
		const scope = new MediaGenOAuth2Api().properties.find((p) => p.name === 'scope');
		expect(scope?.default).toBe(ALL_NODE_SCOPES.join(' '));
	});
});
