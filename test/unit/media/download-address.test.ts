import { downloadRefusal, isInternalHost } from '../../../src/media/download-address';

describe('isInternalHost', () => {
	it.each([
		'127.0.0.1',
		'127.8.9.10',
		'10.1.2.3',
		'172.16.0.1',
		'172.31.255.255',
		'192.168.1.1',
		'169.254.169.254',
		'0.0.0.0',
		'100.64.0.1',
		'100.127.255.255',
		'198.18.0.1',
		'198.19.255.255',
		'localhost',
		'api.localhost',
		'[::1]',
		'::',
		'[fd00::1]',
		'[fe80::1]',
		'[::ffff:127.0.0.1]',
		'[::ffff:a9fe:a9fe]',
	])('%s is internal', (host) => expect(isInternalHost(host)).toBe(true));

	// each range's edges, and public addresses whose second number a private range uses after another first number
	it.each([
		'8.8.8.8',
		'172.32.0.1',
		'172.15.0.1',
		'192.169.0.1',
		'192.167.0.1',
		'100.128.0.1',
		'100.63.255.255',
		'169.253.0.1',
		'198.17.0.1',
		'198.20.0.1',
		'8.16.0.1',
		'1.168.0.1',
		'1.254.0.1',
		'1.64.0.1',
		'1.18.0.1',
		'cdn.example.com',
		'localhost.example.com',
		'10.0.0',
		'10.0.0.0.1',
		'[::ffff:8.8.8.8]',
		// the edges of the IPv4 special-purpose blocks added for issue 24
		'192.0.1.1',
		'192.0.3.1',
		'192.88.98.1',
		'192.88.100.1',
		'198.51.99.1',
		'198.51.101.1',
		'203.0.112.1',
		'203.0.114.1',
		'223.255.255.255',
		'191.255.0.1',
		// public IPv6 unicast, and the embedded-IPv4 forms with a public IPv4 inside
		'[2606:4700:4700::1111]',
		'[2a00:1450:4001:81c::200e]',
		'[2001:200::1]',
		'[2001:db7:ffff::1]',
		'[2001:db9::1]',
		'[3ffe::1]',
		'[3fff:1000::1]',
		'[64:ff9b::808:808]',
		'[64:ff9b::8.8.8.8]',
		'[::ffff:0:808:808]',
		'[2002:808:808::1]',
	])('%s is not', (host) => expect(isInternalHost(host)).toBe(false));

	// localhost with the root's trailing dot is the same name (issue 24: the normalisation was never tested)
	it.each(['localhost.', 'LOCALHOST.', 'api.localhost.', '127.0.0.1.'])('%s is internal', (host) =>
		expect(isInternalHost(host)).toBe(true),
	);

	// IANA's IPv4 special-purpose registry beyond the private ranges, and multicast/reserved (issue 24)
	it.each([
		'192.0.0.8',
		'192.0.2.10',
		'192.88.99.1',
		'198.51.100.7',
		'203.0.113.9',
		'224.0.0.1',
		'239.255.255.250',
		'240.0.0.1',
		'255.255.255.255',
	])('%s is internal', (host) => expect(isInternalHost(host)).toBe(true));

	// IPv6 forms that reach IPv4 loopback or are not public unicast (issue 24: these passed the table)
	it.each([
		['IPv4-compatible loopback', '[::127.0.0.1]'],
		['IPv4-compatible, as the URL parser writes it', '[::7f00:1]'],
		['IPv4-compatible public (deprecated block)', '[::8.8.8.8]'],
		['IPv4-translated loopback', '[::ffff:0:127.0.0.1]'],
		['IPv4-translated, as the URL parser writes it', '[::ffff:0:7f00:1]'],
		['NAT64 of loopback', '[64:ff9b::127.0.0.1]'],
		['NAT64 of the metadata address', '[64:ff9b::a9fe:a9fe]'],
		['local-use NAT64', '[64:ff9b:1::808:808]'],
		['6to4 of a private address', '[2002:c0a8:101::1]'],
		['site-local', '[fec0::1]'],
		['site-local, upper edge', '[feff::1]'],
		['unique local', '[fc00::1]'],
		['link-local with a zone', 'fe80::1%eth0'],
		['multicast', '[ff02::1]'],
		['discard-only', '[100::1]'],
		['Teredo', '[2001::1]'],
		['benchmarking', '[2001:2::1]'],
		['ORCHIDv2', '[2001:20::1]'],
		['documentation', '[2001:db8::1]'],
		['documentation (3fff::/20)', '[3fff::1]'],
		['outside global unicast', '[4000::1]'],
		['expanded loopback', '[0:0:0:0:0:0:0:1]'],
		['an IPv6 literal that cannot be read', '[1:2:3:4:5:6:7:8:9]'],
		['a bad embedded IPv4', '[::ffff:300.0.0.1]'],
	])('%s (%s) is internal', (_name, host) => expect(isInternalHost(host)).toBe(true));
});

describe('downloadRefusal', () => {
	const hosted = 'https://api.mediagen.example/v1';
	const local = 'http://127.0.0.1:4010/v1';

	it.each([
		['https on another host', 'https://cdn.mediagen.example/out/a.png', hosted],
		['a mapped IPv6 public address', 'https://[::ffff:8.8.8.8]/a.png', hosted],
		['http on the host of an http Base URL', 'http://127.0.0.1:4010/storage/a.png', local],
		['http on the same host, other port', 'http://127.0.0.1:9999/a.png', local],
		['a private address when the Base URL is on one', 'http://127.0.0.1:4010/a.png', local],
	])('allows %s', (_name, url, base) => expect(downloadRefusal(url, base)).toBeUndefined());

	it.each([
		['plain http for an https service', 'http://cdn.mediagen.example/a.png', hosted, 'only https'],
		[
			'http on another host than the http Base URL',
			'http://cdn.example.com/a.png',
			local,
			'only https',
		],
		[
			'a loopback address for a public service',
			'https://127.0.0.1/a.png',
			hosted,
			'loopback, private',
		],
		[
			'the cloud metadata address',
			'https://169.254.169.254/latest/meta-data',
			hosted,
			'loopback, private',
		],
		['a private address', 'https://10.0.0.5/a.png', hosted, 'loopback, private'],
		['localhost by name', 'https://localhost/a.png', hosted, 'loopback, private'],
		['a mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/a.png', hosted, 'loopback, private'],
		[
			'an IPv4-compatible IPv6 loopback',
			'https://[::127.0.0.1]/a.png',
			hosted,
			'loopback, private',
		],
		[
			'an IPv4-translated IPv6 loopback',
			'https://[::ffff:0:127.0.0.1]/a.png',
			hosted,
			'loopback, private',
		],
		['NAT64 of loopback', 'https://[64:ff9b::127.0.0.1]/a.png', hosted, 'loopback, private'],
		['a site-local IPv6 address', 'https://[fec0::1]/a.png', hosted, 'loopback, private'],
		['localhost with a trailing dot', 'https://localhost./a.png', hosted, 'loopback, private'],
		['loopback written as one number', 'https://2130706433/a.png', hosted, 'loopback, private'],
		['loopback in hex, shortened', 'https://0x7f.1/a.png', hosted, 'loopback, private'],
		[
			'user and password in the URL',
			'https://user:secret@cdn.mediagen.example/a.png',
			hosted,
			'user name or password',
		],
		['another scheme', 'file:///etc/passwd', hosted, 'only https'],
		['no absolute URL', '/relative/a.png', hosted, 'not an absolute URL'],
	])('refuses %s', (_name, url, base, reason) =>
		expect(downloadRefusal(url, base)).toContain(reason),
	);
});
