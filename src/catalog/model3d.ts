import { prompt, seed } from './fields';
import { mediaUrls } from './media-fields';
import { PAUSE, type Endpoint } from './types';

export const model3dEndpoints: Endpoint[] = [
	{
		node: 'MediaGenModel3D',
		resource: 'model3d',
		method: 'POST',
		path: '/models/3d/generations',
		scope: 'images:write',
		idempotency: 'required',
		auth: 'bearer',
		operation: 'generate',
		name: 'Generate',
		action: 'Generate a 3D model from images',
		description:
			'A textured 3D model from 1 to 4 images, in every requested format (a model is not a file a project can hold)',
		capability: 'model_3d_generation',
		output: 'run',
		defaultWait: PAUSE,
		teamBilling: true,
		projectFiling: false,
		pricing: { unit: 'per_image', countField: 'image_urls' },
		fields: [
			mediaUrls('image_urls', 'Images', 'One to four views of the object', ['max_images'], {
				required: true,
				primary: true,
				max: 4,
			}),
			{
				name: 'output_formats',
				displayName: 'Output Formats',
				type: 'multiOptions',
				primary: true,
				default: [],
				description:
					'Files to produce (glb, fbx, obj, usdz, blend, stl, as the model lists); empty gives the model default',
				limit: { kind: 'oneOf', keys: ['output_formats'] },
			},
			{
				name: 'target_polycount',
				displayName: 'Target Polycount',
				type: 'integer',
				default: 30000,
				min: 100,
				max: 300000,
				description:
					"Polygons to aim for, 100 to 300000, within the chosen model's bounds (API: target_polycount)",
				limit: { kind: 'between', keys: ['target_polycount'] },
			},
			{
				name: 'topology',
				displayName: 'Topology',
				type: 'options',
				default: '',
				description: 'Quad or triangle mesh, as the model lists',
				limit: { kind: 'oneOf', keys: ['topology'] },
			},
			{
				...prompt(false),
				primary: false,
				description: 'Optional hint about the object and its texture',
			},
			seed,
		],
	},
];
