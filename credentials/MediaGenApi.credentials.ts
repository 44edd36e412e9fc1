import type { IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

import { CREDIT_LIMIT_PROPERTIES } from '../src/node/credit-limits';

export class MediaGenApi implements ICredentialType {
	name = 'mediaGenApi';

	displayName = 'MediaGen API';

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
			description: 'The service address, ending in /v1',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'A scoped API key; each operation lists the scope it needs',
		},
		...CREDIT_LIMIT_PROPERTIES,
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
	};

	test: ICredentialTestRequest = {
		request: { baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}', url: '/account' },
	};
}
