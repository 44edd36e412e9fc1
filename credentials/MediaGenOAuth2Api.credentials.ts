import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import { ALL_NODE_SCOPES } from '../src/node/scopes';

export class MediaGenOAuth2Api implements ICredentialType {
	name = 'mediaGenOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'MediaGen OAuth2 API';

	icon = { light: 'file:../icons/mediagen.svg', dark: 'file:../icons/mediagen.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://mediagen.example.com/v1',
			description: 'The service address, ending in /v1; the token URL is this plus /oauth/token',
		},
		{ displayName: 'Grant Type', name: 'grantType', type: 'hidden', default: 'clientCredentials' },
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: '={{$self["baseUrl"].replace(/\\/+$/, "")}}/oauth/token',
		},
		{ displayName: 'Authorization URL', name: 'authUrl', type: 'hidden', default: '' },
		{ displayName: 'Auth URI Query Parameters', name: 'authQueryParameters', type: 'hidden', default: '' },
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'string',
			default: ALL_NODE_SCOPES.join(' '),
			description: 'Space-separated scopes to request. Empty asks for the client’s default scopes.',
		},
		{
			displayName: 'Send Client Credentials',
			name: 'authentication',
			type: 'options',
			options: [
				{ name: 'In the Request Body', value: 'body' },
				{ name: 'As HTTP Basic Auth Header', value: 'header' },
			],
			default: 'body',
		},
	];
}
