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

/** The media type the first bytes of a file show, where they show one. */
export function sniffMimeType(head: Uint8Array): string | undefined {
	const at = (offset: number, ascii: string) =>
		ascii.split('').every((c, i) => head[offset + i] === c.charCodeAt(0));
	if (head[0] === 0x89 && at(1, 'PNG')) return 'image/png';
	if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
	if (at(0, 'GIF8')) return 'image/gif';
	if (at(0, 'RIFF') && at(8, 'WEBP')) return 'image/webp';
	if (at(0, 'RIFF') && at(8, 'WAVE')) return 'audio/wav';
	if (at(4, 'ftyp')) return at(8, 'qt  ') ? 'video/quicktime' : 'video/mp4';
	if (at(0, 'ID3') || (head[0] === 0xff && (head[1] & 0xe0) === 0xe0)) return 'audio/mpeg';
	if (at(0, 'OggS')) return 'audio/ogg';
	if (at(0, 'glTF')) return 'model/gltf-binary';
	if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3)
		return 'video/webm';
	return undefined;
}
