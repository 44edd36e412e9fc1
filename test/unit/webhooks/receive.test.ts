/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { createHmac } from 'node:crypto';
import { Readable } from 'node:stream';

import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { receiveEvent } from '../../../src/webhooks/receive';
import { sealSecret, TRIGGER_SEAL_INFO } from '../../../src/webhooks/sealed-secret';
import { MAX_REMEMBERED_EVENTS } from '../../../src/webhooks/seen-events';

/**
 * The trigger's webhook on its own, with a hand-made webhook context (no n8n, no sandbox): what
 * reaches the workflow and what is answered 401. The signature is computed here with node:crypto,
 * not with the package's signPayload.
 */
const SECRET = 'whsec_receive_test_0123456789';
const sign = (raw: string, secret = SECRET) =>
	`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

const eventBody = (id: string, minutesAgo = 0) =>
	JSON.stringify({
		id,
		object: 'event',
		type: 'run.completed',
		created_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
		data: {
			object: { id: 'run_1', object: 'run', status: 'completed', capability: 'image_generation' },
		},
	});

interface Delivery {
	body: string;
	signature?: string;
	/** n8n had not read the body yet: the node has to call readRawBody() */
	unread?: boolean;
	/** n8n read the body and also offers readRawBody() (which must not be needed) */
	readAgain?: () => Promise<void>;
	/** no body was read and there is no way to read it */
	noBody?: boolean;
	headers?: Record<string, string>;
}

interface Answer {
	status?: number;
	json?: unknown;
	/** the event ids passed on to the workflow */
	started: string[];
}

const API_KEY = 'mg_key_receive_test';
let workflows = 0;

/**
 * A trigger node: its stored parameters (undefined: the node stores none, n8n gives the default) and
 * static data (default: the secret sealed as registration seals it). Each has a workflow id of its own.
 */
function trigger(stored: IDataObject = {}, given?: IDataObject) {
	const workflowId = `wf-receive-${++workflows}`;
	const staticData: IDataObject = given ?? {
		sealedSigningSecret: sealSecret(SECRET, {
			credentialSecret: API_KEY,
			context: `${workflowId}\u0000MediaGen Trigger`,
			info: TRIGGER_SEAL_INFO,
		}),
	};
	const parameters: IDataObject = { events: ['run.completed'], ...stored };
	/** what receiveEvent returned for each delivery, in order */
	const results: IWebhookResponseData[] = [];
	/** the credential types asked for and the addresses fetched (output downloads) */
	const credentialTypes: string[] = [];
	const downloads: string[] = [];
	let downloadFails = false;
	const failDownloads = () => {
		downloadFails = true;
	};
	/** while set, downloads wait for it (a slow file) */
	let downloadGate: Promise<void> | undefined;
	const holdDownloads = () => {
		let release!: () => void;
		downloadGate = new Promise((resolve) => (release = resolve));
		return () => {
			downloadGate = undefined;
			release();
		};
	};
	const receive = async (delivery: Delivery): Promise<Answer> => {
		const answer: Answer = { started: [] };
		const raw = Buffer.from(delivery.body, 'utf8');
		const req: { rawBody?: Buffer; readRawBody?: () => Promise<void> } = delivery.noBody
			? {}
			: delivery.unread
				? {
						readRawBody: async () => {
							req.rawBody = raw;
						},
					}
				: { rawBody: raw, ...(delivery.readAgain ? { readRawBody: delivery.readAgain } : {}) };
		const res = {
			status(code: number) {
				answer.status = code;
				return res;
			},
			json(value: unknown) {
				answer.json = value;
				return res;
			},
		};
		const ctx = {
			getRequestObject: () => req,
			getResponseObject: () => res,
			getHeaderData: () => ({
				...delivery.headers,
				...(delivery.signature === undefined ? {} : { 'x-service-signature': delivery.signature }),
			}),
			getNodeParameter: (name: string, fallback?: unknown) =>
				name in parameters ? parameters[name] : fallback,
			getWorkflowStaticData: () => staticData,
			getNode: () => ({
				name: 'MediaGen Trigger',
				type: 'n8n-nodes-mediagen.mediaGenTrigger',
				typeVersion: 1,
				parameters: {},
			}),
			getWorkflow: () => ({ id: workflowId, name: 'Receive test', active: true }),
			getCredentials: async (type: string) => {
				credentialTypes.push(type);
				return {
					baseUrl: 'https://api.mediagen.example/',
					...(type === 'mediaGenOAuth2Api' ? { clientSecret: API_KEY } : { apiKey: API_KEY }),
				};
			},
			helpers: {
				httpRequest: async (request: { url: string }) => {
					downloads.push(request.url);
					await downloadGate;
					if (downloadFails) throw new Error('socket hang up');
					// downloads are streamed (src/media/download.ts): the body is a stream
					return {
						statusCode: 200,
						headers: { 'content-type': 'image/png' },
						body: Readable.from([Buffer.from('png bytes')]),
					};
				},
				prepareBinaryData: async (data: Buffer | Readable, fileName: string, mimeType: string) => {
					const chunks: Buffer[] = [];
					if (Buffer.isBuffer(data)) chunks.push(data);
					else for await (const chunk of data) chunks.push(chunk as Buffer);
					return { data: Buffer.concat(chunks).toString('base64'), fileName, mimeType };
				},
			},
		} as unknown as IWebhookFunctions;
		const result = await receiveEvent(ctx);
		results.push(result);
		if (result.webhookResponse !== undefined) answer.json = result.webhookResponse;
		answer.started = (result.workflowData?.[0] ?? []).map((item) => String(item.json.event_id));
		return answer;
	};
	const deliver = (body: string, extra: Partial<Delivery> = {}) =>
		receive({ body, signature: sign(body), ...extra });
	return {
		receive,
		deliver,
		staticData,
		results,
		credentialTypes,
		downloads,
		failDownloads,
		holdDownloads,
		workflowId,
	};
}

describe('the trigger webhook verifies before it starts anything', () => {
	it('answers 401 no_signing_secret while the node holds no secret (nothing registered yet)', async () => {
		const { deliver } = trigger({}, {});
		const answer = await deliver(eventBody('evt_1'));
		expect(answer).toEqual({
			status: 401,
			json: { error: 'unauthorized', reason: 'no_signing_secret' },
			started: [],
		});
	});

	it('answers 401 with the reason for a forged, an unsigned and a malformed delivery', async () => {
		const { receive } = trigger();
		const body = eventBody('evt_1');
		expect(await receive({ body, signature: sign(body, 'whsec_guessed') })).toEqual({
			status: 401,
			json: { error: 'unauthorized', reason: 'signature_mismatch' },
			started: [],
		});
		expect(await receive({ body })).toEqual({
			status: 401,
			json: { error: 'unauthorized', reason: 'missing_signature' },
			started: [],
		});
		expect(await receive({ body, signature: sign(body).slice('sha256='.length) })).toEqual({
			status: 401,
			json: { error: 'unauthorized', reason: 'malformed_signature' },
			started: [],
		});
	});

	it('reads the raw body itself when n8n has not read it yet, and verifies those bytes', async () => {
		const { deliver } = trigger();
		const answer = await deliver(eventBody('evt_1'), { unread: true });
		expect(answer).toEqual({
			status: 200,
			json: { received: true, event_id: 'evt_1' },
			started: ['evt_1'],
		});
	});
});

describe('replay protection', () => {
	it('applies its defaults when the node stores no value: 5 minutes, repeated events ignored', async () => {
		const { deliver } = trigger();
		expect((await deliver(eventBody('evt_old', 6))).json).toEqual({
			error: 'unauthorized',
			reason: 'stale_event',
		});
		expect((await deliver(eventBody('evt_recent', 4))).started).toEqual(['evt_recent']);
		const replay = await deliver(eventBody('evt_recent', 4));
		expect(replay).toEqual({
			status: undefined,
			json: { received: true, ignored: 'repeated_event' },
			started: [],
		});
	});

	it.each<[string, string | number | boolean]>([
		['an empty expression', ''],
		['a boolean', true],
		['false', false],
		['text', 'five'],
		['a negative number', -1],
		['NaN', Number.NaN],
	])(
		'falls back to 5 minutes for an unreadable age (%s), never to "any age"',
		async (_name, value) => {
			const { deliver } = trigger({ maxEventAgeMinutes: value });
			expect((await deliver(eventBody('evt_old', 6))).json).toEqual({
				error: 'unauthorized',
				reason: 'stale_event',
			});
			expect((await deliver(eventBody('evt_recent', 4))).started).toEqual(['evt_recent']);
		},
	);

	it('takes 0 as "no age check", and a number given as text', async () => {
		expect(
			(await trigger({ maxEventAgeMinutes: 0 }).deliver(eventBody('evt_day_old', 24 * 60))).started,
		).toEqual(['evt_day_old']);
		const { deliver } = trigger({ maxEventAgeMinutes: '30' });
		expect((await deliver(eventBody('evt_20', 20))).started).toEqual(['evt_20']);
		expect((await deliver(eventBody('evt_40', 40))).json).toEqual({
			error: 'unauthorized',
			reason: 'stale_event',
		});
	});

	it('prefers a value an older node version saved in Options over the top-level parameter', async () => {
		const { deliver } = trigger({
			maxEventAgeMinutes: 60,
			ignoreRepeatedEvents: true,
			options: { maxEventAgeMinutes: 1, ignoreRepeatedEvents: false },
		});
		expect((await deliver(eventBody('evt_old', 2))).json).toEqual({
			error: 'unauthorized',
			reason: 'stale_event',
		});
		await deliver(eventBody('evt_1'));
		expect((await deliver(eventBody('evt_1'))).started).toEqual(['evt_1']);
	});

	it('passes a repeated event on when Ignore Repeated Events is off', async () => {
		const { deliver } = trigger({ ignoreRepeatedEvents: false });
		expect((await deliver(eventBody('evt_1'))).started).toEqual(['evt_1']);
		expect((await deliver(eventBody('evt_1'))).started).toEqual(['evt_1']);
	});

	it('ignores a repeated event however the id list was left', async () => {
		const { deliver } = trigger(
			{},
			{
				sealedSigningSecret: undefined,
				signingSecret: SECRET,
				seenEvents: 'not a map',
				recentEventIds: 'not a list',
			},
		);
		expect((await deliver(eventBody('evt_1'))).started).toEqual(['evt_1']);
		expect((await deliver(eventBody('evt_1'))).started).toEqual([]);
	});

	it('remembers ids for as long as their events are not stale, not for a count: 250 events, then the first again, is a repeat (issue 24: 201 started it again)', async () => {
		const { deliver, staticData } = trigger();
		for (let n = 1; n <= 250; n++) await deliver(eventBody(`evt_${n}`));
		expect((await deliver(eventBody('evt_1'))).started).toEqual([]);
		expect(Object.keys(staticData.seenEvents as IDataObject)).toHaveLength(250);
	});

	it('forgets an id once its event is stale (a replay is refused for its age then), and keeps its signed time', async () => {
		const { deliver, staticData } = trigger({ maxEventAgeMinutes: 5 });
		const body = eventBody('evt_aging', 4);
		expect((await deliver(body)).started).toEqual(['evt_aging']);
		expect((staticData.seenEvents as IDataObject).evt_aging).toBe(
			Date.parse(JSON.parse(body).created_at as string),
		);
		const now = Date.now();
		const later = jest.spyOn(Date, 'now').mockReturnValue(now + 3 * 60_000);
		try {
			expect((await deliver(body)).json).toEqual({ error: 'unauthorized', reason: 'stale_event' });
			expect((await deliver(eventBody('evt_next'))).started).toEqual(['evt_next']);
			expect(Object.keys(staticData.seenEvents as IDataObject)).toEqual(['evt_next']);
		} finally {
			later.mockRestore();
		}
	});

	it(`keeps at most ${MAX_REMEMBERED_EVENTS} ids, the last ones, when any age is accepted (no time window)`, async () => {
		const { deliver, staticData } = trigger({ maxEventAgeMinutes: 0 });
		for (let n = 1; n <= MAX_REMEMBERED_EVENTS + 1; n++)
			await deliver(eventBody(`evt_${n}`, 24 * 60));
		const kept = Object.keys(staticData.seenEvents as IDataObject);
		expect(kept).toHaveLength(MAX_REMEMBERED_EVENTS);
		expect([kept[0], kept.at(-1)]).toEqual(['evt_2', `evt_${MAX_REMEMBERED_EVENTS + 1}`]);
		expect((await deliver(eventBody(`evt_${MAX_REMEMBERED_EVENTS + 1}`, 24 * 60))).started).toEqual(
			[],
		);
		expect((await deliver(eventBody('evt_1', 24 * 60))).started).toEqual(['evt_1']);
	});

	it('takes over the id list of an earlier version: its ids stay repeats, and it is written in the new layout', async () => {
		const { deliver, staticData } = trigger(
			{},
			{
				sealedSigningSecret: undefined,
				signingSecret: SECRET,
				recentEventIds: ['evt_before_upgrade'],
			},
		);
		expect((await deliver(eventBody('evt_before_upgrade'))).started).toEqual([]);
		expect((await deliver(eventBody('evt_after_upgrade'))).started).toEqual(['evt_after_upgrade']);
		expect(staticData.recentEventIds).toBeUndefined();
		expect(Object.keys(staticData.seenEvents as IDataObject)).toEqual([
			'evt_before_upgrade',
			'evt_after_upgrade',
		]);
	});

	it('starts one execution for a copy of an event that arrives while the first still downloads its outputs (issue 24: the id was remembered only after the downloads)', async () => {
		const { deliver, holdDownloads, downloads } = trigger({ options: { downloadOutputs: true } });
		const release = holdDownloads();
		const body = typedBody('evt_slow', 'run.completed', {
			id: 'run_9',
			object: 'run',
			status: 'completed',
			output: { output_url: 'https://cdn.mediagen.example/o/a.png' },
		});
		const first = deliver(body);
		while (downloads.length === 0) await new Promise((r) => setImmediate(r));
		const copy = deliver(body);
		for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
		release();
		expect((await copy).json).toEqual({ received: true, ignored: 'repeated_event' });
		expect((await first).started).toEqual(['evt_slow']);
		expect(downloads).toHaveLength(1);
	});
});

/** An event of any type and subject, signed like eventBody (mutants that survived test/unit only). */
const typedBody = (id: string, type: string, subject: IDataObject) =>
	JSON.stringify({
		id,
		object: 'event',
		type,
		created_at: new Date().toISOString(),
		data: { object: subject },
	});

describe('what is answered and what n8n is told', () => {
	it('tells n8n it answered itself, for a refused delivery and for a started one', async () => {
		const { deliver, receive, results } = trigger();
		await receive({
			body: eventBody('evt_forged'),
			signature: sign(eventBody('evt_forged'), 'whsec_guessed'),
		});
		await deliver(eventBody('evt_1'));
		// without it n8n would answer a second time on a response already sent
		expect(results.map((r) => r.noWebhookResponse)).toEqual([true, true]);
	});

	it('answers 401 missing_signature, not a crash, when there is no body and no way to read one', async () => {
		const { receive } = trigger();
		const body = eventBody('evt_1');
		expect(await receive({ body, signature: sign(body), noBody: true })).toEqual({
			status: 401,
			json: { error: 'unauthorized', reason: 'missing_signature' },
			started: [],
		});
	});

	it('does not read the body again when n8n has read it already', async () => {
		const readAgain = jest.fn(async () => {});
		const { deliver } = trigger();
		expect((await deliver(eventBody('evt_1'), { readAgain })).started).toEqual(['evt_1']);
		expect(readAgain).not.toHaveBeenCalled();
	});

	it('passes the delivery id on, and no output fields when downloads are off', async () => {
		const { deliver, results } = trigger();
		await deliver(eventBody('evt_1'), { headers: { 'x-service-delivery': 'dlv_7' } });
		expect(results[0].workflowData?.[0][0].json).toEqual({
			type: 'run.completed',
			event_id: 'evt_1',
			created_at: expect.any(String),
			delivery_id: 'dlv_7',
			run: expect.objectContaining({ id: 'run_1' }),
		});
	});

	it('remembers exactly the started id on a fresh node, and nothing when Ignore Repeated Events is off', async () => {
		const fresh = trigger();
		await fresh.deliver(eventBody('evt_1'));
		expect(Object.keys(fresh.staticData.seenEvents as IDataObject)).toEqual(['evt_1']);
		const off = trigger({ ignoreRepeatedEvents: false });
		await off.deliver(eventBody('evt_1'));
		expect(off.staticData.seenEvents).toBeUndefined();
	});
});

describe('event and subject filters', () => {
	it('answers 200 and starts nothing for an event type the node does not listen to', async () => {
		const { deliver } = trigger({ events: ['run.failed'] });
		expect(await deliver(eventBody('evt_1'))).toEqual({
			status: undefined,
			json: { received: true, ignored: 'event_not_selected' },
			started: [],
		});
	});

	it('filters runs by capability and model (a comma list, blanks and empty entries ignored)', async () => {
		const run = {
			id: 'run_1',
			object: 'run',
			status: 'completed',
			capability: 'image_generation',
			model: 'mg-image-2',
		};
		const body = (id: string) => typedBody(id, 'run.completed', run);
		expect(
			(await trigger({ options: { capabilities: 'video_generation' } }).deliver(body('e1'))).json,
		).toEqual({ received: true, ignored: 'capability_filtered' });
		expect((await trigger({ options: { models: 'mg-image-1' } }).deliver(body('e2'))).json).toEqual(
			{ received: true, ignored: 'model_filtered' },
		);
		expect(
			(
				await trigger({
					options: {
						capabilities: ' video_generation , image_generation,',
						models: 'mg-image-1, mg-image-2',
					},
				}).deliver(body('e3'))
			).started,
		).toEqual(['e3']);
		// a list of nothing but commas and blanks filters nothing
		expect(
			(await trigger({ options: { capabilities: ' , ', models: ',' } }).deliver(body('e4')))
				.started,
		).toEqual(['e4']);
	});

	it('does not apply the run filters to batch events', async () => {
		const batch = { id: 'batch_1', object: 'batch', status: 'completed' };
		const { deliver } = trigger({
			events: ['batch.completed'],
			options: { capabilities: 'image_generation', models: 'mg-image-2' },
		});
		expect((await deliver(typedBody('evt_b', 'batch.completed', batch))).started).toEqual([
			'evt_b',
		]);
	});
});

describe('output downloads (Download Outputs on)', () => {
	const completed = (id: string, urls: string[]) =>
		typedBody(id, 'run.completed', {
			id: 'run_9',
			object: 'run',
			status: 'completed',
			capability: 'image_generation',
			output: { images: urls.map((url) => ({ url })) },
		});
	const urls = [
		'https://cdn.mediagen.example/o/first.png',
		'https://cdn.mediagen.example/o/second.png',
	];

	it('puts every output into binary fields data, data_1, … with the credential the node uses', async () => {
		const { deliver, results, credentialTypes, downloads } = trigger({
			authentication: 'mediaGenOAuth2Api',
			options: { downloadOutputs: true },
		});
		expect((await deliver(completed('evt_1', urls))).started).toEqual(['evt_1']);
		const item = results[0].workflowData![0][0];
		expect(item.json.output_urls).toEqual(urls);
		expect(Object.keys(item.binary ?? {})).toEqual(['data', 'data_1']);
		expect(item.binary!.data_1.fileName).toBe('second.png');
		expect(downloads).toEqual(urls);
		expect(new Set(credentialTypes)).toEqual(new Set(['mediaGenOAuth2Api']));
	});

	it('names files without a name after the run, and downloads nothing for a run without outputs', async () => {
		const { deliver, results } = trigger({
			options: { downloadOutputs: true, binaryPropertyName: 'image' },
		});
		await deliver(
			completed('evt_1', ['https://cdn.mediagen.example/o/', 'https://cdn.mediagen.example/o/']),
		);
		expect(
			Object.values(results[0].workflowData![0][0].binary ?? {}).map((b) => b.fileName),
		).toEqual(['run_9.png', 'run_9_1.png']);
		await deliver(completed('evt_2', []));
		expect(results[1].workflowData![0][0]).toEqual({
			json: expect.objectContaining({ output_urls: [] }),
		});
	});

	it('still starts the workflow when a download fails, with the URLs and the reason', async () => {
		const { deliver, results, failDownloads } = trigger({ options: { downloadOutputs: true } });
		failDownloads();
		expect((await deliver(completed('evt_1', urls))).started).toEqual(['evt_1']);
		const item = results[0].workflowData![0][0];
		expect(item.binary).toBeUndefined();
		expect(item.json.download_error).toEqual({
			code: 'download_failed',
			message: 'download_failed — Could not download an output file of run run_9 (no answer)',
		});
		expect(item.json.output_urls).toEqual(urls);
	});

	it('downloads nothing for a completed run without an id (the files would have no name)', async () => {
		const { deliver, downloads } = trigger({ options: { downloadOutputs: true } });
		await deliver(
			typedBody('evt_1', 'run.completed', {
				object: 'run',
				status: 'completed',
				output: { images: [{ url: urls[0] }] },
			}),
		);
		expect(downloads).toEqual([]);
	});

	it('downloads only for run.completed', async () => {
		const { deliver, downloads } = trigger({
			events: ['run.failed'],
			options: { downloadOutputs: true },
		});
		await deliver(
			typedBody('evt_1', 'run.failed', {
				id: 'run_9',
				object: 'run',
				status: 'failed',
				output: { images: [{ url: urls[0] }] },
			}),
		);
		expect(downloads).toEqual([]);
	});
});
