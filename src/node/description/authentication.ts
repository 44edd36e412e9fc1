import type { INodeProperties } from 'n8n-workflow';

import {
	BEARER_CREDENTIAL_TYPE,
	CLIENT_CREDENTIALS_TYPE,
} from '../../credentials/credential-types';

// Its own module: the trigger needs it and nothing else of the action nodes' properties.

/** The Authentication option every node has: its values are the credential type names. */
export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'API Key', value: BEARER_CREDENTIAL_TYPE },
		{ name: 'OAuth2 (Client Credentials)', value: CLIENT_CREDENTIALS_TYPE },
	],
	default: BEARER_CREDENTIAL_TYPE,
};

export const credentialsOfNodes = [
	{
		name: BEARER_CREDENTIAL_TYPE,
		required: true,
		displayOptions: { show: { authentication: [BEARER_CREDENTIAL_TYPE] } },
	},
	{
		name: CLIENT_CREDENTIALS_TYPE,
		required: true,
		displayOptions: { show: { authentication: [CLIENT_CREDENTIALS_TYPE] } },
	},
];
