import { openApiDocument } from '../../sandbox/openapi';
import { takeRecordedResponses, type RecordedResponse } from '../../sandbox/published';
import { ContractChecker } from '../helpers/contract';
import { rowKey, seedRows } from '../helpers/endpoint-rows';
import { clientFor, openSandbox } from '../sandbox/helpers';

const document = openApiDocument('http://127.0.0.1:1/v1');
const at = '2026-01-01T00:00:00.000Z';
const run = {
	id: 'run_1',
	object: 'run',
	status: 'queued',
	capability: 'image_generation',
	endpoint: 'POST /images/generations',
	model: 'image.aurora-2',
	request_id: 'req_1',
	input_summary: null,
	output: null,
	usage: null,
	error: null,
	resource_id: null,
	provider_request_id: null,
	created_at: at,
	updated_at: at,
	completed_at: null,
};
const answer = (extra: Partial<RecordedResponse>): RecordedResponse => ({
	method: 'POST',
	path: '/images/generations',
	status: 202,
	contentType: 'application/json; charset=utf-8',
	body: run,
	...extra,
});

describe('contract checks of sandbox answers', () => {
	const checker = new ContractChecker(document);

	it('accepts an answer that matches, and flags each kind of mismatch', () => {
		expect(checker.check(answer({}))).toEqual([]);
		expect(checker.check(answer({ body: { ...run, status: 'done' } })).join()).toMatch(
			/\/status must be equal to one of the allowed values/,
		);
		const incomplete: Partial<typeof run> = { ...run };
		delete incomplete.completed_at;
		expect(checker.check(answer({ body: incomplete })).join()).toMatch(
			/must have required property 'completed_at'/,
		);
		expect(checker.check(answer({ body: { ...run, created_at: 'yesterday' } })).join()).toMatch(
			/\/created_at must match format "date-time"/,
		);
		expect(checker.check(answer({ status: 200 })).join()).toMatch(/status not documented/);
		expect(checker.check(answer({ contentType: 'text/html' })).join()).toMatch(
			/content type text\/html not documented/,
		);
		expect(checker.check(answer({ path: '/nowhere' })).join()).toMatch(/no such operation/);
		expect(
			checker
				.check(
					answer({
						status: 400,
						contentType: 'application/problem+json',
						body: { code: 'invalid_prompt' },
					}),
				)
				.join(),
		).toMatch(/required property 'type'/);
		expect(
			checker
				.check(
					answer({
						method: 'GET',
						path: '/runs',
						status: 200,
						body: { object: 'list', data: [run] },
					}),
				)
				.join(),
		).toMatch(/required property 'has_more'/);
	});

	it('checks every route of the seed table answering without credentials, without an Idempotency-Key, and every plain GET', async () => {
		const { sandbox, http } = await openSandbox();
		try {
			const anonymous = clientFor(sandbox.baseUrl);
			let sent = 0;
			for (const e of seedRows()) {
				const path = `${e.path.replace(/\{(\w+)\}/g, 'x_$1')}`;
				const method = e.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
				if (e.auth === 'bearer') {
					const res = await anonymous.request({ method, url: path, data: {} });
					expect({ key: rowKey(e), status: res.status }).toEqual({ key: rowKey(e), status: 401 });
					sent++;
				}
				if (e.idempotency === 'yes') {
					const res = await http.request({ method, url: path, data: {} });
					expect({ key: rowKey(e), code: res.data.code }).toEqual({
						key: rowKey(e),
						code: 'idempotency_key_required',
					});
					sent++;
				}
				if (e.method === 'GET' && !e.path.includes('{')) {
					const res = await http.get(path);
					expect({ key: rowKey(e), status: res.status }).toEqual({ key: rowKey(e), status: 200 });
					sent++;
				}
			}
			const recorded = takeRecordedResponses(sandbox.state);
			expect(recorded).toHaveLength(sent);
			expect(new ContractChecker(document).checkAll(recorded)).toEqual([]);
		} finally {
			await sandbox.close();
		}
	});
});
