import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { MediaGenApi } from '../../../credentials/MediaGenApi.credentials';
import { MediaGenOAuth2Api } from '../../../credentials/MediaGenOAuth2Api.credentials';
import { MediaGenAccount } from '../../../nodes/MediaGenAccount/MediaGenAccount.node';

const field = (properties: INodeProperties[], name: string) =>
	properties.find((p) => p.name === name)!;

describe('the credential form says where a key comes from and what the Base URL is', () => {
	const api = new MediaGenApi().properties;

	it('opens with how to get a key in n8n, naming the Account node’s sign-in as the panel shows it', () => {
		expect(api[0].type).toBe('notice');
		const account = new MediaGenAccount().description.properties;
		const resource = (field(account, 'resource').options as INodePropertyOptions[]).find(
			(o) => o.value === 'cliSession',
		)!.name;
		const operations = account.find(
			(p) =>
				p.name === 'operation' &&
				(p.displayOptions?.show?.resource as string[]).includes('cliSession'),
		)!.options as INodePropertyOptions[];
		const names = Object.fromEntries(operations.map((o) => [o.value, o.name]));
		// the sentence follows the panel: resource → Start, then Exchange (tested end to end in test/nodes/run-account.test.ts)
		expect(api[0].displayName).toContain(`${resource} → ${names.start}`);
		expect(api[0].displayName).toContain(names.exchange);
		expect(api[0].displayName).toMatch(/Base URL only/);
	});

	it.each([
		['MediaGen API', api],
		['MediaGen OAuth2 API', new MediaGenOAuth2Api().properties],
	])(
		'%s: Base URL says under the field that it is the service’s API address ending in /v1',
		(_name, properties) => {
			const baseUrl = field(properties, 'baseUrl');
			expect(baseUrl.hint).toMatch(/API address, ending in \/v1$/);
			expect(baseUrl.description).toMatch(/version segment \/v1/);
			expect(baseUrl.placeholder).toMatch(/\/v1$/);
		},
	);

	it('the key and the OAuth client say whose they are', () => {
		expect(field(api, 'apiKey').hint).toMatch(/your MediaGen account/);
		expect(field(new MediaGenOAuth2Api().properties, 'clientId').hint).toMatch(
			/OAuth client of your MediaGen account/,
		);
	});
});
