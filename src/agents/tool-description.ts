import { offersEstimate, type Endpoint, type FieldSpec, type LimitRule } from '../catalog';
import { TOOL_TIME_BUDGET_SECONDS } from './tool-call';
import { TOOL_ANSWER_LIMITS } from './tool-output';

/**
 * The description an AI agent reads for one operation of a MediaGen tool: what it does, what it
 * costs, how long it takes, what the agent may fill and what comes back. Written from the catalog
 * entry, so every operation gets one and none drifts from what the node does.
 */

/** The unit a price is counted in, as GET /models/pricing names it (`unit`) and in words. */
const PRICE_BASIS: Record<
	NonNullable<Endpoint['pricing']>['unit'],
	{ per: string; credits: string; units?: string }
> = {
	per_image: { per: 'per image', credits: 'credits per image', units: 'images made' },
	per_second: {
		per: 'per second of output',
		credits: 'credits per second',
		units: 'seconds of output',
	},
	per_character: {
		per: 'per character of text',
		credits: 'credits per character',
		units: 'characters',
	},
	per_run: { per: 'per run', credits: 'set number of credits per run' },
	per_model_unit: {
		per: "in the model's unit",
		credits: 'credits per image, second or character (whichever its price names)',
	},
};

const words = (key: string) => key.replace(/_/g, ' ');

function sentence(text: string): string {
	const trimmed = text.trim();
	return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * The price basis of an operation: the unit it is charged in and what multiplies it. The credits
 * per unit belong to the model and change: the description names where they are (GET
 * /models/pricing), and a call with estimate_only gives the exact price of the call it describes.
 */
function costOf(e: Endpoint): string {
	const basis = e.pricing ? PRICE_BASIS[e.pricing.unit] : undefined;
	const rate = basis
		? `${basis.per}: ${e.capability ? "the model's" : 'the'} ${basis.credits}${basis.units ? ` × ${e.pricing!.countField ?? basis.units}` : ''}`
		: 'the service price of the run';
	const where = e.capability
		? "each model's rate: GET /models/pricing, MediaGen Account → List Pricing"
		: 'MediaGen Account → List Pricing';
	const first = offersEstimate(e)
		? ' Price first: estimate_only true (where this tool takes it) answers with credits and a quote_token, making and charging nothing.'
		: '';
	return `Cost: ${rate} (${where}).${first} The answer reports credits_spent; a refused or failed run costs nothing.`;
}

function durationOf(e: Endpoint): string {
	const id = e.output === 'batch' ? 'batch_id' : 'run_id';
	const checkWith =
		e.output === 'batch'
			? 'the MediaGen Batch tool (Wait for Completion)'
			: 'the MediaGen Run tool (Wait for Completion, or Get)';
	const takes =
		e.output === 'batch'
			? 'Takes as long as its slowest item'
			: 'Runs asynchronously, seconds to minutes';
	return `${takes}; the tool answers within its Tool Time Budget (${TOOL_TIME_BUDGET_SECONDS} s unless set). A job still going then is answered with still_running: true, ${id}, status and price; it goes on, is charged once, and ${checkWith} gets its result. The same inputs again return the same job, never a second charge.`;
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
	if (field.min !== undefined && field.max !== undefined)
		parts.push(`${field.min} to ${field.max}`);
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
	if (e.output === 'run')
		return 'Answer: JSON with run_id, status, outputs [{url, mime_type}] and credits_spent; on failure error, code and hint.';
	if (e.output === 'list')
		return `Answer: up to ${TOOL_ANSWER_LIMITS.items} results as compact JSON (long texts and lists shortened).`;
	if (e.output === 'batch') return 'Answer: one JSON object per batch item.';
	return 'Answer: compact JSON (long texts and lists shortened); on failure error, code and hint.';
}

/**
 * The node's name as n8n shows it ("MediaGen Lip Sync"): a model (or an MCP client listing tools
 * named after workflow nodes) then knows which tool another tool's answer points it to.
 */
const nodeLabel = (e: Endpoint) =>
	e.node === 'MediaGenModel3D'
		? 'MediaGen 3D'
		: `MediaGen ${e.node.replace(/^MediaGen/, '').replace(/([a-z])([A-Z])/g, '$1 $2')}`;

/** The tool description of an operation. */
export function toolDescriptionOf(e: Endpoint): string {
	const waits = e.output === 'run' || e.output === 'batch';
	return [
		`${nodeLabel(e)}: ${sentence(e.action)}`,
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
export function estimateToolDescriptionOf(
	e: Endpoint,
	estimate: { action: string; description: string },
): string {
	return [
		`${nodeLabel(e)}: ${sentence(estimate.action)}`,
		sentence(estimate.description),
		'Nothing is charged.',
		inputsOf(e) ?? '',
		'Answer: JSON with credits and a quote_token the generating operation can be bound to.',
	]
		.filter(Boolean)
		.join(' ');
}
