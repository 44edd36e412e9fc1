import { createHash } from 'node:crypto';

import { makePng } from './png';

/** A file a completed run produced. */
export interface ProducedFile {
	name: string;
	contentType: string;
	bytes: Buffer;
	/** where the file's URL goes in `output`: images[], model_urls[format], or output_url */
	slot: 'image' | 'main' | { format: string };
}

function seedOf(text: string, index: number): number {
	return createHash('sha256').update(`${text}#${index}`).digest().readUInt32BE(0);
}

export type OutputMaker = (runId: string, params: Record<string, unknown>) => { files: ProducedFile[]; extra?: Record<string, unknown> };

/** Image-like outputs: `count` PNGs (one for edits and upscales). */
export const imageOutputs: OutputMaker = (runId, params) => {
	const count = Math.max(1, Math.min(6, Number(params.count ?? 1) || 1));
	const seedText = String(params.prompt ?? params.image_url ?? runId);
	const files = Array.from({ length: count }, (_, i) => ({
		name: `${runId}_${i}.png`,
		contentType: 'image/png',
		bytes: makePng(64, 64, seedOf(seedText, i)),
		slot: 'image' as const,
	}));
	return { files };
};
