import { EVENT_OPTIONS } from './events';
import type { Endpoint, FieldSpec } from './types';

const webhook = {
	node: 'MediaGenAccount',
	resource: 'webhook',
	auth: 'bearer',
	idempotency: 'none',
} as const;

const eventOptions = EVENT_OPTIONS;

const endpointId: FieldSpec = {
	name: 'endpointId',
	displayName: 'Endpoint ID',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'whe_…',
};

const description: FieldSpec = {
	name: 'description',
	displayName: 'Description',
	type: 'string',
	default: '',
	description: 'What the endpoint is for (shown in the endpoint list)',
};

export const webhookEndpoints: Endpoint[] = [
	{
		...webhook,
		method: 'GET',
		path: '/webhooks',
		scope: 'webhooks:read',
		operation: 'list',
		name: 'List Endpoints',
		action: 'List webhook endpoints',
		description: 'Registered webhook endpoints with a masked preview of their signing secret',
		output: 'list',
		fields: [],
	},
	{
		...webhook,
		method: 'POST',
		path: '/webhooks',
		scope: 'webhooks:write',
		operation: 'create',
		name: 'Create Endpoint',
		action: 'Create a webhook endpoint',
		description: 'Register a receiver URL; the answer carries the signing secret, once only',
		output: 'object',
		fields: [
			{
				name: 'url',
				displayName: 'URL',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'https://example.com/hooks/mediagen',
				description: 'Where the service POSTs the signed events',
			},
			{
				name: 'events',
				displayName: 'Events',
				type: 'multiOptions',
				required: true,
				default: [],
				options: eventOptions,
				description: 'The event kinds this endpoint receives',
			},
			description,
		],
	},
	{
		...webhook,
		method: 'PATCH',
		path: '/webhooks/{endpointId}',
		scope: 'webhooks:write',
		operation: 'update',
		name: 'Update Endpoint',
		action: 'Update a webhook endpoint',
		description:
			'Change the URL, description, events or status (active or disabled) of an endpoint',
		output: 'object',
		fields: [
			endpointId,
			{
				name: 'url',
				displayName: 'URL',
				type: 'string',
				default: '',
				description: 'New receiver URL',
			},
			{ ...description, description: 'New description' },
			{
				name: 'events',
				displayName: 'Events',
				type: 'multiOptions',
				default: [],
				options: eventOptions,
				description: 'New list of event kinds',
			},
			{
				name: 'status',
				displayName: 'Status',
				type: 'options',
				default: 'active',
				options: [
					{ name: 'active', value: 'active', description: 'Receives the events it subscribes to' },
					{
						name: 'disabled',
						value: 'disabled',
						description: 'Receives nothing until it is active again',
					},
				],
			},
		],
	},
	{
		...webhook,
		method: 'DELETE',
		path: '/webhooks/{endpointId}',
		scope: 'webhooks:write',
		operation: 'delete',
		name: 'Delete Endpoint',
		action: 'Delete a webhook endpoint',
		description: 'Remove an endpoint; it receives nothing afterwards',
		output: 'empty',
		fields: [endpointId],
	},
	{
		...webhook,
		method: 'GET',
		path: '/webhooks/deliveries',
		scope: 'webhooks:read',
		operation: 'listDeliveries',
		name: 'List Deliveries',
		action: 'List webhook deliveries',
		description:
			'Delivery attempts, newest first, with response status, last error and the signed request headers',
		output: 'list',
		fields: [
			{
				name: 'endpoint_id',
				displayName: 'Endpoint ID',
				type: 'string',
				default: '',
				description: 'Only deliveries to this endpoint',
			},
			{
				name: 'status',
				displayName: 'Status',
				type: 'options',
				default: '',
				options: [
					{ name: 'Any', value: '' },
					...['pending', 'success', 'failed'].map((v) => ({ name: v, value: v })),
				],
			},
			{
				name: 'event_type',
				displayName: 'Event Type',
				type: 'options',
				default: '',
				options: [{ name: 'Any', value: '' }, ...eventOptions],
			},
		],
	},
	{
		...webhook,
		method: 'POST',
		path: '/webhooks/deliveries/{deliveryId}/replay',
		scope: 'webhooks:write',
		operation: 'replayDelivery',
		name: 'Replay Delivery',
		action: 'Replay a webhook delivery',
		description: 'Send the same event (same event ID) to its endpoint again, as a new delivery',
		output: 'object',
		fields: [
			{
				name: 'deliveryId',
				displayName: 'Delivery ID',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'whd_…',
			},
		],
	},
];
