import { createHash } from 'node:crypto';

import { makeModelFile, makeMp3, makeWav, MODEL_CONTENT_TYPES, mp4Clip } from './media-files';
import type { Capability } from './models';
import { loopedClip } from './mp4-loop';
import type { SandboxOptions } from './options';
import { makeCaptionedPng, makePng } from './png';

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

/** What output makers may follow: the sandbox's options that shape files. */
export type OutputOptions = Pick<SandboxOptions, 'captionPictures'>;

export type OutputMaker = (
	runId: string,
	params: Record<string, unknown>,
	options?: OutputOptions,
) => { files: ProducedFile[]; extra?: Record<string, unknown> };

/** The short side of generated images: small files, but the asked shape. */
const IMAGE_SHORT_SIDE = 64;
/** The short side of pictures that show their prompt: room for twelve lines of 23 characters at twice the font size. */
export const CAPTIONED_SHORT_SIDE = 320;

/**
 * Width and height of an image of `aspectRatio` ("16:9"): exactly that ratio, short side near
 * `shortSide` (64 px). `auto`, `adaptive` and no ratio give a square (the model decides).
 */
export function imageSize(
	aspectRatio: unknown,
	shortSide = IMAGE_SHORT_SIDE,
): { width: number; height: number } {
	const match = /^(\d+):(\d+)$/.exec(String(aspectRatio ?? ''));
	return match
		? smallSizeLike(Number(match[1]), Number(match[2]), shortSide)
		: { width: shortSide, height: shortSide };
}

/**
 * A small picture shaped like `width` × `height`: the exact ratio when its lowest terms fit a short
 * side near `shortSide` (16:9, 3:2), else that short side and the long side rounded (1001 × 667).
 */
export function smallSizeLike(
	width: number,
	height: number,
	shortSide = IMAGE_SHORT_SIDE,
): { width: number; height: number } {
	const divisor = greatestCommonDivisor(width, height);
	const [a, b] = [width / divisor, height / divisor];
	if (Math.min(a, b) > shortSide) {
		const long = Math.round((shortSide * Math.max(a, b)) / Math.min(a, b));
		return a >= b ? { width: long, height: shortSide } : { width: shortSide, height: long };
	}
	const scale = Math.max(1, Math.round(shortSide / Math.min(a, b)));
	return { width: a * scale, height: b * scale };
}

function greatestCommonDivisor(a: number, b: number): number {
	return b === 0 ? a || 1 : greatestCommonDivisor(b, a % b);
}

/** An input picture the sandbox holds: its size, and the caption it shows when the sandbox made it. */
export interface SourcePicture {
	width: number;
	height: number;
	caption?: string;
}

/** Edits of an input picture: the words their captions start with. */
export type PictureEdit = 'Background removed' | 'Upscaled';

/**
 * Image-like outputs: `count` PNGs (one for edits and upscales) of the asked aspect ratio, or, with
 * none asked, shaped like the input picture (`source`, when the sandbox can read it). With
 * `captionPictures` on they are larger and show what made them: the prompt, or for an `edit` the
 * edit and the input picture's own caption (a cut-out is transparent around it).
 */
export function shapedImageOutputs(source?: SourcePicture, edit?: PictureEdit): OutputMaker {
	return (runId, params, options) => {
		const count = Math.max(1, Math.min(6, Number(params.count ?? 1) || 1));
		const seedText = String(params.prompt ?? params.image_url ?? runId);
		const asked = /^\d+:\d+$/.test(String(params.aspect_ratio ?? ''));
		const shortSide = options?.captionPictures ? CAPTIONED_SHORT_SIDE : IMAGE_SHORT_SIDE;
		const { width, height } =
			!asked && source
				? smallSizeLike(source.width, source.height, shortSide)
				: imageSize(params.aspect_ratio, shortSide);
		const caption = edit
			? `${edit}: ${source?.caption ?? String(params.image_url ?? 'the input picture')}`
			: typeof params.prompt === 'string'
				? params.prompt
				: '';
		const picture = (i: number) =>
			options?.captionPictures && caption
				? makeCaptionedPng(width, height, seedOf(seedText, i), caption, {
						cutOut: edit === 'Background removed',
					})
				: makePng(width, height, seedOf(seedText, i));
		const files = Array.from({ length: count }, (_, i) => ({
			name: `${runId}_${i}.png`,
			contentType: 'image/png',
			bytes: picture(i),
			slot: 'image' as const,
		}));
		return { files, extra: { width, height } };
	};
}

/** Image outputs of the asked aspect ratio (the input picture's shape is not known). */
export const imageOutputs: OutputMaker = shapedImageOutputs();

