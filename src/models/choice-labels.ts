/**
 * Readable names for the values a model's limits list. The option's value stays the API value;
 * only what the user reads changes ("3:2" → "3:2 (landscape)").
 */

const RATIO_USES: Record<string, string> = {
	'1:1': 'square',
	'16:9': 'landscape, widescreen',
	'9:16': 'portrait, stories and reels',
	'4:5': 'portrait, feed posts',
	'21:9': 'landscape, cinematic',
};

function aspectRatioLabel(value: string): string {
	if (value === 'auto') return 'Auto (the model chooses)';
	if (value === 'adaptive') return 'Adaptive (follows the input image)';
	const match = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(value);
	if (!match) return value;
	const [width, height] = [Number(match[1]), Number(match[2])];
	const use =
		RATIO_USES[value] ?? (width > height ? 'landscape' : width < height ? 'portrait' : 'square');
	return `${value} (${use})`;
}

const RESOLUTIONS: Record<string, string> = {
	'480p': '480p (SD)',
	'720p': '720p (HD)',
	'1080p': '1080p (Full HD)',
	'4k': '4k (Ultra HD)',
	'1K': '1K (about 1024 px)',
	'2K': '2K (about 2048 px)',
	'4K': '4K (about 4096 px)',
};

const FORMATS: Record<string, string> = {
	glb: 'GLB (web, AR)',
	fbx: 'FBX (game engines, Autodesk)',
	obj: 'OBJ',
	usdz: 'USDZ (Apple AR)',
	blend: 'BLEND (Blender)',
	stl: 'STL (3D printing)',
};

function titleCase(value: string): string {
	return value
		.replace(/[_-]+/g, ' ')
		.replace(/(^|\s)([a-z])/g, (_, space: string, c: string) => space + c.toUpperCase());
}

/** The label of one value of a model limit (`key` is the limits key it came from). */
export function choiceLabel(key: string, value: string | number): string {
	const text = String(value);
	switch (key) {
		case 'aspect_ratios':
			return aspectRatioLabel(text);
		case 'duration_seconds':
			return `${text} second${text === '1' ? '' : 's'}`;
		case 'resolutions':
		case 'resolution':
			return RESOLUTIONS[text] ?? text;
		case 'scale_factors':
			return `${text}× larger`;
		case 'output_formats':
			return FORMATS[text.toLowerCase()] ?? text.toUpperCase();
		default:
			return typeof value === 'number' ? text : titleCase(text);
	}
}
