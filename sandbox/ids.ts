import { randomBytes } from 'node:crypto';

export function newId(prefix: string): string {
	return `${prefix}_${randomBytes(9).toString('base64url')}`;
}

export function nowIso(at: number = Date.now()): string {
	return new Date(at).toISOString();
}
