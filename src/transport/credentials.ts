/** The two credential types every node offers through its Authentication option. */
export const BEARER_CREDENTIAL_TYPE = 'mediaGenApi';
export const CLIENT_CREDENTIALS_TYPE = 'mediaGenOAuth2Api';
export type CredentialType = typeof BEARER_CREDENTIAL_TYPE | typeof CLIENT_CREDENTIALS_TYPE;

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010/v1';

export function isCredentialType(value: unknown): value is CredentialType {
	return value === BEARER_CREDENTIAL_TYPE || value === CLIENT_CREDENTIALS_TYPE;
}

/** Base URL without a trailing slash. */
export function normalizeBaseUrl(value: unknown): string {
	const url = typeof value === 'string' && value.trim() ? value.trim() : DEFAULT_BASE_URL;
	return url.replace(/\/+$/, '');
}
