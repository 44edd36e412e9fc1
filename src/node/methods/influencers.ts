import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';

import { listAll } from '../../transport/paginate';
import { createClient } from '../../transport/request';
import { credentialTypeOf } from '../../credentials/authentication';

/** Only `ready` influencers may be referenced in image mentions (API document, Influencer states). */
export function isMentionable(influencer: IDataObject): boolean {
	return influencer.status === 'ready' && typeof influencer.id === 'string';
}

async function readyInfluencers(ctx: ILoadOptionsFunctions): Promise<IDataObject[]> {
	const client = await createClient(
		ctx,
		credentialTypeOf((name) => ctx.getCurrentNodeParameter(name)),
	);
	const all = await listAll(client, { path: '/influencers' }, { returnAll: true, limit: 0 });
	return all.filter(isMentionable);
}

function label(influencer: IDataObject): string {
	const handle = `@${String(influencer.handle ?? influencer.id)}`;
	return influencer.display_name ? `${String(influencer.display_name)} (${handle})` : handle;
}

/** loadOptions method for the Image mentions field: ready influencers only, value = influencer ID. */
export async function getReadyInfluencers(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return (await readyInfluencers(this)).map((i) => ({
		name: label(i),
		value: String(i.id),
		description: `Handle: ${String(i.handle ?? '')}`,
	}));
}

/** listSearch method (resource locator) over the same ready influencers, filtered by handle or name. */
export async function searchReadyInfluencers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const needle = (filter ?? '').trim().toLowerCase().replace(/^@/, '');
	const results = (await readyInfluencers(this))
		.filter(
			(i) =>
				!needle ||
				String(i.handle ?? '')
					.toLowerCase()
					.includes(needle) ||
				String(i.display_name ?? '')
					.toLowerCase()
					.includes(needle),
		)
		.map((i) => ({ name: label(i), value: String(i.id) }));
	return { results };
}
