/** The two credential types every node offers through its Authentication option. */
export const BEARER_CREDENTIAL_TYPE = 'mediaGenApi';
export const CLIENT_CREDENTIALS_TYPE = 'mediaGenOAuth2Api';
export type CredentialType = typeof BEARER_CREDENTIAL_TYPE | typeof CLIENT_CREDENTIALS_TYPE;

export function isCredentialType(value: unknown): value is CredentialType {
	return value === BEARER_CREDENTIAL_TYPE || value === CLIENT_CREDENTIALS_TYPE;
}

/** Base URL without a trailing slash; empty when the credential has none (there is no default service). */
export function normalizeBaseUrl(value: unknown): string {
	return typeof value === 'string' ? value.trim().replace(/\/+$/, '') : '';
}