const words = [
	'the',
	'studio',
	'light',
	'falls',
	'across',
	'a',
	'quiet',
	'street',
	'while',
	'music',
	'plays',
	'softly',
];

/** The asked length (duration, else duration_seconds), or `fallback` when none was asked (the model decides). */
export function askedSeconds(params: Record<string, unknown>, fallback: number): number {
	const seconds = Number(params.duration ?? params.duration_seconds);
	return Number.isFinite(seconds) && seconds > 0 ? seconds : fallback;
}

/** An MP4 that plays `seconds` (the clip looped); with sound only when generate_audio was true. */
export function videoFile(seconds: number, withAudio: boolean): Buffer {
	return loopedClip(mp4Clip(), seconds, withAudio);
}

/** One MP4 of the asked duration; drafts also carry `draft_cache_url` (the same preview file). */
export const videoOutputs: OutputMaker = (runId, params) => {
	const draft = params.draft === true;
	const name = `${runId}${draft ? '_draft' : ''}.mp4`;
	const seconds = askedSeconds(params, 5);
	return {
		files: [
			{
				name,
				contentType: 'video/mp4',
				bytes: videoFile(seconds, params.generate_audio === true),
				slot: draft ? 'draft' : 'main',
			},
		],
		extra: {
			duration_seconds: seconds,
			...(draft
				? { draft: true, draft_expires_at: new Date(Date.now() + 7 * 86400_000).toISOString() }
				: {}),
		},
	};
};

/** Spoken length of a text at about 15 characters a second (at least one second). */
export function spokenSeconds(params: Record<string, unknown>): number {
	const lines = Array.isArray(params.dialogue)
		? (params.dialogue as Array<{ text?: unknown }>).map((l) => String(l?.text ?? ''))
		: [String(params.text ?? '')];
	const speed = typeof params.speed === 'number' && params.speed > 0 ? params.speed : 1;
	return Math.max(1, Math.round((lines.join(' ').length / 15 / speed) * 10) / 10);
}

/** Speech: an MP3 as long as the text takes to say. */
export const speechOutputs: OutputMaker = (runId, params) => {
	const seconds = spokenSeconds(params);
	return {
		files: [
			{ name: `${runId}.mp3`, contentType: 'audio/mpeg', bytes: makeMp3(seconds), slot: 'main' },
		],
		extra: {
			duration_seconds: seconds,
			...(params.with_timestamps === true
				? {
						alignment: {
							characters: [...String(params.text ?? '').slice(0, 40)],
							character_start_times_seconds: [],
						},
					}
				: {}),
		},
	};
};

/** Music: an MP3 of the asked duration_seconds (30 s when the model decides). */
export const musicOutputs: OutputMaker = (runId, params) => {
	const seconds = askedSeconds(params, 30);
	return {
		files: [
			{ name: `${runId}.mp3`, contentType: 'audio/mpeg', bytes: makeMp3(seconds), slot: 'main' },
		],
		extra: { duration_seconds: seconds },
	};
};

/** Low-rate mono tone: 4 kB a second keeps a 30 s sound effect near 120 kB. */
const WAV_SAMPLE_RATE = 2000;

/** Sound effects: a WAV tone of the asked duration_seconds (5 s when the model decides). */
export const soundOutputs: OutputMaker = (runId, params) => {
	const seconds = askedSeconds(params, 5);
	return {
		files: [
			{
				name: `${runId}.wav`,
				contentType: 'audio/wav',
				bytes: makeWav(seconds, seedOf(String(params.prompt ?? runId), 0), WAV_SAMPLE_RATE),
				slot: 'main',
			},
		],
		extra: { duration_seconds: seconds },
	};
};

/** Voice conversions: a WAV as long as the recording it converts (when the sandbox holds it), else 1 s. */
export function convertedVoiceOutputs(seconds: number): OutputMaker {
	return (runId) => ({
		files: [
			{
				name: `${runId}.wav`,
				contentType: 'audio/wav',
				bytes: makeWav(seconds, seedOf(runId, 0), WAV_SAMPLE_RATE),
				slot: 'main',
			},
		],
		extra: { duration_seconds: seconds },
	});
}

/** Transcripts: `text` and timed `segments` in the output, and the text as a .txt file. */
export const transcriptOutputs: OutputMaker = (runId, params) => {
	const seed = seedOf(String(params.audio_url ?? params.video_url ?? runId), 0);
	const segments = Array.from({ length: 3 }, (_, i) => {
		const text = Array.from({ length: 5 }, (_, j) => words[(seed + i * 5 + j) % words.length]).join(
			' ',
		);
		return {
			id: i,
			start: i * 2,
			end: i * 2 + 1.8,
			speaker: `speaker_${i % 2}`,
			text: text[0].toUpperCase() + text.slice(1) + '.',
		};
	});
	const text = segments.map((s) => s.text).join(' ');
	return {
		files: [
			{
				name: `${runId}.txt`,
				contentType: 'text/plain',
				bytes: Buffer.from(`${text}\n`, 'utf8'),
				slot: 'main',
			},
		],
		extra: { text, segments, language_code: String(params.language_code || 'en') },
	};
};

