import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const INFO = 'n8n-nodes-mediagen paused wait v1';

/** What the key of a sealed secret is made from: a secret n8n keeps encrypted, and where the sealed value lives. */
export interface SealKey {
	/** the credential's own secret (API key, OAuth2 client secret) */
	credentialSecret: string;
	/** binds the value to one place (execution and node): copied elsewhere, it does not open */
	context: string;
}

function keyOf(key: SealKey): Buffer {
	return Buffer.from(hkdfSync('sha256', key.credentialSecret, key.context, INFO, 32));
}

/**
 * Encrypts a secret (AES-256-GCM) for a place every viewer of an execution can read: only who holds
 * the credential can open it, and only for the same execution and node.
 */
export function sealSecret(secret: string, key: SealKey): string {
	const iv = randomBytes(IV_BYTES);
	const cipher = createCipheriv('aes-256-gcm', keyOf(key), iv);
	const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
	return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The secret, or undefined when the value was not sealed with this key (another credential, execution or node) or was changed. */
export function openSecret(sealed: string, key: SealKey): string | undefined {
	const bytes = Buffer.from(sealed, 'base64url');
	if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
	try {
		const decipher = createDecipheriv('aes-256-gcm', keyOf(key), bytes.subarray(0, IV_BYTES));
		decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
		return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
	} catch {
		return undefined;
	}
}
