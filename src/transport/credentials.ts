/** The two credential types every node offers through its Authentication option. */
export const API_KEY_CREDENTIAL = 'mediaGenApi';
export const OAUTH2_CREDENTIAL = 'mediaGenOAuth2Api';
export type CredentialType = typeof API_KEY_CREDENTIAL | typeof OAUTH2_CREDENTIAL;

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010/v1';

export function isCredentialType(value: unknown): value is CredentialType {
	return value === API_KEY_CREDENTIAL || value === OAUTH2_CREDENTIAL;
}

/** Base URL without a trailing slash. */
export function normalizeBaseUrl(value: unknown): string {
	const url = typeof value === 'string' && value.trim() ? value.trim() : DEFAULT_BASE_URL;
	return url.replace(/\/+$/, '');
}
