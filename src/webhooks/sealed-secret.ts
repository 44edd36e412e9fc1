import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** HKDF info of the paused wait's seal (kept: executions paused by an earlier version open with it). */
const PAUSED_WAIT_INFO = 'n8n-nodes-mediagen paused wait v1';
/** HKDF info of the trigger's seal: a value sealed for one use never opens for the other. */
export const TRIGGER_SEAL_INFO = 'n8n-nodes-mediagen trigger v1';

/** What the key of a sealed secret is made from: a secret n8n keeps encrypted, and where the sealed value lives. */
export interface SealKey {
	/** the credential's own secret (API key, OAuth2 client secret) */
	credentialSecret: string;
	/** binds the value to one place (execution and node, or workflow and node): copied elsewhere, it does not open */
	context: string;
	/** what the seal is for (HKDF info); the paused wait's when absent */
	info?: string;
}

/** The secret of a credential a seal key is made from (API key, else OAuth2 client secret), if it has one. */
export function credentialSecretOf(
	credentials: ICredentialDataDecryptedObject,
): string | undefined {
	const secret = credentials.apiKey ?? credentials.clientSecret;
	return typeof secret === 'string' && secret ? secret : undefined;
}

function keyOf(key: SealKey): Buffer {
	return Buffer.from(
		hkdfSync('sha256', key.credentialSecret, key.context, key.info ?? PAUSED_WAIT_INFO, 32),
	);
}

/**
 * Encrypts a secret (AES-256-GCM) for a place others can read (an execution, a workflow's static
 * data): only who holds the credential can open it, and only for the same place.
 */
export function sealSecret(secret: string, key: SealKey): string {
	const iv = randomBytes(IV_BYTES);
	const cipher = createCipheriv('aes-256-gcm', keyOf(key), iv);
	const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
	return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The secret, or undefined when the value was not sealed with this key (another credential or place) or was changed. */
export function openSecret(sealed: string, key: SealKey): string | undefined {
	const bytes = Buffer.from(sealed, 'base64url');
	if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
	try {
		const decipher = createDecipheriv('aes-256-gcm', keyOf(key), bytes.subarray(0, IV_BYTES));
		decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
		return Buffer.concat([
			decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
			decipher.final(),
		]).toString('utf8');
	} catch {
		return undefined;
	}
}

/**
 * Sealed secrets opened in this process, by place and sealed value (unique per seal), so that a
 * burst of deliveries reads the credential once: n8n resolves a credential in an expression isolate
 * each time, which is slow on a busy machine. An opening is kept while it is under way (the
 * deliveries that arrive together wait for it); one that gave nothing (another credential, a failed
 * read) is tried again by the next delivery. At most `kept` places, the oldest dropped first.
 */
export class OpenedSecrets<T> {
	private readonly openings = new Map<string, Promise<T | undefined>>();

	constructor(private readonly kept = 100) {}

	async open(
		place: string,
		sealed: string,
		opener: () => Promise<T | undefined>,
	): Promise<T | undefined> {
		const key = `${place}\u0000${sealed}`;
		const known = this.openings.get(key);
		if (known) return await known;
		if (this.openings.size >= this.kept) this.openings.delete(this.openings.keys().next().value!);
		const opening = opener();
		this.openings.set(key, opening);
		const forget = () => this.openings.get(key) === opening && this.openings.delete(key);
		opening.then((opened) => opened ?? forget(), forget);
		return await opening;
	}
}
