/**
 * The endpoints the sandbox serves: a copy of the seed table (`shared/spec/endpoints.tsv`, kept in the
 * repo as test/fixtures/endpoints.tsv) in its own words: method, path, scope, Idempotency-Key, auth.
 * `test/sandbox/endpoint-table.test.ts` compares the two. Nothing here comes from the package.
 */

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** yes: the key is required (400 idempotency_key_required without it); optional: honoured when sent; no: ignored */
export type KeyRule = 'yes' | 'optional' | 'no';

export interface TableEndpoint {
	method: Method;
	/** relative to /v1, with {placeholders} as the document writes them */
	path: string;
	/** the scope a bearer credential needs; null for the routes without auth */
	scope: string | null;
	idempotencyKey: KeyRule;
	auth: 'bearer' | 'none';
}

type Row = [Method, string, string, KeyRule, 'bearer' | 'none'];

const ROWS: Row[] = [
	['POST', '/oauth/token', 'none', 'no', 'none'],
	['POST', '/cli/auth/sessions', 'none', 'no', 'none'],
	['GET', '/cli/auth/sessions/{sessionId}', 'none', 'no', 'none'],
	['POST', '/cli/auth/sessions/{sessionId}/exchange', 'none', 'no', 'none'],
	['GET', '/account', 'account:read', 'no', 'bearer'],
	['GET', '/account/credits', 'credits:read', 'no', 'bearer'],
	['GET', '/models', 'models:read', 'no', 'bearer'],
	['GET', '/models/pricing', 'models:read', 'no', 'bearer'],
	['POST', '/models/estimate-cost', 'models:read', 'no', 'bearer'],
	['GET', '/usage', 'runs:read', 'no', 'bearer'],
	['POST', '/uploads', 'uploads:write', 'no', 'bearer'],
	['GET', '/influencers', 'influencers:read', 'no', 'bearer'],
	['GET', '/influencers/{influencerId}', 'influencers:read', 'no', 'bearer'],
	['GET', '/runs', 'runs:read', 'no', 'bearer'],
	['GET', '/runs/{runId}', 'runs:read', 'no', 'bearer'],
	['GET', '/runs/{runId}/output', 'runs:read', 'no', 'bearer'],
	['GET', '/batches', 'batches:read', 'no', 'bearer'],
	['GET', '/batches/{batchId}', 'batches:read', 'no', 'bearer'],
	['GET', '/batches/{batchId}/items', 'batches:read', 'no', 'bearer'],
	['GET', '/batches/{batchId}/items/{itemId}', 'batches:read', 'no', 'bearer'],
	['POST', '/batches/{batchId}/items/{itemId}/retry', 'batches:write', 'no', 'bearer'],
	['POST', '/batches', 'batches:write', 'yes', 'bearer'],
	['GET', '/workflows', 'workflows:read', 'no', 'bearer'],
	['GET', '/workflows/{workflowKey}', 'workflows:read', 'no', 'bearer'],
	['POST', '/workflows/{workflowKey}/runs', 'workflows:write', 'yes', 'bearer'],
	['GET', '/webhooks', 'webhooks:read', 'no', 'bearer'],
	['GET', '/webhooks/deliveries', 'webhooks:read', 'no', 'bearer'],
	['POST', '/webhooks', 'webhooks:write', 'no', 'bearer'],
	['POST', '/webhooks/deliveries/{deliveryId}/replay', 'webhooks:write', 'no', 'bearer'],
	['PATCH', '/webhooks/{endpointId}', 'webhooks:write', 'no', 'bearer'],
	['DELETE', '/webhooks/{endpointId}', 'webhooks:write', 'no', 'bearer'],
	['GET', '/audio/voices', 'models:read', 'no', 'bearer'],
	['POST', '/influencers', 'influencers:write', 'yes', 'bearer'],
	['GET', '/projects', 'projects:read', 'no', 'bearer'],
	['GET', '/projects/{projectId}', 'projects:read', 'no', 'bearer'],
	['POST', '/projects', 'projects:write', 'no', 'bearer'],
	['PATCH', '/projects/{projectId}', 'projects:write', 'no', 'bearer'],
	['DELETE', '/projects/{projectId}', 'projects:write', 'no', 'bearer'],
	['POST', '/projects/{projectId}/items', 'projects:write', 'no', 'bearer'],
	['DELETE', '/projects/{projectId}/items', 'projects:write', 'no', 'bearer'],
	['GET', '/elements', 'elements:read', 'no', 'bearer'],
	['GET', '/elements/{elementId}', 'elements:read', 'no', 'bearer'],
	['POST', '/elements', 'elements:write', 'no', 'bearer'],
	['DELETE', '/elements/{elementId}', 'elements:write', 'no', 'bearer'],
	['POST', '/brands/ingestions', 'brands:write', 'no', 'bearer'],
	['POST', '/brands', 'brands:write', 'no', 'bearer'],
	['PATCH', '/brands/{brandId}', 'brands:write', 'no', 'bearer'],
	['DELETE', '/brands/{brandId}', 'brands:write', 'no', 'bearer'],
	['GET', '/brands', 'brands:read', 'no', 'bearer'],
	['GET', '/brands/{brandId}', 'brands:read', 'no', 'bearer'],
	['POST', '/captures', 'images:write', 'yes', 'bearer'],
	['GET', '/moodboards', 'moodboards:read', 'no', 'bearer'],
	['GET', '/moodboards/{moodboardId}', 'moodboards:read', 'no', 'bearer'],
	['GET', '/moodboards/presets', 'moodboards:read', 'no', 'bearer'],
	['POST', '/moodboards/presets/{presetId}/fork', 'moodboards:read', 'no', 'bearer'],
	['GET', '/teams', 'teams:read', 'no', 'bearer'],
	['GET', '/teams/{teamId}', 'teams:read', 'no', 'bearer'],
	['POST', '/videos/analyses', 'videos:write', 'yes', 'bearer'],
	['GET', '/videos/gedi/presets', 'models:read', 'no', 'bearer'],
	['GET', '/videos/gedi/motion-library', 'models:read', 'no', 'bearer'],
	['POST', '/scenes/blockouts', 'images:write', 'no', 'bearer'],
	['POST', '/images/generations', 'images:write', 'yes', 'bearer'],
	['POST', '/images/background-remove', 'images:write', 'yes', 'bearer'],
	['POST', '/images/upscale', 'images:write', 'yes', 'bearer'],
	['POST', '/models/3d/generations', 'images:write', 'yes', 'bearer'],
	['POST', '/videos/generations', 'videos:write', 'yes', 'bearer'],
	// decisions.md: the seed says "unspecified" for both; the sandbox requires videos:write and honours a key when sent
	['POST', '/videos/generations/{id}/final', 'videos:write', 'optional', 'bearer'],
	['POST', '/videos/voices', 'videos:write', 'yes', 'bearer'],
	['POST', '/videos/upscale', 'videos:write', 'yes', 'bearer'],
	['POST', '/videos/compose', 'videos:write', 'yes', 'bearer'],
	['POST', '/videos/timelines', 'videos:write', 'no', 'bearer'],
	['GET', '/videos/timelines/{timelineId}', 'videos:write', 'no', 'bearer'],
	['PATCH', '/videos/timelines/{timelineId}', 'videos:write', 'no', 'bearer'],
	['POST', '/videos/timelines/{timelineId}/renders', 'videos:write', 'yes', 'bearer'],
	['GET', '/videos/timelines/{timelineId}/renders', 'videos:write', 'no', 'bearer'],
	['POST', '/lipsync/generations', 'lipsync:write', 'yes', 'bearer'],
	['POST', '/audio/speech', 'audio:write', 'yes', 'bearer'],
	['POST', '/audio/music', 'audio:write', 'yes', 'bearer'],
	['POST', '/audio/sfx', 'audio:write', 'yes', 'bearer'],
	['POST', '/audio/voice-conversions', 'audio:write', 'yes', 'bearer'],
	['POST', '/audio/transcriptions', 'audio:write', 'yes', 'bearer'],
	['POST', '/products/extract', 'products:write', 'yes', 'bearer'],
	['POST', '/media/frames', 'videos:write', 'no', 'bearer'],
	['POST', '/ads/analyze', 'workflows:write', 'no', 'bearer'],
	['POST', '/loras', 'videos:write', 'yes', 'bearer'],
	['POST', '/loras/{loraId}/continue', 'videos:write', 'yes', 'bearer'],
	['DELETE', '/loras/{loraId}', 'videos:write', 'no', 'bearer'],
	['POST', '/loras/estimate-cost', 'models:read', 'no', 'bearer'],
	['GET', '/loras', 'models:read', 'no', 'bearer'],
	['GET', '/loras/{loraId}', 'models:read', 'no', 'bearer'],
	['GET', '/image-styles', 'models:read', 'no', 'bearer'],
	['POST', '/style-skills/{skillId}/train', 'images:write', 'yes', 'bearer'],
	['GET', '/user-workflows', 'workflows:read', 'no', 'bearer'],
	['GET', '/user-workflows/{workflowId}/runs/{runId}', 'workflows:read', 'no', 'bearer'],
	['POST', '/user-workflows/{workflowId}/runs', 'workflows:write', 'no', 'bearer'],
	['POST', '/user-workflows/{workflowId}/estimate', 'workflows:write', 'no', 'bearer'],
	['GET', '/presets', 'workflows:read', 'no', 'bearer'],
	['GET', '/presets/{presetId}', 'workflows:read', 'no', 'bearer'],
	['POST', '/presets/{presetId}/estimate', 'workflows:write', 'no', 'bearer'],
	['POST', '/presets/{presetId}/runs', 'workflows:write', 'no', 'bearer'],
	['POST', '/marketing/products', 'marketing:read', 'no', 'bearer'],
	['GET', '/marketing/products', 'marketing:read', 'no', 'bearer'],
	['GET', '/marketing/templates', 'marketing:read', 'no', 'bearer'],
	['GET', '/marketing/templates/{templateId}', 'marketing:read', 'no', 'bearer'],
	['GET', '/marketing/ad-formats', 'marketing:read', 'no', 'bearer'],
	['GET', '/marketing/formats', 'marketing:read', 'no', 'bearer'],
	['GET', '/marketing/hooks', 'marketing:read', 'no', 'bearer'],
	['GET', '/marketing/settings', 'marketing:read', 'no', 'bearer'],
	['GET', '/marketing/avatars', 'marketing:read', 'no', 'bearer'],
	['POST', '/games/generations', 'images:write', 'yes', 'bearer'],
	['POST', '/games/deployments', 'images:write', 'yes', 'bearer'],
	['POST', '/games/{gameId}/publish', 'images:write', 'no', 'bearer'],
	['POST', '/apps/deployments', 'images:write', 'yes', 'bearer'],
	['POST', '/coloring-books/generations', 'images:write', 'yes', 'bearer'],
	['POST', '/picture-books/generations', 'images:write', 'yes', 'bearer'],
	['POST', '/picture-books/estimate-cost', 'account:read', 'no', 'bearer'],
	['GET', '/picture-books/{id}', 'account:read', 'no', 'bearer'],
	['GET', '/picture-books/styles', 'account:read', 'no', 'bearer'],
	['POST', '/faceless-reels/generations', 'reels:write', 'yes', 'bearer'],
	['POST', '/faceless-reels/subscriptions/{id}/episodes', 'reels:write', 'yes', 'bearer'],
	['POST', '/faceless-reels/subscriptions/{id}/run-now', 'reels:write', 'yes', 'bearer'],
	['POST', '/faceless-reels/subscriptions', 'reels:write', 'no', 'bearer'],
	['PATCH', '/faceless-reels/subscriptions/{id}', 'reels:write', 'no', 'bearer'],
	['DELETE', '/faceless-reels/subscriptions/{id}', 'reels:write', 'no', 'bearer'],
	['POST', '/faceless-reels/estimate-cost', 'reels:read', 'no', 'bearer'],
	['GET', '/faceless-reels/presets', 'reels:read', 'no', 'bearer'],
	['GET', '/faceless-reels/styles', 'reels:read', 'no', 'bearer'],
	['GET', '/faceless-reels/music-presets', 'reels:read', 'no', 'bearer'],
	['GET', '/faceless-reels/caption-presets', 'reels:read', 'no', 'bearer'],
	['GET', '/faceless-reels/subscriptions', 'reels:read', 'no', 'bearer'],
	['POST', '/faceless-reels/subscriptions/{id}/estimate-episode', 'reels:read', 'no', 'bearer'],
	['GET', '/faceless-reels/subscriptions/{id}/episodes', 'reels:read', 'no', 'bearer'],
	['POST', '/explainers/generations', 'reels:write', 'yes', 'bearer'],
	['POST', '/music-videos/generations', 'reels:write', 'yes', 'bearer'],
	['POST', '/explainers/estimate-cost', 'reels:read', 'no', 'bearer'],
	['GET', '/explainers/styles', 'reels:read', 'no', 'bearer'],
	['POST', '/music-videos/estimate-cost', 'reels:read', 'no', 'bearer'],
	['GET', '/music-videos/styles', 'reels:read', 'no', 'bearer'],
	['GET', '/tasks', 'tasks:read', 'no', 'bearer'],
	['POST', '/tasks', 'tasks:write', 'no', 'bearer'],
	['PATCH', '/tasks/{id}', 'tasks:write', 'no', 'bearer'],
	['DELETE', '/tasks/{id}', 'tasks:write', 'no', 'bearer'],
];

export const ENDPOINT_TABLE: readonly TableEndpoint[] = ROWS.map(
	([method, path, scope, idempotencyKey, auth]) => ({
		method,
		path,
		scope: scope === 'none' ? null : scope,
		idempotencyKey,
		auth,
	}),
);

/** "POST /images/generations": how the document names an operation (and how the sandbox keys its handlers). */
export function operationName(endpoint: Pick<TableEndpoint, 'method' | 'path'>): string {
	return `${endpoint.method} ${endpoint.path}`;
}

export function tableEndpoint(method: string, path: string): TableEndpoint | undefined {
	return ENDPOINT_TABLE.find((e) => e.method === method && e.path === path);
}
