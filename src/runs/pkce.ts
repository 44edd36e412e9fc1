import { createHash, randomBytes } from 'node:crypto';

import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiRequest, type ApiClient } from '../transport/request';
import type { PreparedCall } from './call';

/** API document: 43 to 128 base64url characters (a subset of RFC 7636's); base64url of 48 random bytes gives 64. */
export function makeCodeVerifier(bytes = 48): string {
	const verifier = randomBytes(bytes).toString('base64url');
	if (verifier.length < 43 || verifier.length > 128)
		throw new Error(`code_verifier of ${verifier.length} characters`);
	return verifier;
}

/** code_challenge = BASE64URL(SHA256(code_verifier)), the S256 method. */
export function codeChallengeS256(verifier: string): string {
	return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/**
 * CLI sign-in, step 1: the node makes the verifier, sends only its challenge, and outputs the
 * verifier with the session so that a later Exchange (after the user approved at
 * verification_url) can prove it started the session.
 */
export async function startPkceSession(
	_ctx: IExecuteFunctions,
	client: ApiClient,
	call: PreparedCall,
): Promise<INodeExecutionData[]> {
	const codeVerifier = makeCodeVerifier();
	const codeChallenge = codeChallengeS256(codeVerifier);
	const { body } = await apiRequest(client, {
		method: 'POST',
		path: call.path,
		body: { ...call.body, code_challenge: codeChallenge, code_challenge_method: 'S256' },
		auth: 'none',
		itemIndex: call.itemIndex,
	});
	return [
		{
			json: { ...body, code_verifier: codeVerifier, code_challenge: codeChallenge },
			pairedItem: { item: call.itemIndex },
		},
	];
}
