import { codeChallengeS256, makeCodeVerifier } from '../../../src/runs/pkce';

describe('PKCE verifier and S256 challenge (RFC 7636)', () => {
	it('derives the challenge of the RFC 7636 appendix B example', () => {
		expect(codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
			'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
		);
	});

	it('makes verifiers of 43 to 128 base64url characters (the API document), different every time', () => {
		const verifiers = Array.from({ length: 50 }, () => makeCodeVerifier());
		for (const v of verifiers) expect(v).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
		expect(new Set(verifiers).size).toBe(50);
		expect(makeCodeVerifier(32)).toHaveLength(43);
		expect(makeCodeVerifier(96)).toHaveLength(128);
		expect(() => makeCodeVerifier(31)).toThrow(/42 characters/);
		expect(() => makeCodeVerifier(97)).toThrow();
	});
});
