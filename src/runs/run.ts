import type { IDataObject } from 'n8n-workflow';

import type { OutputFile } from '../media/download';

/** A run as the service returns it (fields of the API document). */
export interface Run extends IDataObject {
	id: string;
	object: string;
	status: 'queued' | 'processing' | 'completed' | 'failed';
	capability?: string;
	model?: string | null;
	output?: IDataObject | null;
	error?: { code?: string; message?: string } | null;
	usage?: IDataObject | null;
	created_at?: string;
	updated_at?: string;
	completed_at?: string | null;
}

export function isRun(value: unknown): value is Run {
	return typeof value === 'object' && value !== null && typeof (value as Run).id === 'string' && typeof (value as Run).status === 'string';
}

const KNOWN_STATUSES = new Set(['queued', 'processing', 'completed', 'failed']);

/** The run statuses the API document names; anything else is not waited for. */
export function isKnownStatus(run: Run): boolean {
	return KNOWN_STATUSES.has(run.status);
}

export function isTerminal(run: Run): boolean {
	return run.status === 'completed' || run.status === 'failed';
}


/**
 * The files of a completed run, per decisions.md: `images[].url` for images, `model_urls` for 3D
 * (format -> URL), otherwise `output_url`. Page links (`play_url`, `live_url`) are not files.
 */
export function outputFiles(run: Run): OutputFile[] {
	const output = run.output ?? {};
	const files: OutputFile[] = [];
	const images = output.images;
	if (Array.isArray(images)) {
		for (const image of images) {
			const url = (image as IDataObject)?.url;
			if (typeof url === 'string') files.push({ url });
		}
	}
	const modelUrls = output.model_urls;
	if (modelUrls && typeof modelUrls === 'object' && !Array.isArray(modelUrls)) {
		for (const [format, url] of Object.entries(modelUrls as IDataObject)) {
			if (typeof url === 'string') files.push({ url, format });
		}
	}
	if (files.length === 0 && typeof output.output_url === 'string') files.push({ url: output.output_url });
	return files;
}
