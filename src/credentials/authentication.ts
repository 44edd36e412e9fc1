import type { INodeProperties } from 'n8n-workflow';

import {
	BEARER_CREDENTIAL_TYPE,
	CLIENT_CREDENTIALS_TYPE,
	isCredentialType,
	type CredentialType,
} from './credential-types';

// The Authentication option every node has (the action nodes and the trigger): its values are the
// credential type names, and its reader gives the credential type a node uses.

/** The parameter's name as workflows save it. */
export const AUTHENTICATION = 'authentication';

export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: AUTHENTICATION,
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
		displayOptions: { show: { [AUTHENTICATION]: [BEARER_CREDENTIAL_TYPE] } },
	},
	{
		name: CLIENT_CREDENTIALS_TYPE,
		required: true,
		displayOptions: { show: { [AUTHENTICATION]: [CLIENT_CREDENTIALS_TYPE] } },
	},
];

/** The credential type a node uses; `get` reads its Authentication parameter (absent: the API key). */
export function credentialTypeOf(
	get: (name: string, fallback: unknown) => unknown,
): CredentialType {
	const value = get(AUTHENTICATION, BEARER_CREDENTIAL_TYPE);
	return isCredentialType(value) ? value : BEARER_CREDENTIAL_TYPE;
}
