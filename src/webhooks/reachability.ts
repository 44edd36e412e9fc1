import { NodeOperationError, type IDataObject, type IHookFunctions } from 'n8n-workflow';

import { listAll } from '../transport/paginate';
import type { ApiClient } from '../transport/request';

/**
 * Whether the service can send webhooks to this n8n, judged without a network of our own (shipped
 * code has no DNS and no sockets): first from the address alone, then from the service's own record
 * of its deliveries to that address.
 *
 * The rules, by name:
 * - `not_a_url`: the address does not parse.
 * - `unspecified`: 0.0.0.0, `::` and the rest of 0.0.0.0/8: never a destination.
 * - `reserved_name`: `.invalid` (RFC 6761: never resolves, anywhere).
 * - `loopback`: 127.0.0.0/8, `::1`, `localhost`, `*.localhost`: this machine; reachable only by a
 *   service on the same machine.
 * - `private`: RFC 1918 (10/8, 172.16/12, 192.168/16) and RFC 4193 unique local (fc00::/7).
 * - `link_local`: 169.254/16 and fe80::/10.
 * - `shared_address`: 100.64/10 (carrier-grade NAT, RFC 6598).
 * - `single_label`: a name without a dot (resolved by a local search domain, if at all).
 * - `local_name`: `.local` (mDNS), `.lan`, `.home.arpa` (RFC 8375), `.internal`, `.test`, `.example`
 *   (RFC 2606/6761): names no public resolver answers.
 * The `private` … `local_name` rules say "on a local network": a service that is itself on a
 * non-public address (a service run on the same network, the local sandbox) may reach them; a
 * service on a public address cannot. IPv4-mapped IPv6 (`::ffff:10.0.0.1`) is judged as its IPv4.
 */
export type ReachabilityRule =
	| 'not_a_url'
	| 'unspecified'
	| 'reserved_name'
	| 'loopback'
	| 'private'
	| 'link_local'
	| 'shared_address'
	| 'single_label'
	| 'local_name'
	| 'failed_deliveries';

/** `address`: the host (address rules) or origin (deliveries) judged; `reason`: why, in a sentence that may quote the service's error. */
export type Reachability =
	| { reachable: true }
	| { reachable: false; rule: ReachabilityRule; address: string; reason: string };

/** What an address is, before asking from where. */
type AddressKind =
	| { kind: 'public' }
	| { kind: 'never' | 'loopback' | 'local'; rule: ReachabilityRule; why: string };

const LOCAL_SUFFIXES: Array<[string, string]> = [
	['.local', 'a multicast DNS name (.local), answered only on its own network'],
	['.lan', 'a home-network name (.lan), answered only by a local resolver'],
	['.home.arpa', 'a home-network name (.home.arpa, RFC 8375), answered only by a local resolver'],
	['.internal', 'a private name (.internal), answered only by a local resolver'],
	['.test', 'a name reserved for testing (.test, RFC 6761), answered only by a local resolver'],
	[
		'.example',
		'a name reserved for documentation (.example, RFC 2606), answered by no public resolver',
	],
];

function ipv4Parts(host: string): number[] | undefined {
	const parts = host.split('.');
	if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p))) return undefined;
	const numbers = parts.map(Number);
	return numbers.every((n) => n <= 255) ? numbers : undefined;
}

