import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { listAll } from '../transport/paginate';
import type { ApiClient } from '../transport/request';
import type { PreparedCall } from './call';
import { NOTHING_SPENT } from '../options/nothing-spent';

export interface Mention {
	handle: string;
	influencer_id: string;
}

/** The account's influencers, read once per execution when an item mentions any. */
export async function listInfluencers(client: ApiClient): Promise<IDataObject[]> {
	return await listAll(client, { path: '/influencers' }, { returnAll: true, limit: 0 });
}

function refuse(
	ctx: IExecuteFunctions,
	call: PreparedCall,
	message: string,
	description: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `Mentions: ${message}`, {
		itemIndex: call.itemIndex,
		description: `${description} ${NOTHING_SPENT} (API field mentions.)`,
	});
}

/** The call's mentions when they have the document's shape ({handle, influencer_id}, both strings). */
export function mentionsOf(ctx: IExecuteFunctions, call: PreparedCall): Mention[] {
	const value = call.body.mentions;
	if (value === undefined) return [];
	if (!Array.isArray(value))
		throw refuse(
			ctx,
			call,
			'must be a list of mentions; allowed: entries of a Handle and a ready Influencer',
			'Each mention is {"handle": "ava", "influencer_id": "inf_…"}.',
		);
	return value.map((entry, index) => {
		const mention = entry as Partial<Mention> | null;
		if (
			typeof mention?.handle !== 'string' ||
			!mention.handle.trim() ||
			typeof mention.influencer_id !== 'string' ||
			!mention.influencer_id.trim()
		) {
			throw refuse(
				ctx,
				call,
				`entry ${index + 1} needs a Handle and an Influencer; allowed: a Handle (the word your prompt uses) and a ready Influencer`,
				'Each mention is {"handle": "ava", "influencer_id": "inf_…"}.',
			);
		}
		return mention as Mention;
	});
}

/** Only `ready` influencers may be referenced (document: Influencer states; Limits). */
export function checkMentionsReady(
	ctx: IExecuteFunctions,
	call: PreparedCall,
	mentions: Mention[],
	influencers: IDataObject[],
): void {
	const ready = influencers.filter((i) => i.status === 'ready');
	for (const mention of mentions) {
		const influencer = influencers.find((i) => i.id === mention.influencer_id);
		if (influencer?.status === 'ready') continue;
		const why = influencer
			? `is ${String(influencer.status)}, not ready`
			: 'is not an influencer of this account';
		const allowed =
			ready.map((i) => `${String(i.handle ?? i.id)} (${String(i.id)})`).join(', ') ||
			'none: this account has no ready influencer';
		throw refuse(
			ctx,
			call,
			`@${mention.handle} (${mention.influencer_id}) ${why}; allowed: ${allowed}`,
			'Only ready influencers can be mentioned.',
		);
	}
}
