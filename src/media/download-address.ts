/**
 * Which addresses the node downloads output files from. Output URLs come from the service's answers;
 * a URL that points somewhere it should not (a private network, plain http elsewhere) is refused
 * rather than fetched from inside the n8n host:
 * - https only, unless the credential's Base URL is itself http on the same host (a local service);
 * - no loopback, private, link-local or unspecified address (IP literals and `localhost` names),
 *   unless the Base URL's own host is one (the service itself runs there);
 * - no user:password in the URL;
 * - every redirect is checked again by the same rules.
 * Host names are not resolved here: a public name that resolves to a private address is n8n's
 * outbound (SSRF) policy's to stop, when the instance enables it.
 */

function ipv4Parts(host: string): number[] | undefined {
	const parts = host.split('.');
	if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
	const numbers = parts.map(Number);
	return numbers.every((n) => n <= 255) ? numbers : undefined;
}

function isInternalIpv4([a, b]: number[]): boolean {
	return (
		a === 0 ||
		a === 10 ||
		a === 127 ||
		(a === 100 && b >= 64 && b <= 127) ||
		(a === 169 && b === 254) ||
		(a === 172 && b >= 16 && b <= 31) ||
		(a === 192 && b === 168) ||
		(a === 198 && (b === 18 || b === 19))
	);
}

function isInternalIpv6(host: string): boolean {
	const h = host.toLowerCase();
	if (h === '::' || h === '::1') return true;
	const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
	if (mapped) return isInternalIpv4(ipv4Parts(mapped[1]) ?? [0]);
	// the URL parser writes a mapped IPv4 address in hex (::ffff:7f00:1 for 127.0.0.1)
	const hex = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(h);
	if (hex) {
		const high = parseInt(hex[1], 16);
		return isInternalIpv4([high >> 8, high & 0xff]);
	}
	return /^f[cd][0-9a-f]{2}:/.test(h) || /^fe[89ab][0-9a-f]:/.test(h);
}

/** Loopback, private, link-local or unspecified: by IP literal, or a `localhost` name. */
export function isInternalHost(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
	if (host === 'localhost' || host.endsWith('.localhost')) return true;
	const v4 = ipv4Parts(host);
	if (v4) return isInternalIpv4(v4);
	return host.includes(':') && isInternalIpv6(host);
}

/** Why `url` may not be downloaded for a service at `baseUrl`, or undefined when it may. */
export function downloadRefusal(url: string, baseUrl: string): string | undefined {
	let target: URL;
	let base: URL;
	try {
		target = new URL(url);
		base = new URL(baseUrl);
	} catch {
		return 'it is not an absolute URL';
	}
	if (target.username || target.password) return 'it carries a user name or password';
	const sameHost = target.hostname.toLowerCase() === base.hostname.toLowerCase();
	if (target.protocol !== 'https:') {
		const localHttp = target.protocol === 'http:' && base.protocol === 'http:' && sameHost;
		if (!localHttp) return `it uses ${target.protocol.replace(':', '')}, and only https is allowed (http only on the host of an http Base URL)`;
	}
	if (isInternalHost(target.hostname) && !isInternalHost(base.hostname)) {
		return 'it points at a loopback, private or link-local address, and the Base URL is not on one';
	}
	return undefined;
}
