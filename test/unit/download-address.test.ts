import { downloadRefusal, isInternalHost } from '../../src/media/download-address';

describe('isInternalHost', () => {
	it.each(['127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '100.127.255.255', '198.18.0.1', '198.19.255.255', 'localhost', 'api.localhost', '[::1]', '::', '[fd00::1]', '[fe80::1]', '[::ffff:127.0.0.1]', '[::ffff:a9fe:a9fe]'])(
		'%s is internal',
		(host) => expect(isInternalHost(host)).toBe(true),
	);

	// each range's edges, and public addresses whose second number a private range uses after another first number
	it.each([
		'8.8.8.8', '172.32.0.1', '172.15.0.1', '192.169.0.1', '192.167.0.1', '100.128.0.1', '100.63.255.255', '169.253.0.1', '198.17.0.1', '198.20.0.1',
		'8.16.0.1', '1.168.0.1', '1.254.0.1', '1.64.0.1', '1.18.0.1', 'cdn.example.com', 'localhost.example.com', '10.0.0', '10.0.0.0.1', '[2001:db8::1]', '[::ffff:8.8.8.8]',
	])('%s is not', (host) =>
		expect(isInternalHost(host)).toBe(false),
	);
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
		['http on another host than the http Base URL', 'http://cdn.example.com/a.png', local, 'only https'],
		['a loopback address for a public service', 'https://127.0.0.1/a.png', hosted, 'loopback, private'],
		['the cloud metadata address', 'https://169.254.169.254/latest/meta-data', hosted, 'loopback, private'],
		['a private address', 'https://10.0.0.5/a.png', hosted, 'loopback, private'],
		['localhost by name', 'https://localhost/a.png', hosted, 'loopback, private'],
		['a mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/a.png', hosted, 'loopback, private'],
		['user and password in the URL', 'https://user:secret@cdn.mediagen.example/a.png', hosted, 'user name or password'],
		['another scheme', 'file:///etc/passwd', hosted, 'only https'],
		['no absolute URL', '/relative/a.png', hosted, 'not an absolute URL'],
	])('refuses %s', (_name, url, base, reason) => expect(downloadRefusal(url, base)).toContain(reason));
});
