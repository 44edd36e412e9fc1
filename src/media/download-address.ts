/**
 * Which addresses the node downloads output files from. Output URLs come from the service's answers;
 * a URL that points somewhere it should not (a private network, plain http elsewhere) is refused
 * rather than fetched from inside the n8n host:
 * - https only, unless the credential's Base URL is itself http on the same host (a local service);
 * - no address that is not public unicast (loopback, private, link-local, unspecified,
 *   documentation, multicast, …: IP literals in every IPv4 and IPv6 form, and `localhost` names),
 *   unless the Base URL's own host is one (the service itself runs there);
 * - no user:password in the URL;
 * - every redirect is checked again by the same rules.
 * Host names are not resolved here: download.ts asks n8n's egress filter what a name resolves to.
 */

function ipv4Parts(host: string): number[] | undefined {
	const parts = host.split('.');
	if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
	const numbers = parts.map(Number);
	return numbers.every((n) => n <= 255) ? numbers : undefined;
}

/**
 * IPv4 blocks of IANA's special-purpose address registry that are not globally reachable, and
 * multicast and the reserved 240/4 (never a server): [first byte, second byte from, to, third byte
 * from, to], bytes not named being any value.
 */
const NON_PUBLIC_IPV4: Array<[number, number?, number?, number?, number?]> = [
	[0], // "this network"
	[10], // private
	[100, 64, 127], // shared address space (carrier-grade NAT)
	[127], // loopback
	[169, 254, 254], // link-local (cloud metadata services)
	[172, 16, 31], // private
	[192, 0, 0, 0, 0], // IETF protocol assignments
	[192, 0, 0, 2, 2], // documentation (TEST-NET-1)
	[192, 88, 88, 99, 99], // 6to4 relay anycast (deprecated)
	[192, 168, 168], // private
	[198, 18, 19], // benchmarking
	[198, 51, 51, 100, 100], // documentation (TEST-NET-2)
	[203, 0, 0, 113, 113], // documentation (TEST-NET-3)
];

function isInternalIpv4([a, b, c]: number[]): boolean {
	// multicast 224/4, reserved 240/4 and the broadcast address
	if (a >= 224) return true;
	return NON_PUBLIC_IPV4.some(
		([first, bFrom, bTo = bFrom, cFrom, cTo = cFrom]) =>
			a === first &&
			(bFrom === undefined || (b >= bFrom && b <= bTo!)) &&
			(cFrom === undefined || (c >= cFrom && c <= cTo!)),
	);
}

/** The eight 16-bit groups of an IPv6 literal (`::` expanded, a dotted IPv4 tail read as two groups), or undefined. */
function ipv6Groups(literal: string): number[] | undefined {
	let text = literal.toLowerCase();
	const tail = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
	if (tail) {
		const v4 = ipv4Parts(tail[2]);
		if (!v4) return undefined;
		text = `${tail[1]}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
	}
	const halves = text.split('::');
	if (halves.length > 2) return undefined;
	const groups = (part: string) =>
		part === ''
			? []
			: part.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
	const head = groups(halves[0]);
	const rest = halves.length === 2 ? groups(halves[1]) : [];
	if ([...head, ...rest].some(Number.isNaN)) return undefined;
	if (halves.length === 1) return head.length === 8 ? head : undefined;
	const missing = 8 - head.length - rest.length;
	return missing >= 1 ? [...head, ...Array<number>(missing).fill(0), ...rest] : undefined;
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff];

/**
 * Whether an IPv6 address is anything but public unicast, after IANA's IPv6 special-purpose registry:
 * addresses that carry an IPv4 address (mapped ::ffff:0:0/96, translated ::ffff:0:0:0/96, NAT64
 * 64:ff9b::/96, 6to4 2002::/16) are judged by that IPv4 address; everything outside global unicast
 * 2000::/3 is refused (loopback, unspecified, IPv4-compatible ::/96, discard 100::/64, local-use
 * NAT64 64:ff9b:1::/48, unique-local fc00::/7, link-local fe80::/10, site-local fec0::/10,
 * multicast ff00::/8, reserved blocks), and inside it the IETF protocol assignments 2001::/23
 * (Teredo, benchmarking, ORCHID, …) and the documentation blocks 2001:db8::/32 and 3fff::/20.
 */
function isInternalIpv6(groups: number[]): boolean {
	const [g0, g1, g2, g3, g4, g5, g6, g7] = groups;
	const zerosBefore = (n: number) => groups.slice(0, n).every((g) => g === 0);
	if (zerosBefore(5) && g5 === 0xffff) return isInternalIpv4(ipv4Of(g6, g7));
	if (zerosBefore(4) && g4 === 0xffff && g5 === 0) return isInternalIpv4(ipv4Of(g6, g7));
	if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
		return isInternalIpv4(ipv4Of(g6, g7));
	if (g0 === 0x2002) return isInternalIpv4(ipv4Of(g1, g2));
	if (g0 < 0x2000 || g0 >= 0x4000) return true;
	if (g0 === 0x2001 && g1 < 0x200) return true;
	if (g0 === 0x2001 && g1 === 0xdb8) return true;
	return g0 === 0x3fff && g1 < 0x1000;
}

/**
 * An address that is not public unicast (loopback, private, link-local, unspecified, documentation,
 * multicast, …) by IP literal, or a `localhost` name. Host names are not resolved here (see
 * download.ts: n8n's egress filter resolves them).
 */
export function isInternalHost(hostname: string): boolean {
	const host = hostname
		.replace(/^\[|\]$/g, '')
		.replace(/\.$/, '')
		.toLowerCase();
	if (host === 'localhost' || host.endsWith('.localhost')) return true;
	const v4 = ipv4Parts(host);
	if (v4) return isInternalIpv4(v4);
	if (!host.includes(':')) return false;
	const groups = ipv6Groups(host.replace(/%.*$/, ''));
	// an IPv6 literal this parser cannot read is refused rather than fetched
	return groups === undefined || isInternalIpv6(groups);
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
		if (!localHttp)
			return `it uses ${target.protocol.replace(':', '')}, and only https is allowed (http only on the host of an http Base URL)`;
	}
	if (isInternalHost(target.hostname) && !isInternalHost(base.hostname)) {
		return 'it points at a loopback, private, link-local or other non-public address, and the Base URL is not on one';
	}
	return undefined;
}
