import type { INodeProperties } from 'n8n-workflow';

import { offersEstimate, type Endpoint } from '../../catalog';
import { TOOL_OPTIONS } from '../../agents/tool-call';
import { OUTPUT_OPTIONS, outputOptionProperties } from '../../outputs/output-options';
import { simplify, simplifyProperty } from '../../outputs/simplify-option';
import { LIST_OPTIONS } from '../../runs/list-options';
import { SUBMIT_OPTIONS, submitOptionProperties } from '../../runs/submit-options';
import { SPEND_OPTIONS, spendOptionProperties } from '../../spend/spend-options';
import {
	waitForCompletion,
	waitMode,
	waitOptionProperties,
	waitProperties,
	waitTimeout,
} from '../../waits/wait-options';
import { alphabetical, showOwn } from './display';

// Where the options of an operation that makes runs or batches go: the wait above, Simplify, then
// the Options collection. Each option is defined (field and reader) in the module of its concern.

/** The Options collection of an operation that makes runs or batches. */
export const RUN_OPTIONS = 'options';

export function runOptionProperties(e: Endpoint): INodeProperties[] {
	const own = (extra: Record<string, unknown[]> = {}) => showOwn(e, extra);
	const options = [
		...waitOptionProperties(e),
		...outputOptionProperties(),
		...submitOptionProperties(e),
		...(e.method === 'POST' ? spendOptionProperties(offersEstimate(e)) : []),
	];
	return [...waitProperties(e, own), simplifyProperty(own().show), optionsCollection(e, options)];
}

/** An operation's Options collection, its options in alphabetical order. */
function optionsCollection(e: Endpoint, options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: RUN_OPTIONS,
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showOwn(e),
		options: options.sort((a, b) => alphabetical(a.displayName, b.displayName)),
	};
}

/**
 * The Options collection of an operation that runs a failed job again (a batch item's Retry): what
 * it may cost when the service cannot price it, for the budgets.
 */
export const rerunOptionsProperty = (e: Endpoint): INodeProperties =>
	optionsCollection(e, spendOptionProperties(false));

/** The options outside the collection: the wait, Simplify, the tool's and a list's. */
const TOP_LEVEL = [waitForCompletion, waitMode, simplify, ...TOOL_OPTIONS, ...LIST_OPTIONS];
/** The options in the Options collection. */
const IN_OPTIONS = [waitTimeout, ...OUTPUT_OPTIONS, ...SUBMIT_OPTIONS, ...SPEND_OPTIONS];

/** Every option defined with its typed reader (Wait Mode is a fixed choice, the rest bounded values). */
export const ALL_OPTIONS = [
	waitForCompletion,
	simplify,
	...TOOL_OPTIONS,
	...LIST_OPTIONS,
	...IN_OPTIONS,
];

/** The parameters an edit of which keeps the node's edition: they steer the node, never the request (src/spend/job-edition.ts). */
export const EDITS_THAT_KEEP_THE_JOB = {
	topLevel: new Set(
		TOP_LEVEL.filter((option) => !option.changesRequest).map((option) => option.name),
	),
	inCollection: RUN_OPTIONS,
	inOptions: new Set(
		IN_OPTIONS.filter((option) => !option.changesRequest).map((option) => option.name),
	),
};
