import { prompt } from './fields';
import type { Endpoint, FieldSpec } from './types';

/** Browser games and apps: built from a prompt, iterated with a change prompt, deployed to a URL. */
const producer = { node: 'MediaGenProducer', auth: 'bearer' } as const;

const gameId = (required: boolean): FieldSpec => ({
	name: 'game_id',
	displayName: 'Game ID',
	type: 'string',
	required,
	primary: true,
	default: '',
	placeholder: 'game_…',
	description: required
		? 'The game to deploy'
		: 'Iterate on this earlier game: the prompt then describes the change',
});

export const gameEndpoints: Endpoint[] = [
	{
		...producer,
		method: 'POST',
		path: '/games/generations',
		scope: 'images:write',
		idempotency: 'required',
		resource: 'game',
		operation: 'generate',
		name: 'Generate',
		action: 'Generate a browser game',
		description:
			'Build a playable browser game from a prompt, or change an earlier one (Game ID); the output has its play link ("play_url")',
		capability: 'game_generation',
		output: 'run',
		teamBilling: true,
		pricing: { unit: 'per_model_unit' },
		fields: [prompt(), gameId(false)],
	},
	{
		...producer,
		method: 'POST',
		path: '/games/deployments',
		scope: 'images:write',
		idempotency: 'required',
		resource: 'game',
		operation: 'deploy',
		name: 'Deploy',
		action: 'Deploy a game',
		description: 'Put the latest (or a given) version of a game on its public play link',
		output: 'run',
		teamBilling: true,
		pricing: { unit: 'per_run' },
		fields: [
			gameId(true),
			{
				name: 'version',
				displayName: 'Version',
				type: 'integer',
				default: 0,
				min: 0,
				description: 'Version to deploy; 0 deploys the latest',
			},
		],
	},
	{
		...producer,
		method: 'POST',
		path: '/games/{gameId}/publish',
		scope: 'images:write',
		idempotency: 'none',
		resource: 'game',
		operation: 'publish',
		name: 'Publish or Unpublish',
		action: 'Publish or unpublish a game',
		description: 'Make a deployed game playable at its play link, or take it down',
		output: 'object',
		fields: [
			{
				name: 'gameId',
				displayName: 'Game ID',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'game_…',
			},
			{
				name: 'published',
				displayName: 'Published',
				type: 'boolean',
				required: true,
				default: true,
				description: 'Whether the game is playable at its play link (off unpublishes it)',
			},
		],
	},
	{
		...producer,
		method: 'POST',
		path: '/apps/deployments',
		scope: 'images:write',
		idempotency: 'required',
		resource: 'app',
		operation: 'deploy',
		name: 'Deploy',
		action: 'Build and deploy an app',
		description:
			'Build a web app from a prompt and deploy it, or change an earlier one (App ID); the output has its address ("live_url")',
		capability: 'app_generation',
		output: 'run',
		teamBilling: true,
		pricing: { unit: 'per_model_unit' },
		fields: [
			prompt(),
			{
				name: 'app_id',
				displayName: 'App ID',
				type: 'string',
				primary: true,
				default: '',
				placeholder: 'app_…',
				description: 'Iterate on this earlier app: the prompt then describes the change',
			},
		],
	},
];
