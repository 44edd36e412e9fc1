/**
 * Every scope some node operation needs: the OAuth2 credential asks for these by default. Written
 * out (not derived from the catalog) so the credential's bundle does not carry the whole catalog;
 * `test/unit/credentials/scopes.test.ts` keeps it equal to the catalog's scopes.
 */
export const ALL_NODE_SCOPES = [
	'account:read',
	'audio:write',
	'batches:read',
	'batches:write',
	'brands:read',
	'brands:write',
	'credits:read',
	'elements:read',
	'elements:write',
	'images:write',
	'influencers:read',
	'influencers:write',
	'lipsync:write',
	'marketing:read',
	'models:read',
	'moodboards:read',
	'products:write',
	'projects:read',
	'projects:write',
	'reels:read',
	'reels:write',
	'runs:read',
	'tasks:read',
	'tasks:write',
	'teams:read',
	'uploads:write',
	'videos:write',
	'webhooks:read',
	'webhooks:write',
	'workflows:read',
	'workflows:write',
];
