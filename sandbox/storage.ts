import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signed URLs for uploads (PUT), assets (GET) and run output files (GET), as a CDN in front of
 * the service would hand out: the signature covers the path and the expiry.
 */
export class UrlSigner {
	private readonly secret = randomBytes(32);

	sign(origin: string, path: string, expiresAt: number): string {
		return `${origin}${path}?expires=${expiresAt}&sig=${this.signature(path, expiresAt)}`;
	}

	/** 'ok', or why the URL is refused */
	check(path: string, expires: unknown, sig: unknown): 'ok' | 'forged' | 'expired' {
		const exp = Number(expires);
		if (!Number.isFinite(exp) || typeof sig !== 'string') return 'forged';
		const expected = this.signature(path, exp);
		if (sig.length !== expected.length || !timingSafeEqual(Buffer.from(sig), Buffer.from(expected)))
			return 'forged';
		return exp < Date.now() ? 'expired' : 'ok';
	}

	private signature(path: string, expiresAt: number): string {
		return createHmac('sha256', this.secret).update(`${path}\n${expiresAt}`).digest('base64url');
	}
}

export const UPLOAD_WINDOW_MS = 15 * 60 * 1000;
export const ASSET_VALIDITY_MS = 7 * 24 * 3600 * 1000;

export const UPLOADABLE_TYPES = new Set([
	'image/png',
	'image/jpeg',
	'image/webp',
	'image/gif',
	'video/mp4',
	'video/webm',
	'video/quicktime',
	'audio/mpeg',
	'audio/wav',
	'audio/x-wav',
	'audio/mp4',
	'audio/ogg',
	'audio/webm',
	'model/gltf-binary',
]);
