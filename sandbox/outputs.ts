import { createHash } from 'node:crypto';

import type { Endpoint } from '../src/catalog';
import { makeModelFile, makeMp3, makeWav, MODEL_CONTENT_TYPES, mp4Clip } from './media-files';
import { makePng } from './png';

/** A file a completed run produced. */
export interface ProducedFile {
	name: string;
	contentType: string;
	bytes: Buffer;
	/** where the file's URL goes in `output`: images[], model_urls[format], draft_cache_url, or output_url */
	slot: 'image' | 'main' | 'draft' | { format: string };
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

const words = ['the', 'studio', 'light', 'falls', 'across', 'a', 'quiet', 'street', 'while', 'music', 'plays', 'softly'];

function durationOf(params: Record<string, unknown>, fallback: number): number {
	const seconds = Number(params.duration ?? params.duration_seconds);
	return Number.isFinite(seconds) && seconds > 0 ? seconds : fallback;
}

/** One MP4 (the committed fixture); drafts also carry `draft_cache_url` (the same preview file). */
export const videoOutputs: OutputMaker = (runId, params) => {
	const draft = params.draft === true;
	const name = `${runId}${draft ? '_draft' : ''}.mp4`;
	return {
		files: [{ name, contentType: 'video/mp4', bytes: mp4Clip(), slot: draft ? 'draft' : 'main' }],
		extra: { duration_seconds: durationOf(params, 5), ...(draft ? { draft: true, draft_expires_at: new Date(Date.now() + 7 * 86400_000).toISOString() } : {}) },
	};
};

/** Speech and music: MP3 as long as asked (capped at 3 s of silence frames to stay small). */
export const mp3Outputs: OutputMaker = (runId, params) => ({
	files: [{ name: `${runId}.mp3`, contentType: 'audio/mpeg', bytes: makeMp3(Math.min(3, durationOf(params, 2))), slot: 'main' }],
	extra: params.with_timestamps === true ? { alignment: { characters: [...String(params.text ?? '').slice(0, 40)], character_start_times_seconds: [] } } : {},
});

/** Sound effects and voice conversions: a WAV tone (capped at 1 s). */
export const wavOutputs: OutputMaker = (runId, params) => ({
	files: [{ name: `${runId}.wav`, contentType: 'audio/wav', bytes: makeWav(Math.min(1, durationOf(params, 1)), seedOf(String(params.prompt ?? runId), 0)), slot: 'main' }],
});

/** Transcripts: `text` and timed `segments` in the output, and the text as a .txt file. */
export const transcriptOutputs: OutputMaker = (runId, params) => {
	const seed = seedOf(String(params.audio_url ?? params.video_url ?? runId), 0);
	const segments = Array.from({ length: 3 }, (_, i) => {
		const text = Array.from({ length: 5 }, (_, j) => words[(seed + i * 5 + j) % words.length]).join(' ');
		return { id: i, start: i * 2, end: i * 2 + 1.8, speaker: `speaker_${i % 2}`, text: text[0].toUpperCase() + text.slice(1) + '.' };
	});
	const text = segments.map((s) => s.text).join(' ');
	return {
		files: [{ name: `${runId}.txt`, contentType: 'text/plain', bytes: Buffer.from(`${text}\n`, 'utf8'), slot: 'main' }],
		extra: { text, segments, language_code: String(params.language_code || 'en') },
	};
};

/** 3D: one file per requested format (`model_urls[format]`), GLB when none is asked for. */
export const modelOutputs: OutputMaker = (runId, params) => {
	const formats = Array.isArray(params.output_formats) && params.output_formats.length ? params.output_formats.map(String) : ['glb'];
	const seed = seedOf(runId, 0);
	return {
		files: formats.map((format) => ({ name: `${runId}.${format}`, contentType: MODEL_CONTENT_TYPES[format] ?? 'application/octet-stream', bytes: makeModelFile(format, seed), slot: { format } })),
		extra: { formats, polycount: Number(params.target_polycount ?? 30000) },
	};
};

/** Video analysis: JSON only (no file). */
export const analysisOutputs: OutputMaker = (_runId, params) => ({
	files: [],
	extra: {
		analysis: {
			summary: 'A short clip of a colour test pattern with a steady tone.',
			duration_seconds: 1,
			scenes: [{ start: 0, end: 1, description: 'Colour bars with a moving gradient' }],
			answer: params.prompt ? `Regarding "${String(params.prompt)}": the clip shows a test pattern.` : null,
		},
	},
});

/** Video voices: the new voice (no file). */
export const voiceOutputs: OutputMaker = (runId, params) => ({
	files: [],
	extra: { voice: { id: `vvoice_${runId.slice(4)}`, object: 'voice', name: String(params.name ?? 'voice'), samples: Array.isArray(params.audio_urls) ? params.audio_urls.length : 0 } },
});

/** Product extraction: the product data, and its photos as PNGs (images[]). */
export const productOutputs: OutputMaker = (runId, params) => {
	const url = String(params.url ?? '');
	const host = (() => {
		try {
			return new URL(url).hostname;
		} catch {
			return 'shop.example';
		}
	})();
	const count = Math.max(1, Math.min(10, Number(params.max_images ?? 4) || 4));
	const photos = Math.min(count, 2);
	return {
		files: Array.from({ length: photos }, (_, i) => ({ name: `${runId}_${i}.png`, contentType: 'image/png', bytes: makePng(48, 48, seedOf(url, i)), slot: 'image' as const })),
		extra: {
			product: {
				url,
				title: `Sample product from ${host}`,
				brand: host.split('.')[0],
				price: { amount: 49.9, currency: 'EUR' },
				description: 'A well-made sample product, extracted by the sandbox.',
				attributes: { color: 'blue', material: 'cotton' },
			},
		},
	};
};

/** What a completed run of a video, audio, lip-sync, 3D or product endpoint produces (undefined: images). */
export function mediaOutputsFor(endpoint: Pick<Endpoint, 'path' | 'capability'>): OutputMaker | undefined {
	switch (endpoint.path) {
		case '/videos/analyses':
			return analysisOutputs;
		case '/videos/voices':
			return voiceOutputs;
		case '/products/extract':
			return productOutputs;
		case '/videos/generations/{id}/final':
		case '/videos/timelines/{timelineId}/renders':
			return videoOutputs;
		case '/audio/voice-conversions':
			return wavOutputs;
	}
	switch (endpoint.capability) {
		case 'video_generation':
		case 'video_upscaling':
		case 'lipsync_generation':
			return videoOutputs;
		case 'speech_generation':
		case 'music_generation':
			return mp3Outputs;
		case 'sound_effect_generation':
			return wavOutputs;
		case 'transcription':
			return transcriptOutputs;
		case 'model_3d_generation':
			return modelOutputs;
		default:
			return undefined;
	}
}
