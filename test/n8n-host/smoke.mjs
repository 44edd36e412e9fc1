// Self-check of the host: `node test/n8n-host/smoke.mjs`. Builds a throwaway extension (a trivial
// node + credential) in a temp dir, imports a workflow using it, runs it with `n8n execute`, starts
// n8n, sets up the owner and an API key, reads /api/v1/executions and calls a published webhook.
// Prints timings; exits 1 on any mismatch (2 when n8n cannot be installed here).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureN8nInstalled, N8N_UNAVAILABLE } from './install.mjs';
import {
	createApiKey,
	executeWorkflow,
	makeUserFolder,
	n8nCli,
	publicApi,
	setupOwner,
	startN8n,
} from './n8n.mjs';

const ECHO_NODE = `"use strict";
class Echo {
  constructor() {
    this.description = {
      displayName: 'Echo Test', name: 'echoTest', group: ['transform'], version: 1,
      description: 'Returns its input plus a field', defaults: { name: 'Echo Test' },
      inputs: ['main'], outputs: ['main'],
      credentials: [{ name: 'echoTestApi', required: true }],
      properties: [
        { displayName: 'Tag', name: 'tag', type: 'string', default: 'hello' },
        { displayName: 'Fail', name: 'fail', type: 'boolean', default: false },
      ],
    };
  }
  async execute() {
    const creds = await this.getCredentials('echoTestApi');
    return [this.getInputData().map((item, i) => {
      if (this.getNodeParameter('fail', i)) throw new Error('echo asked to fail');
      return { json: { ...item.json, echoed: this.getNodeParameter('tag', i), token: creds.token }, pairedItem: { item: i } };
    })];
  }
}
exports.Echo = Echo;
`;
const ECHO_CREDENTIAL = `"use strict";
class EchoTestApi {
  constructor() {
    this.name = 'echoTestApi';
    this.displayName = 'Echo Test API';
    this.properties = [{ displayName: 'Token', name: 'token', type: 'string', typeOptions: { password: true }, default: '' }];
  }
}
exports.EchoTestApi = EchoTestApi;
`;

const manualWorkflow = (id, params) => ({
	id,
	name: `Echo ${id}`,
	active: false,
	settings: {},
	nodes: [
		{
			id: 'n1',
			name: 'Manual',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'n2',
			name: 'Echo',
			type: 'CUSTOM.echoTest',
			typeVersion: 1,
			position: [220, 0],
			parameters: params,
			credentials: { echoTestApi: { id: 'echoCred1', name: 'Echo cred' } },
		},
	],
	connections: { Manual: { main: [[{ node: 'Echo', type: 'main', index: 0 }]] } },
});
const webhookWorkflow = {
	id: 'smokeHook1',
	name: 'Echo webhook',
	active: false,
	settings: {},
	nodes: [
		{
			id: 'w1',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: 'b6f1c0de-0000-4000-8000-000000000001',
			parameters: {
				path: 'smoke-echo',
				httpMethod: 'POST',
				responseMode: 'lastNode',
				responseData: 'firstEntryJson',
			},
		},
		{
			id: 'w2',
			name: 'Echo',
			type: 'CUSTOM.echoTest',
			typeVersion: 1,
			position: [220, 0],
			parameters: { tag: 'via-webhook' },
			credentials: { echoTestApi: { id: 'echoCred1', name: 'Echo cred' } },
		},
	],
	connections: { Webhook: { main: [[{ node: 'Echo', type: 'main', index: 0 }]] } },
};

const timings = {};
async function timed(name, fn) {
	const t = Date.now();
	const result = await fn();
	timings[name] = Date.now() - t;
	console.log(`ok  ${name} (${timings[name]} ms)`);
	return result;
}

