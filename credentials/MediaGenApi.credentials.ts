import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { CREDIT_LIMIT_PROPERTIES } from '../src/credentials/credit-limits';

export class MediaGenApi implements ICredentialType {
	name = 'mediaGenApi';

	displayName = 'MediaGen API';

	icon = { light: 'file:../icons/mediagen.svg', dark: 'file:../icons/mediagen.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-mediagen/n8n-nodes-mediagen#credentials';

	properties: INodeProperties[] = [
		{
			displayName:
				'No key yet? Save this credential with the Base URL only, then in a MediaGen Account node choose CLI Sign-In Session → Start, open the sign-in link it outputs and approve, and run Exchange for API Key: it returns the key once. Paste it here.',
			name: 'keyNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://mediagen.example.com/v1',
			hint: 'Your MediaGen service’s API address, ending in /v1',
			description:
				'Where every request of this credential goes: the address of the MediaGen API you use, including the version segment /v1 (the API document’s base URL)',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			hint: 'A key of your MediaGen account; without one, only the sign-in above works',
			description:
				'A scoped API key: each operation needs a scope (listed with the operations in the README); a key without it is refused with insufficient_scope, naming the scope',
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
