/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyOptions, INodeType } from 'n8n-workflow';

import { MediaGenAudio } from '../../nodes/MediaGenAudio/MediaGenAudio.node';
import { MediaGenImage } from '../../nodes/MediaGenImage/MediaGenImage.node';
import { MediaGenLipSync } from '../../nodes/MediaGenLipSync/MediaGenLipSync.node';
import { MediaGenModel3D } from '../../nodes/MediaGenModel3D/MediaGenModel3D.node';
import { MediaGenProduct } from '../../nodes/MediaGenProduct/MediaGenProduct.node';
import { MediaGenVideo } from '../../nodes/MediaGenVideo/MediaGenVideo.node';
import { endpointFor, type Endpoint } from '../../src/catalog';
import { estimateOperation, offersEstimate } from '../../src/catalog';
import { sandboxHandlers } from '../../sandbox/handlers';
import { defaultSandboxOptions } from '../../sandbox/options';
import { SandboxServices } from '../../sandbox/services';
import { SandboxState } from '../../sandbox/state';
import { expectedIdempotency } from '../fixtures/idempotency-rules';

/** Rows of the API document's Generation table (and the discovery rows these nodes serve). */
interface Row {
	method: string;
	path: string;
	scope: string;
	idem: string;
}

function tableRows(): Row[] {
	const text = readFileSync(join(__dirname, '..', 'fixtures', 'generation-table.md'), 'utf8');
	const rows: Row[] = [];
	for (const line of text.split('\n')) {
		const cells = line.split('|').map((c) => c.trim());
		if (cells.length < 5 || !/^(GET|POST|PATCH|DELETE) \//.test(cells[1])) continue;
		let method = '';
		for (const part of cells[1].replace(/\s*\([^)]*\)/g, '').split(';')) {
			const match = /^(?:(GET|POST|PATCH|DELETE) )?(\/\S+)/.exec(part.trim())!;
			method = match[1] ?? method;
			rows.push({ method, path: match[2], scope: cells[2], idem: cells[3] });
		}
	}
	return rows;
}

/** Generation routes that belong to another node's issue (ad analysis: the marketing workflows). */
const OWNED_ELSEWHERE = new Set(['POST /ads/analyze']);

const nodes: Record<string, INodeType> = {
	MediaGenImage: new MediaGenImage(),
	MediaGenVideo: new MediaGenVideo(),
	MediaGenAudio: new MediaGenAudio(),
	MediaGenLipSync: new MediaGenLipSync(),
	MediaGenModel3D: new MediaGenModel3D(),
	MediaGenProduct: new MediaGenProduct(),
};

function operationValues(node: INodeType, resource: string): string[] {
	const properties = node.description.properties as INodeProperties[];
	const operation = properties.find(
		(p) =>
			p.name === 'operation' &&
			(p.displayOptions?.show?.resource as string[] | undefined)?.includes(resource),
	);
	return ((operation?.options ?? []) as INodePropertyOptions[]).map((o) => String(o.value));
}

describe("every generation endpoint of the API document's tables", () => {
	const rows = tableRows();
	const handlers = sandboxHandlers(
		new SandboxServices(new SandboxState({ ...defaultSandboxOptions })),
	);
	const ours = rows.filter((r) => !OWNED_ELSEWHERE.has(`${r.method} ${r.path}`));

	it('reads the whole table (24 routes of the Generation table, 5 discovery routes)', () => {
		expect(rows).toHaveLength(29);
		expect(ours.map((r) => `${r.method} ${r.path}`)).toContain('POST /audio/transcriptions');
	});

	it.each(ours.map((r) => [`${r.method} ${r.path}`, r] as const))(
		'%s has its catalog entry, sandbox handler and node operation',
		(key, row) => {
			const entry = endpointFor(row.method, row.path) as Endpoint;
			expect(entry).toBeDefined();
			expect(entry.scope).toBe(row.scope === 'unspecified' ? 'videos:write' : row.scope);
			expect(entry.idempotency).toBe(expectedIdempotency(row.method, row.path, row.idem));
			expect(typeof handlers[key]).toBe('function');
			const node = nodes[entry.node];
			expect(node).toBeDefined();
			const values = operationValues(node, entry.resource);
			expect(values).toContain(entry.operation);
			if (offersEstimate(entry)) {
				expect(values).toContain(estimateOperation(entry).operation);
				const options = (node.description.properties as INodeProperties[]).find(
					(p) =>
						p.name === 'options' &&
						(p.displayOptions?.show?.operation as string[] | undefined)?.includes(entry.operation),
				);
				expect((options?.options ?? []).map((o) => o.name)).toEqual(
					expect.arrayContaining(['maxCredits', 'quoteToken']),
				);
			}
		},
	);

	it('gives every model-aware generating submit an Estimate Cost and Max Credits', () => {
		const withEstimate = ours.map((r) => endpointFor(r.method, r.path)!).filter(offersEstimate);
		expect(withEstimate.map((e) => `${e.method} ${e.path}`).sort()).toEqual(
			[
				'POST /audio/music',
				'POST /audio/sfx',
				'POST /audio/speech',
				'POST /audio/transcriptions',
				'POST /audio/voice-conversions',
				'POST /images/background-remove',
				'POST /images/generations',
				'POST /images/upscale',
				'POST /lipsync/generations',
				'POST /models/3d/generations',
				'POST /scenes/blockouts',
				'POST /videos/compose',
				'POST /videos/generations',
				'POST /videos/upscale',
			].sort(),
		);
	});
});
