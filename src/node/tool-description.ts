import type { Endpoint, FieldSpec, LimitRule } from '../catalog';
import { TOOL_ANSWER_LIMITS } from './tool-output';

/**
 * The description an AI agent reads for one operation of a MediaGen tool: what it does, what it
 * costs, how long it takes, what the agent may fill and what comes back. Written from the catalog
 * entry, so every operation gets one and none drifts from what the node does.
 */

const PRICE_UNITS: Record<NonNullable<Endpoint['pricing']>['unit'], string> = {
	per_image: 'credits per image',
	per_second: 'credits per second of output',
	per_character: 'credits per character of text',
	per_run: 'a set number of credits per run',
};

const words = (key: string) => key.replace(/_/g, ' ');

function sentence(text: string): string {
	const trimmed = text.trim();
	return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function costOf(e: Endpoint): string {
	const price = e.pricing
		? `${e.capability ? "the model's " : ''}${PRICE_UNITS[e.pricing.unit]}${e.pricing.countField ? ` × ${e.pricing.countField}` : ''}`
		: 'the service price of the run';
	return `Cost: ${price} (MediaGen Account → List Pricing); the answer reports credits_spent, and a refused or failed run costs nothing.`;
}

function durationOf(e: Endpoint): string {
	const still = 'the answer has still_running: true with run_id and status, to check later with the MediaGen Run tool (Get).';
	if (e.output === 'batch') return `Takes as long as its slowest item: the tool waits up to its Wait Timeout; if the batch is still going then, ${still.replace('run_id', 'batch_id')}`;
	return `Runs asynchronously, from seconds to minutes (the service states no duration): the tool waits up to its Wait Timeout; if the run is still going then, ${still}`;
}

function limitText(rule: LimitRule): string | undefined {
	switch (rule.kind) {
		case 'oneOf':
			return `one of the model's ${words(rule.keys[0])}; empty = the model default`;
		case 'max':
			return `up to the model's ${words(rule.keys[0])}`;
		case 'maxLength':
			return `up to the model's ${words(rule.keys[0])}`;
		case 'maxItems':
			return `up to the model's ${words(rule.keys[0])}`;
		case 'range':
			return `within the model's ${words(rule.minKeys[0])} and ${words(rule.maxKeys[0])}`;
		case 'between':
			return `within the model's ${words(rule.keys[0])}`;
		case 'all':
			return rule.rules.map(limitText).filter(Boolean).join(', ');
		default:
			return undefined;
	}
}

function allowedOf(field: FieldSpec): string {
	const parts: string[] = [];
	if (field.options?.length) parts.push(`one of ${field.options.map((o) => o.value).join(', ')}`);
	if (field.min !== undefined && field.max !== undefined) parts.push(`${field.min} to ${field.max}`);
	else if (field.min !== undefined) parts.push(`at least ${field.min}`);
	else if (field.max !== undefined) parts.push(`at most ${field.max}`);
	if (field.limit) parts.push(limitText(field.limit) ?? '');
	if (field.type === 'media' || field.format === 'url') parts.push('a URL');
	if (field.type === 'mediaList') parts.push('URLs');
	if (field.pattern) parts.push(field.pattern.allowed);
	return parts.filter(Boolean).join(', ');
}

/** The fields shown at the top of the node: the ones an agent is asked to fill. */
function inputsOf(e: Endpoint): string | undefined {
	const shown = e.fields.filter((f) => f.required || f.primary);
	if (shown.length === 0) return undefined;
	const described = shown.map((f) => {
		const allowed = allowedOf(f);
		const notes = [f.required ? 'required' : '', allowed].filter(Boolean).join('; ');
		return notes ? `${f.name} (${notes})` : f.name;
	});
	return `Inputs: ${described.join('; ')}. A value that is not allowed is refused before anything is charged, naming the allowed values.`;
}

function answerOf(e: Endpoint): string {
	if (e.output === 'run') return 'Answer: JSON with run_id, status, outputs [{url, mime_type}] and credits_spent; on failure error, code and hint.';
	if (e.output === 'list') return `Answer: up to ${TOOL_ANSWER_LIMITS.items} results as compact JSON (long texts and lists shortened).`;
	if (e.output === 'batch') return 'Answer: one JSON object per batch item.';
	return 'Answer: compact JSON (long texts and lists shortened); on failure error, code and hint.';
}

/** The tool description of an operation. */
export function toolDescriptionOf(e: Endpoint): string {
	const waits = e.output === 'run' || e.output === 'batch';
	return [
		sentence(e.action),
		sentence(e.description),
		waits && e.method === 'POST' ? costOf(e) : '',
		waits ? durationOf(e) : '',
		inputsOf(e) ?? '',
		answerOf(e),
	]
		.filter(Boolean)
		.join(' ');
}

/** The tool description of an operation's Estimate Cost companion. */
export function estimateToolDescriptionOf(e: Endpoint, estimate: { action: string; description: string }): string {
	return [
		sentence(estimate.action),
		sentence(estimate.description),
		'Nothing is charged.',
		inputsOf(e) ?? '',
		'Answer: JSON with credits and a quote_token the generating operation can be bound to.',
	]
		.filter(Boolean)
		.join(' ');
}
