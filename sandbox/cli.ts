/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the local sandbox service: runs in Node, never shipped (CONTRIBUTING.md, Linting) */
import { parseArgs } from 'node:util';

import { SANDBOX_API_KEY, SANDBOX_OAUTH_CLIENT_ID, SANDBOX_OAUTH_CLIENT_SECRET } from './options';
import { startSandbox } from './server';

/** `npm run sandbox -- --port 4010 --latency 1500 --failure-rate 0 --rate-limit 500 ...` */
async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			port: { type: 'string', default: '4010' },
			host: { type: 'string', default: '127.0.0.1' },
			latency: { type: 'string' },
			'long-latency': { type: 'string' },
			'caption-pictures': { type: 'boolean', default: false },
			'failure-rate': { type: 'string' },
			'rate-limit': { type: 'string' },
			concurrency: { type: 'string' },
			'token-ttl': { type: 'string' },
			'quote-ttl': { type: 'string' },
			credits: { type: 'string' },
			chaos: { type: 'string' },
			'chaos-slow': { type: 'string' },
			'video-bytes': { type: 'string' },
			'webhook-backoff-scale': { type: 'string' },
			'keep-failing-webhooks': { type: 'boolean', default: false },
			help: { type: 'boolean', default: false },
		},
	});
	if (values.help) {
		process.stdout.write(
			'npm run sandbox -- [--port 4010] [--latency ms] [--failure-rate 0..1] [--rate-limit req/s] [--concurrency runs]\n' +
				'                   [--long-latency ms]  (video, lip sync, 3D, producer and training runs take this long; default: --latency)\n' +
				'                   [--caption-pictures]  (pictures show the prompt that made them, 320 px short side)\n' +
				'                   [--token-ttl s] [--quote-ttl s] [--credits n] [--chaos 0..1] [--webhook-backoff-scale x]\n' +
				'                   [--keep-failing-webhooks]  (do not disable an endpoint whose delivery failed every attempt)\n' +
				'                   [--video-bytes n]  (every MP4 output is n bytes long, padded while it is sent)\n',
		);
		return;
	}
	const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
	const options = Object.fromEntries(
		Object.entries({
			port: num(values.port),
			host: values.host,
			latencyMs: num(values.latency),
			longRunLatencyMs: num(values['long-latency']),
			captionPictures: values['caption-pictures'] ? true : undefined,
			failureRate: num(values['failure-rate']),
			rateLimitPerSecond: num(values['rate-limit']),
			concurrencyPerAccount: num(values.concurrency),
			tokenTtlSeconds: num(values['token-ttl']),
			quoteTtlSeconds: num(values['quote-ttl']),
			startingCredits: num(values.credits),
			chaos: num(values.chaos),
			chaosSlowMs: num(values['chaos-slow']),
			videoOutputBytes: num(values['video-bytes']),
			webhookBackoffScale: num(values['webhook-backoff-scale']),
			webhookAutoDisable: values['keep-failing-webhooks'] ? false : undefined,
		}).filter(([, v]) => v !== undefined),
	);
	const sandbox = await startSandbox(options);
	process.stdout.write(
		[
			`MediaGen sandbox listening on ${sandbox.origin}`,
			`  Base URL:            ${sandbox.baseUrl}`,
			`  OpenAPI 3.1:         ${sandbox.baseUrl}/openapi.json`,
			`  API key (all scopes): ${SANDBOX_API_KEY}`,
			`  OAuth client id:     ${SANDBOX_OAUTH_CLIENT_ID}`,
			`  OAuth client secret: ${SANDBOX_OAUTH_CLIENT_SECRET}`,
			`  Run latency ${sandbox.state.options.latencyMs} ms${sandbox.state.options.longRunLatencyMs ? ` (video, lip sync, 3D, producers: ${sandbox.state.options.longRunLatencyMs} ms)` : ''}, failure rate ${sandbox.state.options.failureRate}, rate limit ${sandbox.state.options.rateLimitPerSecond}/s per credential`,
			'',
		].join('\n'),
	);
	const stop = () => void sandbox.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

void main();
