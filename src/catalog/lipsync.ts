import { imageUrl, prompt, resolution, seed } from './fields';
import { audioUrl, videoUrl } from './media-fields';
import { PAUSE, type Endpoint } from './types';

export const lipSyncEndpoints: Endpoint[] = [
	{
		node: 'MediaGenLipSync',
		resource: 'lipSync',
		method: 'POST',
		path: '/lipsync/generations',
		scope: 'lipsync:write',
		idempotency: 'required',
		auth: 'bearer',
		operation: 'generate',
		name: 'Generate',
		action: 'Lip-sync a face to audio',
		description: 'Makes the face in a video or image speak the given audio (MP4)',
		capability: 'lipsync_generation',
		output: 'run',
		defaultWait: PAUSE,
		teamBilling: true,
		projectFiling: true,
		pricing: { unit: 'per_second' },
		requireOneOf: ['video_url', 'image_url'],
		fields: [
			{
				...audioUrl(true, 'Speech to lip-sync to'),
				fileLimits: { maxSeconds: ['max_duration_seconds'] },
			},
			{ ...videoUrl(false, 'Video with the face'), primary: true },
			imageUrl(false, 'Face Image'),
			resolution,
			{
				...prompt(false),
				primary: false,
				description: 'Optional direction for expression and motion; some models cap its length',
			},
			seed,
		],
	},
];
