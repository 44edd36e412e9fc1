// Preloaded into n8n (and the npm it runs) by the registry e2e test through
// NODE_OPTIONS=--require <this file>: TLS connections to registry.npmjs.org go to the local
// registry on 127.0.0.1:$MEDIAGEN_REGISTRY_PORT instead, which serves a certificate for
// registry.npmjs.org signed by the test's own CA (NODE_EXTRA_CA_CERTS). n8n then installs
// community packages "from npm" as it does for users — its installer only accepts another registry
// under an enterprise licence (N8N_COMMUNITY_PACKAGES_REGISTRY) — while nothing leaves the machine.
'use strict';
const tls = require('node:tls');

const HOST = 'registry.npmjs.org';
const port = Number(process.env.MEDIAGEN_REGISTRY_PORT);
const connect = tls.connect;

if (port) {
	tls.connect = function connectToLocalRegistry(...args) {
		// tls.connect(options[, cb]) | tls.connect(port[, host][, options][, cb])
		const callback = typeof args[args.length - 1] === 'function' ? args.pop() : undefined;
		let options;
		if (typeof args[0] === 'object' && args[0] !== null) options = { ...args[0] };
		else
			options = {
				...(typeof args[2] === 'object' ? args[2] : typeof args[1] === 'object' ? args[1] : {}),
				port: args[0],
				host: typeof args[1] === 'string' ? args[1] : undefined,
			};
		const name = options.servername || options.host;
		if (name === HOST && (options.port === undefined || Number(options.port) === 443)) {
			options = { ...options, host: '127.0.0.1', port, servername: HOST };
			delete options.socket;
			delete options.path;
		}
		return callback ? connect.call(this, options, callback) : connect.call(this, options);
	};
}
