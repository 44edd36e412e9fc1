import { MediaGenApi } from '../../credentials/MediaGenApi.credentials';
import { MediaGenOAuth2Api } from '../../credentials/MediaGenOAuth2Api.credentials';
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { runNode, TestCredentialsHelper } from '../helpers/n8n-harness';

describe('the Base URL of a MediaGen credential', () => {
	it.each([
		['MediaGen API', new MediaGenApi()],
		['MediaGen OAuth2 API', new MediaGenOAuth2Api()],
	])(
		'%s ships without a service address: the field is required and empty, with a placeholder',
		(_name, credential) => {
			const baseUrl = credential.properties.find((p) => p.name === 'baseUrl');
			expect(baseUrl).toMatchObject({ displayName: 'Base URL', required: true, default: '' });
			expect(baseUrl?.placeholder).toMatch(/^https:\/\/.+\/v1$/);
		},
	);

	it('when empty, fails the run with an error naming the field instead of calling a default address', async () => {
		const credentials = new TestCredentialsHelper();
		credentials.set('mediaGenApi', { apiKey: 'mg_key_without_a_base_url' });

		const { error } = await runNode({
			nodeType: new MediaGenImage(),
			credentials,
			parameters: { resource: 'image', operation: 'generate', prompt: 'a red fox' },
		});

		expect(error?.message).toBe('The MediaGen credential has no Base URL');
		expect(error?.description).toMatch(
			/set Base URL to the service address, ending in \/v1\. Nothing was sent\./,
		);
	});
});
