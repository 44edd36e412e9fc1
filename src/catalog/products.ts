import type { Endpoint } from './types';

export const productEndpoints: Endpoint[] = [
	{
		node: 'MediaGenProduct',
		resource: 'product',
		method: 'POST',
		path: '/products/extract',
		scope: 'products:write',
		idempotency: 'required',
		auth: 'bearer',
		operation: 'extract',
		name: 'Extract From URL',
		action: 'Extract product data from a URL',
		description:
			'Title, brand, price, description and photos of the product on a page (data: not filed in projects)',
		output: 'run',
		teamBilling: true,
		projectFiling: false,
		pricing: { unit: 'per_run' },
		fields: [
			{
				name: 'url',
				displayName: 'Product URL',
				type: 'string',
				required: true,
				default: '',
				format: 'url',
				placeholder: 'https://shop.example.com/p/123',
				description: 'Page of the product',
			},
			{
				name: 'max_images',
				displayName: 'Max Images',
				type: 'integer',
				default: 4,
				min: 1,
				max: 10,
				description: 'Product photos to return, 1 to 10',
			},
			{
				name: 'language_code',
				displayName: 'Language Code',
				type: 'string',
				default: '',
				description: 'Language of the extracted texts',
			},
		],
	},
];
