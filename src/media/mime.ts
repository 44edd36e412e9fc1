/** File extensions for the media types the service produces, and back. */
const EXTENSIONS: Record<string, string> = {
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/webp': 'webp',
	'image/gif': 'gif',
	'video/mp4': 'mp4',
	'video/webm': 'webm',
	'video/quicktime': 'mov',
	'audio/mpeg': 'mp3',
	'audio/wav': 'wav',
	'audio/x-wav': 'wav',
	'audio/ogg': 'ogg',
	'model/gltf-binary': 'glb',
	'model/vnd.usdz+zip': 'usdz',
	'model/stl': 'stl',
	'model/obj': 'obj',
	'application/octet-stream': 'bin',
	'application/json': 'json',
	'text/plain': 'txt',
};

const BY_EXTENSION: Record<string, string> = {
	...Object.fromEntries(Object.entries(EXTENSIONS).map(([mime, ext]) => [ext, mime])),
	jpeg: 'image/jpeg',
	wav: 'audio/wav',
	fbx: 'application/octet-stream',
	blend: 'application/x-blender',
	bin: 'application/octet-stream',
};

export function baseMimeType(contentType: string | undefined): string {
	return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

export function extensionFor(mimeType: string): string | undefined {
	return EXTENSIONS[baseMimeType(mimeType)];
}

export function mimeTypeForExtension(extension: string): string | undefined {
	return BY_EXTENSION[extension.toLowerCase()];
}

/** The last path segment of a URL, without query, if it looks like a file name. */
export function fileNameFromUrl(url: string): string | undefined {
	try {
		const name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
		return /\.[a-z0-9]{2,5}$/i.test(name) ? name : undefined;
	} catch {
		return undefined;
	}
}
