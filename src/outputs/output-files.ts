import type { IDataObject } from 'n8n-workflow';

import type { OutputFile } from '../media/download';

/**
 * The files a completed run's output names, per decisions.md: `images[].url` for images, `model_urls` for 3D
 * (format -> URL), otherwise `output_url`. Page links (`play_url`, `live_url`) are not files.
 */
export function outputFiles(output: IDataObject | null | undefined): OutputFile[] {
	output ??= {};
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
	if (files.length === 0 && typeof output.output_url === 'string')
		files.push({ url: output.output_url });
	return files;
}