async function cli(args, opts) {
	const r = await n8nCli(args, opts);
	assert.equal(r.code, 0, `n8n ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
	return r;
}

async function main() {
	try {
		await ensureN8nInstalled();
	} catch (e) {
		console.error(e.message);
		process.exit(e.code === N8N_UNAVAILABLE ? 2 : 1);
	}
	const work = mkdtempSync(join(tmpdir(), 'mediagen-smoke-'));
	const extensionsDir = join(work, 'extension');
	mkdirSync(join(extensionsDir, 'nodes', 'Echo'), { recursive: true });
	mkdirSync(join(extensionsDir, 'credentials'), { recursive: true });
	writeFileSync(join(extensionsDir, 'nodes', 'Echo', 'Echo.node.js'), ECHO_NODE);
	writeFileSync(join(extensionsDir, 'credentials', 'EchoTestApi.credentials.js'), ECHO_CREDENTIAL);
	const file = (name, data) => {
		const p = join(work, name);
		writeFileSync(p, JSON.stringify(data));
		return p;
	};
	const userFolder = makeUserFolder();
	const opts = { userFolder, extensionsDir };
	let n8n;
	try {
		await timed('import:credentials (first CLI call: creates the DB)', () =>
			cli(
				[
					'import:credentials',
					`--input=${file('creds.json', [{ id: 'echoCred1', name: 'Echo cred', type: 'echoTestApi', data: { token: 'tok-123' } }])}`,
				],
				opts,
			),
		);
		await timed('import:workflow x3', async () => {
			await cli(
				[
					'import:workflow',
					`--input=${file('ok.json', manualWorkflow('smokeOk1', { tag: 'from-smoke' }))}`,
				],
				opts,
			);
			await cli(
				[
					'import:workflow',
					`--input=${file('fail.json', manualWorkflow('smokeFail1', { fail: true }))}`,
				],
				opts,
			);
			await cli(['import:workflow', `--input=${file('hook.json', webhookWorkflow)}`], opts);
		});
		const ok = await timed('n8n execute (success)', () => executeWorkflow('smokeOk1', opts));
		assert.equal(ok.status, 'success');
		assert.deepEqual(ok.data.resultData.runData.Echo[0].data.main[0][0].json, {
			echoed: 'from-smoke',
			token: 'tok-123',
		});
		const failed = await timed('n8n execute (node throws)', () =>
			executeWorkflow('smokeFail1', opts),
		);
		assert.equal(failed.status, 'error');
		assert.match(failed.data.resultData.error.message, /echo asked to fail/);

		await timed('publish:workflow', () => cli(['publish:workflow', '--id=smokeHook1'], opts));
		n8n = await timed('n8n start → /healthz/readiness', () => startN8n({ ...opts, log: () => {} }));
		await timed('owner setup', () => setupOwner(n8n.url));
		const apiKey = await timed('API key', () => createApiKey(n8n.url));
		const hook = await timed('POST published webhook', async () => {
			const res = await fetch(`${n8n.url}/webhook/smoke-echo`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{"from":"smoke"}',
			});
			assert.equal(res.status, 200, await res.clone().text());
			return res.json();
		});
		assert.equal(hook.echoed, 'via-webhook');
		assert.equal(hook.token, 'tok-123');
		const executions = await timed('GET /api/v1/executions', () =>
			publicApi(n8n.url, apiKey, '/executions?includeData=true&limit=50'),
		);
		const byWorkflow = {};
		for (const e of executions.data) (byWorkflow[e.workflowId] ??= []).push(e);
		assert.equal(byWorkflow.smokeOk1?.[0].status, 'success');
		assert.equal(byWorkflow.smokeFail1?.[0].status, 'error');
		assert.equal(byWorkflow.smokeHook1?.[0].mode, 'webhook');
		const okWhileRunning = await timed('n8n execute while the server runs', () =>
			executeWorkflow('smokeOk1', opts),
		);
		assert.equal(okWhileRunning.status, 'success');
		await timed('stop', () => n8n.stop());
		n8n = undefined;
		console.log('\nall good. timings (ms):', JSON.stringify(timings, null, 2));
	} catch (e) {
		if (n8n) console.error('--- n8n output (tail) ---\n' + n8n.logs().slice(-3000));
		throw e;
	} finally {
		await n8n?.stop();
		rmSync(work, { recursive: true, force: true });
		rmSync(userFolder, { recursive: true, force: true });
	}
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
