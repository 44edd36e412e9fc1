/** What n8n's own SSRF protection said when it refused a request. */
export interface EgressRefusal {
	message: string;
	description?: string;
}

const REFUSAL_NAMES = new Set(['SsrfBlockedIpError', 'SsrfBlockedHostnameError']);

/**
 * n8n 2.41's SSRF protection (N8N_SSRF_PROTECTION_ENABLED; @n8n/backend-network) refuses a request
 * of its request helpers with an error named SsrfBlockedIpError or SsrfBlockedHostnameError, which
 * the helper may wrap. Found here (the error or its causes), it is reported as what it is — never
 * retried, never taken for an outage.
 */
export function egressRefusalOf(error: unknown): EgressRefusal | undefined {
	let current = error as
		| { name?: unknown; message?: unknown; description?: unknown; cause?: unknown }
		| undefined;
	for (let depth = 0; current && typeof current === 'object' && depth < 6; depth++) {
		if (
			typeof current.name === 'string' &&
			REFUSAL_NAMES.has(current.name) &&
			typeof current.message === 'string'
		) {
			return {
				message: current.message,
				description: typeof current.description === 'string' ? current.description : undefined,
			};
		}
		current = current.cause as typeof current;
	}
	return undefined;
}