/** 3D: one file per requested format (`model_urls[format]`), GLB when none is asked for. */
export const modelOutputs: OutputMaker = (runId, params) => {
	const formats =
		Array.isArray(params.output_formats) && params.output_formats.length
			? params.output_formats.map(String)
			: ['glb'];
	const seed = seedOf(runId, 0);
	return {
		files: formats.map((format) => ({
			name: `${runId}.${format}`,
			contentType: MODEL_CONTENT_TYPES[format] ?? 'application/octet-stream',
			bytes: makeModelFile(format, seed),
			slot: { format },
		})),
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
			answer: params.prompt
				? `Regarding "${String(params.prompt)}": the clip shows a test pattern.`
				: null,
		},
	},
});

/** Video voices: the new voice (no file). */
export const voiceOutputs: OutputMaker = (runId, params) => ({
	files: [],
	extra: {
		voice: {
			id: `vvoice_${runId.slice(4)}`,
			object: 'voice',
			name: String(params.name ?? 'voice'),
			samples: Array.isArray(params.audio_urls) ? params.audio_urls.length : 0,
		},
	},
});

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * What a product page at `url` would name its product, as an extraction service reads it from the
 * page: the address's last path segment in words ("/products/ceramic-mug" → "Ceramic Mug"), the
 * brand from the site's name ("shop.example.com" → "Example").
 */
export function productFromUrl(url: string): { name: string; brand: string; host: string } {
	let parsed: URL | undefined;
	try {
		parsed = new URL(url);
	} catch {
		parsed = undefined;
	}
	const host = parsed?.hostname ?? 'shop.example';
	const labels = host.split('.').filter((l) => l && l !== 'www');
	const brand = capitalised(labels.length >= 2 ? labels[labels.length - 2] : (labels[0] ?? 'Shop'));
	const slug = decodeURIComponent(parsed?.pathname.split('/').filter(Boolean).pop() ?? '').replace(
		/\.[a-z0-9]{2,5}$/i,
		'',
	);
	const words = slug.split(/[-_+\s]+/).filter((w) => /[a-z]/i.test(w));
	const name = words.length
		? words.map(capitalised).join(' ')
		: `${brand} product${slug ? ` ${slug}` : ''}`;
	return { name, brand, host };
}

/** Product extraction: the product data, and its photos as PNGs (images[]). */
export const productOutputs: OutputMaker = (runId, params, options) => {
	const url = String(params.url ?? '');
	const { name, brand } = productFromUrl(url);
	const count = Math.max(1, Math.min(10, Number(params.max_images ?? 4) || 4));
	const photos = Math.min(count, 2);
	const size = options?.captionPictures ? CAPTIONED_SHORT_SIDE : 48;
	const photo = (i: number) =>
		options?.captionPictures
			? makeCaptionedPng(size, size, seedOf(url, i), `${name}, photo ${i + 1} of ${photos}`)
			: makePng(size, size, seedOf(url, i));
	return {
		files: Array.from({ length: photos }, (_, i) => ({
			name: `${runId}_${i}.png`,
			contentType: 'image/png',
			bytes: photo(i),
			slot: 'image' as const,
		})),
		extra: {
			product: {
				url,
				title: name,
				brand,
				price: { amount: 49.9, currency: 'EUR' },
				description: `${name} by ${brand}, well made and ready to ship.`,
				attributes: { color: 'blue' },
			},
		},
	};
};

/** What a completed run of a route produces, by operation name or model capability (undefined: images). */
export function mediaOutputsFor(
	operation: string,
	capability?: Capability,
): OutputMaker | undefined {
	switch (operation) {
		case 'POST /videos/analyses':
			return analysisOutputs;
		case 'POST /videos/voices':
			return voiceOutputs;
		case 'POST /products/extract':
			return productOutputs;
		case 'POST /videos/generations/{id}/final':
		case 'POST /videos/timelines/{timelineId}/renders':
			return videoOutputs;
	}
	switch (capability) {
		case 'video_generation':
		case 'video_upscaling':
		case 'lipsync_generation':
			return videoOutputs;
		case 'speech_generation':
			return speechOutputs;
		case 'music_generation':
			return musicOutputs;
		case 'sound_effect_generation':
			return soundOutputs;
		case 'transcription':
			return transcriptOutputs;
		case 'model_3d_generation':
			return modelOutputs;
		default:
			return undefined;
	}
}