function ipv4Kind([a, b]: number[]): AddressKind {
	if (a === 0)
		return {
			kind: 'never',
			rule: 'unspecified',
			why: 'an unspecified address (0.0.0.0/8), which is no destination',
		};
	if (a === 127)
		return {
			kind: 'loopback',
			rule: 'loopback',
			why: 'a loopback address (127.0.0.0/8): this machine only',
		};
	if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168))
		return { kind: 'local', rule: 'private', why: 'a private address (RFC 1918)' };
	if (a === 169 && b === 254)
		return { kind: 'local', rule: 'link_local', why: 'a link-local address (169.254.0.0/16)' };
	if (a === 100 && b >= 64 && b <= 127)
		return {
			kind: 'local',
			rule: 'shared_address',
			why: 'a carrier-grade NAT address (100.64.0.0/10, RFC 6598)',
		};
	return { kind: 'public' };
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (compressed, hex, maybe a dotted tail). */
function ipv6Groups(host: string): number[] | undefined {
	let text = host;
	const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
	if (dotted) {
		const v4 = ipv4Parts(dotted[1]);
		if (!v4) return undefined;
		text = `${text.slice(0, dotted.index)}:${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
	}
	const [head, tail, extra] = text.split('::');
	if (extra !== undefined) return undefined;
	const parse = (s: string) =>
		s ? s.split(':').map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN)) : [];
	const front = parse(head);
	const back = tail === undefined ? [] : parse(tail);
	const missing = 8 - front.length - back.length;
	if ((tail === undefined && missing !== 0) || missing < 0) return undefined;
	const groups = [...front, ...new Array<number>(missing).fill(0), ...back];
	return groups.every(Number.isFinite) ? groups : undefined;
}

function ipv6Kind(groups: number[]): AddressKind {
	if (groups.every((g) => g === 0))
		return {
			kind: 'never',
			rule: 'unspecified',
			why: 'the unspecified address (::), which is no destination',
		};
	if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1)
		return {
			kind: 'loopback',
			rule: 'loopback',
			why: 'the loopback address (::1): this machine only',
		};
	if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
		return ipv4Kind([groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff]);
	}
	if ((groups[0] & 0xfe00) === 0xfc00)
		return { kind: 'local', rule: 'private', why: 'a unique local address (fc00::/7, RFC 4193)' };
	if ((groups[0] & 0xffc0) === 0xfe80)
		return { kind: 'local', rule: 'link_local', why: 'a link-local address (fe80::/10)' };
	return { kind: 'public' };
}

function nameKind(name: string): AddressKind {
	if (name === 'localhost' || name.endsWith('.localhost'))
		return {
			kind: 'loopback',
			rule: 'loopback',
			why: 'a loopback name (localhost): this machine only',
		};
	if (name === 'invalid' || name.endsWith('.invalid'))
		return {
			kind: 'never',
			rule: 'reserved_name',
			why: 'a .invalid name, which never resolves (RFC 6761)',
		};
	if (!name.includes('.'))
		return {
			kind: 'local',
			rule: 'single_label',
			why: 'a single-label name (no dot), answered only by a local resolver',
		};
	const suffix = LOCAL_SUFFIXES.find(([s]) => name.endsWith(s) || name === s.slice(1));
	if (suffix) return { kind: 'local', rule: 'local_name', why: suffix[1] };
	return { kind: 'public' };
}

function addressKind(url: string): AddressKind & { host?: string } {
	let host: string;
	try {
		host = new URL(url).hostname.toLowerCase();
	} catch {
		return { kind: 'never', rule: 'not_a_url', why: 'not a URL' };
	}
	// the URL parser has already turned 0x7f.1, 2130706433 and friends into dotted IPv4
	const bare = host.replace(/^\[|\]$/g, '').replace(/\.$/, '');
	if (host.startsWith('[')) {
		const groups = ipv6Groups(bare);
		return {
			...(groups
				? ipv6Kind(groups)
				: { kind: 'never' as const, rule: 'not_a_url' as const, why: 'not an IPv6 address' }),
			host: bare,
		};
	}
	const v4 = ipv4Parts(bare);
	return { ...(v4 ? ipv4Kind(v4) : nameKind(bare)), host: bare };
}

/**
 * Whether the service at `serviceUrl` can reach `n8nUrl`, from the two addresses alone (see the
 * rules above). A public address is reachable unless the deliveries say otherwise.
 */
export function reachabilityOf(n8nUrl: string, serviceUrl: string): Reachability {
	const n8n = addressKind(n8nUrl);
	if (n8n.kind === 'public') return { reachable: true };
	const service = addressKind(serviceUrl);
	if (n8n.kind === 'loopback' && service.kind === 'loopback') return { reachable: true };
	if (n8n.kind === 'local' && service.kind !== 'public') return { reachable: true };
	const where =
		n8n.kind === 'loopback' ? 'the service runs elsewhere' : 'the service is on a public address';
	const because = n8n.kind === 'never' ? n8n.why : `${n8n.why}, and ${where}`;
	const address = n8n.host ?? n8nUrl;
	return {
		reachable: false,
		rule: n8n.rule,
		address,
		reason: `the service cannot reach this n8n at ${address}: ${because} (rule ${n8n.rule})`,
	};
}

/** Which failed deliveries count against an address: any that got no answer, or only a name that did not resolve. */
export type DeliveryFailures = 'any' | 'unresolved';
const UNRESOLVED = /\b(ENOTFOUND|EAI_AGAIN|EAI_NONAME)\b|getaddrinfo/;

/** A delivery as `GET /webhooks/deliveries` lists it (decisions.md; extra fields ignored). */
interface DeliveryRecord {
	endpointId: string;
	status: string;
	attempts: number;
	responseStatus: number | null;
	lastError: string | null;
	at: number;
}

function deliveryRecord(d: IDataObject): DeliveryRecord | undefined {
	if (typeof d.endpoint_id !== 'string') return undefined;
	const at = Date.parse(String(d.last_attempt_at ?? d.updated_at ?? ''));
	return {
		endpointId: d.endpoint_id,
		status: String(d.status ?? ''),
		attempts: typeof d.attempt_count === 'number' ? d.attempt_count : 0,
		responseStatus: typeof d.response_status === 'number' ? d.response_status : null,
		lastError: typeof d.last_error === 'string' ? d.last_error : null,
		at: Number.isFinite(at) ? at : 0,
	};
}

const originOf = (url: unknown) => {
	try {
		return typeof url === 'string' ? new URL(url).origin : undefined;
	} catch {
		return undefined;
	}
};

/**
 * The second rule: what the service's record of deliveries says about this n8n's address. Looks at
 * the latest attempt to any endpoint registered at the same origin as `n8nUrl`: when it got no
 * answer at all (no response_status, an error such as ENOTFOUND or ECONNREFUSED) the service cannot
 * reach this n8n; when n8n answered (any status: n8n was reached, whatever it said) or nothing was
 * tried yet, the record says nothing against it. `failures: 'unresolved'` counts only a name that
 * did not resolve (ENOTFOUND, EAI_AGAIN): an n8n that was down for a while (a restart) is refused
 * with ECONNREFUSED or a timeout too, and that must not stop a trigger from being published again.
 */
export function reachabilityFromDeliveries(
	n8nUrl: string,
	endpoints: IDataObject[],
	deliveries: IDataObject[],
	failures: DeliveryFailures = 'any',
): Reachability {
	const origin = originOf(n8nUrl);
	const ours = new Set(
		endpoints
			.filter((e) => typeof e.id === 'string' && originOf(e.url) === origin)
			.map((e) => e.id as string),
	);
	const attempts = deliveries
		.map(deliveryRecord)
		.filter((d): d is DeliveryRecord => d !== undefined && ours.has(d.endpointId) && d.attempts > 0)
		.sort((a, b) => b.at - a.at);
	const latest = attempts[0];
	if (!latest || latest.responseStatus !== null || latest.status === 'success' || !latest.lastError)
		return { reachable: true };
	if (failures === 'unresolved' && !UNRESOLVED.test(latest.lastError)) return { reachable: true };
	const when = latest.at
		? ` at ${new Date(latest.at).toISOString().slice(0, 19).replace('T', ' ')} UTC`
		: '';
	return {
		reachable: false,
		rule: 'failed_deliveries',
		address: origin ?? n8nUrl,
		reason: `the service cannot reach this n8n at ${origin}: its latest delivery there${when} got no answer (${latest.lastError}; ${latest.attempts} attempt${latest.attempts === 1 ? '' : 's'}) (rule failed_deliveries)`,
	};
}

/** Deliveries read per check: the newest page; older attempts say less about the address today. */
const DELIVERIES_READ = 100;

/**
 * Both rules, the second read from the service (`GET /webhooks` and `GET /webhooks/deliveries`,
 * scope webhooks:read). A read that fails leaves the verdict to the address rule.
 */
export async function checkReachability(
	client: ApiClient,
	n8nUrl: string,
	failures: DeliveryFailures = 'any',
): Promise<Reachability> {
	const byAddress = reachabilityOf(n8nUrl, client.baseUrl);
	if (!byAddress.reachable) return byAddress;
	try {
		const endpoints = await listAll(client, { path: '/webhooks' }, { returnAll: true, limit: 0 });
		const origin = originOf(n8nUrl);
		if (!endpoints.some((e) => originOf(e.url) === origin)) return byAddress;
		const deliveries = await listAll(
			client,
			{ path: '/webhooks/deliveries' },
			{ returnAll: false, limit: DELIVERIES_READ },
		);
		return reachabilityFromDeliveries(n8nUrl, endpoints, deliveries, failures);
	} catch {
		return byAddress;
	}
}

/** What to do about an address the service cannot reach: the same words wherever the node says it. */
export const REACHABILITY_REMEDY =
	"set n8n's WEBHOOK_URL to an address the service can reach (a public address or a tunnel)";

/**
 * Why a paused execution could not be resumed by the service's events, or undefined. n8n resumes a
 * paused execution without events only at its deadline, and then runs no node code (the waiting
 * node is disabled and its stored input passed on: WorkflowExecute.handleWaitingState), so a node
 * that cannot be called back must not pause: it waits in the execution, holding a worker.
 */
export async function whyUnreachable(
	client: ApiClient,
	resumeUrl: string,
): Promise<string | undefined> {
	const verdict = await checkReachability(client, resumeUrl);
	if (verdict.reachable) return undefined;
	return `${verdict.reason}; waiting here holds a worker until the runs finish. To pause instead, ${REACHABILITY_REMEDY}`;
}

/**
 * Publishing (or listening for a test event with) MediaGen Trigger at an address the service cannot
 * reach: n8n shows what checkExists or create throws as the activation error. Only a name that did
 * not resolve counts from the deliveries (see reachabilityFromDeliveries).
 */
export async function assertTriggerReachable(
	ctx: IHookFunctions,
	client: ApiClient,
	webhookUrl: string,
): Promise<void> {
	const verdict = await checkReachability(client, webhookUrl, 'unresolved');
	if (verdict.reachable) return;
	// n8n shows only the message as the activation error, and replaces a message that names a network
	// error code (ENOTFOUND, …) with a generic one: the service's error goes to the description
	throw new NodeOperationError(
		ctx.getNode(),
		`MediaGen cannot send events to this n8n at ${verdict.address} (rule ${verdict.rule}): ${REACHABILITY_REMEDY}, or use MediaGen Polling Trigger`,
		{
			description: `${verdict.reason[0].toUpperCase()}${verdict.reason.slice(1)}. The service delivers each event to ${webhookUrl}. To receive them, ${REACHABILITY_REMEDY}; or use MediaGen Polling Trigger, which asks the service for finished runs and needs no inbound connection.`,
		},
	);
}
