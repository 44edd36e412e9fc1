import type { IDataObject } from 'n8n-workflow';

import {
	reachabilityFromDeliveries,
	reachabilityOf,
	type Reachability,
} from '../../../src/webhooks/reachability';

const PUBLIC_SERVICE = 'https://api.mediagen.example.com/v1';
const LOCAL_SERVICE = 'http://127.0.0.1:4010/v1';
const LAN_SERVICE = 'http://10.0.0.5:4010/v1';

const ruleOf = (r: Reachability) => (r.reachable ? 'reachable' : r.rule);

describe('reachabilityOf: from a service on a public address', () => {
	const unreachable: Array<[string, string]> = [
		['http://127.0.0.1:5678/webhook', 'loopback'],
		['http://127.255.0.9/webhook', 'loopback'],
		['http://0x7f.1/webhook', 'loopback'],
		['http://2130706433/webhook', 'loopback'],
		['http://localhost:5678/webhook', 'loopback'],
		['http://n8n.localhost/webhook', 'loopback'],
		['http://localhost./webhook', 'loopback'],
		['http://[::1]:5678/webhook', 'loopback'],
		['http://[::ffff:127.0.0.1]/webhook', 'loopback'],
		['http://0.0.0.0:5678/webhook', 'unspecified'],
		['http://[::]/webhook', 'unspecified'],
		['http://10.1.2.3/webhook', 'private'],
		['http://172.16.0.1/webhook', 'private'],
		['http://172.31.255.254/webhook', 'private'],
		['http://192.168.1.20:5678/webhook', 'private'],
		['http://[::ffff:192.168.1.20]/webhook', 'private'],
		['http://[::ffff:c0a8:114]/webhook', 'private'],
		['http://[fd12:3456:789a::1]/webhook', 'private'],
		['http://[fc00::1]/webhook', 'private'],
		['http://169.254.10.1/webhook', 'link_local'],
		['http://[fe80::1]/webhook', 'link_local'],
		['http://[febf::1]/webhook', 'link_local'],
		['http://100.64.0.1/webhook', 'shared_address'],
		['http://100.127.255.1/webhook', 'shared_address'],
		['http://n8n:5678/webhook', 'single_label'],
		['http://n8n.local/webhook', 'local_name'],
		['http://n8n.lan/webhook', 'local_name'],
		['http://n8n.home.arpa/webhook', 'local_name'],
		['http://n8n.corp.internal/webhook', 'local_name'],
		['http://n8n.test/webhook', 'local_name'],
		['http://n8n.example/webhook', 'local_name'],
		['http://N8N.LAN./webhook', 'local_name'],
		['http://n8n.invalid/webhook', 'reserved_name'],
		['not a url', 'not_a_url'],
	];
	it.each(unreachable)('%s is unreachable by rule %s', (url, rule) => {
		const verdict = reachabilityOf(url, PUBLIC_SERVICE);
		expect(ruleOf(verdict)).toBe(rule);
		if (!verdict.reachable) expect(verdict.reason).toContain(`(rule ${rule})`);
	});

	const reachable = [
		'https://n8n.acme.com/webhook',
		'http://8.8.8.8/webhook',
		'http://172.15.255.1/webhook',
		'http://172.32.0.1/webhook',
		'http://192.169.0.1/webhook',
		'http://169.255.0.1/webhook',
		'http://100.63.255.255/webhook',
		'http://100.128.0.1/webhook',
		'http://11.0.0.1/webhook',
		'http://[2001:db8::1]/webhook',
		'http://[::ffff:8.8.8.8]/webhook',
		'http://[fec0::1]/webhook',
		'http://[fe00::1]/webhook',
		'https://n8n.local.acme.com/webhook',
		'https://test.acme.com/webhook',
		'https://localhost.acme.com/webhook',
		'https://example.com/webhook',
	];
	it.each(reachable)('%s is reachable', (url) => {
		expect(reachabilityOf(url, PUBLIC_SERVICE)).toEqual({ reachable: true });
	});

	it('names the address and why in the reason', () => {
		const verdict = reachabilityOf('http://192.168.1.20:5678/webhook-waiting/7', PUBLIC_SERVICE);
		expect(verdict).toEqual({
			reachable: false,
			rule: 'private',
			address: '192.168.1.20',
			reason:
				'the service cannot reach this n8n at 192.168.1.20: a private address (RFC 1918), and the service is on a public address (rule private)',
		});
	});
});

describe('reachabilityOf: from a service on a non-public address (same machine or network)', () => {
	it('a loopback n8n is reachable from a loopback service only', () => {
		expect(reachabilityOf('http://127.0.0.1:5678/webhook', LOCAL_SERVICE)).toEqual({
			reachable: true,
		});
		expect(reachabilityOf('http://localhost:5678/webhook', 'http://[::1]:4010/v1')).toEqual({
			reachable: true,
		});
		expect(ruleOf(reachabilityOf('http://127.0.0.1:5678/webhook', LAN_SERVICE))).toBe('loopback');
	});
	it.each([
		'http://192.168.1.20/webhook',
		'http://n8n.lan/webhook',
		'http://n8n:5678/webhook',
		'http://[fd00::2]/webhook',
		'http://100.64.1.1/webhook',
	])('%s (a local address) is reachable from a service on a local network', (url) => {
		expect(reachabilityOf(url, LAN_SERVICE)).toEqual({ reachable: true });
		expect(reachabilityOf(url, LOCAL_SERVICE)).toEqual({ reachable: true });
	});
	it.each([
		['http://n8n.invalid/webhook', 'reserved_name'],
		['http://0.0.0.0:5678/webhook', 'unspecified'],
	])('%s is unreachable from anywhere (%s)', (url, rule) => {
		expect(ruleOf(reachabilityOf(url, LOCAL_SERVICE))).toBe(rule);
		expect(ruleOf(reachabilityOf(url, LAN_SERVICE))).toBe(rule);
	});
});

