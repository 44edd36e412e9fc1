/**
 * The access tokens the OAuth2 credential fetched in this process, by client: learnt as each is
 * fetched (the credential's preAuthentication notes it), so that an error echoing a token n8n
 * fetched in the middle of an execution (the old one expired during a wait) is redacted even
 * though the node never read the credential again. n8n fetches a token in the process that makes
 * the request, so the node executing there finds it here; a token another process fetched is read
 * with the credential (learnCredentialSecrets in request.ts).
 *
 * Per process on purpose (queue mode: each worker its own): nothing here must be shared, a token is
 * a secret to hide, not state to keep. Bounded: the newest TOKENS_KEPT per client, CLIENTS_KEPT
 * clients.
 */

const TOKENS_KEPT = 20;
const CLIENTS_KEPT = 200;

const issued = new Map<string, string[]>();

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** Which client a credential names: its address and client id (never its secret). */
export function tokenClientOf(credentials: Record<string, unknown>): string | undefined {
	const clientId = text(credentials.clientId);
	if (!clientId) return undefined;
	return `${text(credentials.baseUrl).replace(/\/+$/, '')}\n${clientId}`;
}

/** Notes a token the credential just fetched. */
export function noteIssuedToken(credentials: Record<string, unknown>, token: string): void {
	const client = tokenClientOf(credentials);
	if (!client || !token) return;
	const tokens = issued.get(client) ?? [];
	if (!issued.has(client)) {
		if (issued.size >= CLIENTS_KEPT) issued.delete(issued.keys().next().value!);
		issued.set(client, tokens);
	}
	if (tokens.includes(token)) return;
	tokens.push(token);
	if (tokens.length > TOKENS_KEPT) tokens.splice(0, tokens.length - TOKENS_KEPT);
}

/** The tokens fetched for a client in this process, oldest first (a live list: it grows as tokens are fetched). */
export function issuedTokens(client: string): readonly string[] {
	let tokens = issued.get(client);
	if (!tokens) {
		if (issued.size >= CLIENTS_KEPT) issued.delete(issued.keys().next().value!);
		issued.set(client, (tokens = []));
	}
	return tokens;
}
