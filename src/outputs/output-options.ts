import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { BYTES_PER_MB, DEFAULT_MAX_OUTPUT_MB, MAX_OUTPUT_MB } from '../media/download';
import { BooleanOption, NumberOption, TextOption, type RefusalContext } from '../options/option';

// The options of what a finished run's item carries: its files as binary (in which field, up to
// which size) or their URLs only.

/** n8n's usual binary field: where a node puts its first file, and where it looks for an input file. */
export const DEFAULT_BINARY_FIELD = 'data';

export const returnUrlsOnly = new BooleanOption({
	name: 'returnUrlsOnly',
	displayName: 'Return URLs Only',
	description: 'Whether to skip downloading the output files and return their URLs only',
	default: false,
	changesRequest: false,
});

export const binaryField = new TextOption({
	name: 'binaryPropertyName',
	displayName: 'Binary Field Name',
	description: `First output file goes to this field, further ones to "${DEFAULT_BINARY_FIELD}_1", "${DEFAULT_BINARY_FIELD}_2", …`,
	default: DEFAULT_BINARY_FIELD,
	changesRequest: false,
});

export const maxOutputSize = new NumberOption({
	name: 'maxOutputSize',
	displayName: 'Max Output Size (MB)',
	description:
		'Largest output file the node downloads; a larger one fails its item, naming the run (checked before and while downloading)',
	default: DEFAULT_MAX_OUTPUT_MB,
	min: 1,
	max: MAX_OUTPUT_MB,
	changesRequest: false,
});

/** Every option this module defines. */
export const OUTPUT_OPTIONS = [returnUrlsOnly, binaryField, maxOutputSize];

/** The output options of an operation that makes runs or batches. */
export function outputOptionProperties(): INodeProperties[] {
	return OUTPUT_OPTIONS.map((option) => option.property());
}

/** The largest output file the Options allow, in bytes. */
export function maxOutputBytesOf(
	ctx: RefusalContext,
	itemIndex: number,
	options: IDataObject,
): number {
	return maxOutputSize.read(ctx, itemIndex, options) * BYTES_PER_MB;
}
