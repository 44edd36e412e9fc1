/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

import express from 'express';
import { LoadOptionsContext } from 'n8n-core';
import {
	Workflow,
	type INode,
	type INodeType,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { MediaGenLibrary } from '../../../nodes/MediaGenLibrary/MediaGenLibrary.node';
import { getReadyInfluencers, searchReadyInfluencers } from '../../../src/node/methods/influencers';
import { TestCredentialsHelper } from '../../helpers/n8n-harness';

const influencer = (n: number, status: string) => ({
	id: `inf_${n}`,
	object: 'influencer',
	handle: `h${n}`,
	display_name: `Person ${n}`,
	status,
});

describe('ready influencers for image mentions (loadOptions / listSearch)', () => {
	let server: Server;
	let baseUrl: string;
	const seen: string[] = [];

	beforeAll(async () => {
		// 130 influencers over two pages; every third one is ready
		const all = Array.from({ length: 130 }, (_, i) =>
			influencer(i, i % 3 === 0 ? 'ready' : i % 3 === 1 ? 'draft' : 'archived'),
		);
		const app = express();
		app.get('/v1/influencers', (req, res) => {
			seen.push(`${String(req.get('authorization'))} ${String(req.query.starting_after ?? '')}`);
			const start = req.query.starting_after
				? all.findIndex((i) => i.id === req.query.starting_after) + 1
				: 0;
			const limit = Number(req.query.limit ?? 20);
			res.json({
				object: 'list',
				data: all.slice(start, start + limit),
				has_more: start + limit < all.length,
			});
		});
		server = await new Promise((resolve) => {
			const s = app.listen(0, '127.0.0.1', () => resolve(s));
		});
		baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
	});
	afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

	function context(): LoadOptionsContext {
		const credentials = new TestCredentialsHelper();
		credentials.set('mediaGenApi', { baseUrl, apiKey: 'mg_test_key' });
		const node: INode = {
			id: 'n1',
			name: 'MediaGen Library',
			type: 'CUSTOM.mediaGenLibrary',
			typeVersion: 1,
			position: [0, 0],
			parameters: { authentication: 'mediaGenApi', resource: 'influencer' },
			credentials: { mediaGenApi: { id: 'c1', name: 'test' } },
		};
		const nodeType = new MediaGenLibrary() as INodeType;
		const workflow = new Workflow({
			id: 'wf',
			nodes: [node],
			connections: {},
			active: false,
			nodeTypes: {
				getByName: () => nodeType,
				getByNameAndVersion: () => nodeType,
				getKnownTypes: () => ({}),
			},
		});
		return new LoadOptionsContext(
			workflow,
			node,
			{ credentialsHelper: credentials } as unknown as IWorkflowExecuteAdditionalData,
			'parameters',
		);
	}

	it('offers only ready influencers, from every page, labelled with name and handle', async () => {
		seen.length = 0;
		const options = await getReadyInfluencers.call(context());
		expect(options).toHaveLength(44);
		expect(options[0]).toEqual({
			name: 'Person 0 (@h0)',
			value: 'inf_0',
			description: 'Handle: h0',
		});
		expect(options.map((o) => o.value)).toContain('inf_129');
		expect(options.map((o) => o.value)).not.toContain('inf_1');
		expect(seen).toEqual(['Bearer mg_test_key ', 'Bearer mg_test_key inf_99']);
	});

	it('searches ready influencers by handle or name', async () => {
		const { results } = await searchReadyInfluencers.call(context(), '@h12');
		expect(results.map((r) => r.value)).toEqual([
			'inf_12',
			'inf_120',
			'inf_123',
			'inf_126',
			'inf_129',
		]);
		expect((await searchReadyInfluencers.call(context(), 'h13')).results).toEqual([]);
	});
});