describe('reachabilityFromDeliveries: the service record of its deliveries to this n8n', () => {
	const N8N = 'https://n8n.acme.com/webhook-waiting/12';
	const endpoints: IDataObject[] = [
		{ id: 'whe_ours', url: 'https://n8n.acme.com/webhook/abc/webhook' },
		{ id: 'whe_other', url: 'https://elsewhere.acme.com/hook' },
	];
	const delivery = (over: IDataObject): IDataObject => ({
		id: 'whd_1',
		endpoint_id: 'whe_ours',
		status: 'failed',
		attempt_count: 5,
		response_status: null,
		last_error: 'ENOTFOUND: getaddrinfo ENOTFOUND n8n.acme.com',
		last_attempt_at: '2026-11-27T20:00:00.000Z',
		...over,
	});

	it('a delivery to this origin that got no answer makes it unreachable, quoting the error', () => {
		const verdict = reachabilityFromDeliveries(N8N, endpoints, [delivery({})]);
		expect(verdict).toEqual({
			reachable: false,
			rule: 'failed_deliveries',
			address: 'https://n8n.acme.com',
			reason:
				'the service cannot reach this n8n at https://n8n.acme.com: its latest delivery there at 2026-11-27 20:00:00 UTC got no answer (ENOTFOUND: getaddrinfo ENOTFOUND n8n.acme.com; 5 attempts) (rule failed_deliveries)',
		});
	});
	it('a first attempt that failed counts while retries are pending', () => {
		expect(
			ruleOf(
				reachabilityFromDeliveries(N8N, endpoints, [
					delivery({ status: 'pending', attempt_count: 1, last_error: 'ECONNREFUSED' }),
				]),
			),
		).toBe('failed_deliveries');
	});
	it('n8n answering (any status) means it was reached', () => {
		expect(
			reachabilityFromDeliveries(N8N, endpoints, [
				delivery({ response_status: 401, last_error: 'The receiver answered HTTP 401' }),
			]),
		).toEqual({ reachable: true });
		expect(
			reachabilityFromDeliveries(N8N, endpoints, [
				delivery({ status: 'success', response_status: 200, last_error: null }),
			]),
		).toEqual({ reachable: true });
	});
	it('only the latest attempt counts: a success after failures is reachable, a failure after a success is not', () => {
		const old = '2026-11-27T19:00:00.000Z';
		const failedThenOk = [
			delivery({ last_attempt_at: old }),
			delivery({ id: 'whd_2', status: 'success', response_status: 200, last_error: null }),
		];
		expect(reachabilityFromDeliveries(N8N, endpoints, failedThenOk)).toEqual({ reachable: true });
		const okThenFailed = [
			delivery({}),
			delivery({
				id: 'whd_2',
				status: 'success',
				response_status: 200,
				last_error: null,
				last_attempt_at: old,
			}),
		];
		expect(ruleOf(reachabilityFromDeliveries(N8N, endpoints, okThenFailed))).toBe(
			'failed_deliveries',
		);
	});
	it('counting only names that did not resolve (activation): ENOTFOUND and EAI_AGAIN count, a refused connection (n8n down for a while) does not', () => {
		expect(ruleOf(reachabilityFromDeliveries(N8N, endpoints, [delivery({})], 'unresolved'))).toBe(
			'failed_deliveries',
		);
		expect(
			ruleOf(
				reachabilityFromDeliveries(
					N8N,
					endpoints,
					[delivery({ last_error: 'EAI_AGAIN: getaddrinfo EAI_AGAIN n8n.acme.com' })],
					'unresolved',
				),
			),
		).toBe('failed_deliveries');
		expect(
			reachabilityFromDeliveries(
				N8N,
				endpoints,
				[delivery({ last_error: 'ECONNREFUSED: connect ECONNREFUSED 1.2.3.4:443' })],
				'unresolved',
			),
		).toEqual({ reachable: true });
		expect(
			reachabilityFromDeliveries(
				N8N,
				endpoints,
				[delivery({ last_error: 'No answer within 10 s' })],
				'unresolved',
			),
		).toEqual({ reachable: true });
		expect(
			ruleOf(
				reachabilityFromDeliveries(N8N, endpoints, [
					delivery({ last_error: 'No answer within 10 s' }),
				]),
			),
		).toBe('failed_deliveries');
	});
	it('failures to other addresses, and deliveries not attempted yet, say nothing about this n8n', () => {
		expect(
			reachabilityFromDeliveries(N8N, endpoints, [delivery({ endpoint_id: 'whe_other' })]),
		).toEqual({ reachable: true });
		expect(
			reachabilityFromDeliveries(N8N, endpoints, [
				delivery({ status: 'pending', attempt_count: 0, last_error: null }),
			]),
		).toEqual({ reachable: true });
		expect(reachabilityFromDeliveries(N8N, [], [delivery({})])).toEqual({ reachable: true });
	});
});
