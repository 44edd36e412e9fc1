import {
	NodeOperationError,
	type IDataObject,
	type INode,
	type INodeProperties,
} from 'n8n-workflow';

import { NOTHING_SPENT } from './nothing-spent';

// An option of a node is defined once: its field in the panel and its typed reader come from the
// same definition, so the bounds the field shows are the bounds the node enforces (a test checks
// every option). The modules that define options sit by concern (waits/wait-options.ts,
// runs/submit-options.ts, …); the node's description only places them.

/** What a reader needs of n8n to refuse a value: the node, for the error. */
export interface RefusalContext {
	getNode(): INode;
}

export interface OptionSpec {
	/** the parameter's name as n8n saves it: never to be changed (saved workflows hold it) */
	name: string;
	displayName: string;
	description: string;
	/**
	 * Whether a different value asks the service for something else. False for what only steers
	 * how the node waits, bounds, batches or shapes its outputs: editing it keeps the items' jobs.
	 */
	changesRequest: boolean;
}

abstract class Option<T> {
	constructor(readonly spec: OptionSpec & { default: T }) {}

	get name(): string {
		return this.spec.name;
	}

	get displayName(): string {
		return this.spec.displayName;
	}

	get changesRequest(): boolean {
		return this.spec.changesRequest;
	}

	protected base(): Pick<INodeProperties, 'displayName' | 'name' | 'description'> {
		return {
			displayName: this.spec.displayName,
			name: this.spec.name,
			description: this.spec.description,
		};
	}

	/** The field in the panel; `extra` places it (displayOptions) or words it for one operation. */
	abstract property(extra?: Partial<INodeProperties>): INodeProperties;
}

const isBlank = (raw: unknown) => raw === undefined || raw === null || raw === '';

/** Digits with an optional decimal point: what a user means by a number in a text field. */
const DECIMAL = /^(\d+\.?\d*|\.\d+)$/;

/**
 * The number a value spells in decimal; NaN for anything else. `Number()` alone would read "0x10"
 * as 16, "0b1" as 1 and "1e3" as 1000: a limit or a count must be what the user plainly wrote.
 */
export function decimalNumber(raw: unknown): number {
	if (typeof raw === 'number') return raw;
	if (typeof raw !== 'string') return NaN;
	const text = raw.trim();
	return DECIMAL.test(text) ? Number(text) : NaN;
}

export interface NumberSpec extends OptionSpec {
	default: number;
	min: number;
	/** the largest value; Infinity for none */
	max: number;
	/** decimals the field accepts: 0 for whole numbers */
	precision?: number;
}

/** A number within bounds: the field shows them, the reader refuses anything outside them. */
export class NumberOption extends Option<number> {
	constructor(readonly bounds: NumberSpec) {
		super(bounds);
	}

	get min(): number {
		return this.bounds.min;
	}

	get max(): number {
		return this.bounds.max;
	}

	property(extra: Partial<INodeProperties> = {}): INodeProperties {
		const { min, max, precision } = this.bounds;
		return {
			...this.base(),
			type: 'number',
			default: this.spec.default,
			typeOptions: {
				minValue: min,
				...(Number.isFinite(max) ? { maxValue: max } : {}),
				...(precision !== undefined ? { numberPrecision: precision } : {}),
			},
			...extra,
		};
	}

	/**
	 * The value under this option's name in `values` (the Options collection, or a parameter read
	 * on its own); `fallback` when it is not set. A value outside the bounds, or no number at all,
	 * is refused naming the field and the range: nothing has been sent yet.
	 */
	read(
		ctx: RefusalContext,
		itemIndex: number,
		values: IDataObject,
		fallback: number = this.spec.default,
	): number {
		const raw = values[this.spec.name];
		if (isBlank(raw)) return fallback;
		const value = decimalNumber(raw);
		const { min, max } = this.bounds;
		if (!Number.isFinite(value) || value < min || value > max) {
			const shown = typeof raw === 'number' ? String(raw) : JSON.stringify(raw);
			const range = Number.isFinite(max)
				? `a number from ${min} to ${max}`
				: `a number of ${min} or more`;
			throw new NodeOperationError(
				ctx.getNode(),
				`${this.spec.displayName}: ${shown} is not allowed; allowed: ${range}`,
				{
					itemIndex,
					description: NOTHING_SPENT,
				},
			);
		}
		return value;
	}
}

/** A switch: `true` (or the text "true" an expression gives) turns it on. */
export class BooleanOption extends Option<boolean> {
	property(extra: Partial<INodeProperties> = {}): INodeProperties {
		return { ...this.base(), type: 'boolean', default: this.spec.default, ...extra };
	}

	read(values: IDataObject): boolean {
		const raw = values[this.spec.name];
		if (raw === undefined) return this.spec.default;
		return raw === true || (typeof raw === 'string' && raw.trim().toLowerCase() === 'true');
	}

	/**
	 * For a switch whose wrong reading costs money (Estimate Only: read as off, it spends): `true`,
	 * `false` or their text in any case; blank is the default; anything else ("yes", "1") is
	 * refused naming the field and the allowed values rather than guessed.
	 */
	readStrict(ctx: RefusalContext, itemIndex: number, values: IDataObject): boolean {
		const raw = values[this.spec.name];
		if (isBlank(raw)) return this.spec.default;
		if (typeof raw === 'boolean') return raw;
		const text = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
		if (text === 'true' || text === 'false') return text === 'true';
		throw new NodeOperationError(
			ctx.getNode(),
			`${this.spec.displayName}: ${JSON.stringify(raw) ?? String(raw)} is not allowed; allowed: true or false`,
			{ itemIndex, description: NOTHING_SPENT },
		);
	}
}

/** A line of text, as set (not trimmed: a token or an ID is sent as typed); blank reads as the default. */
export class TextOption extends Option<string> {
	constructor(readonly text: OptionSpec & { default: string; password?: boolean }) {
		super(text);
	}

	property(extra: Partial<INodeProperties> = {}): INodeProperties {
		return {
			...this.base(),
			type: 'string',
			...(this.text.password ? { typeOptions: { password: true } } : {}),
			default: this.spec.default,
			...extra,
		};
	}

	read(values: IDataObject): string | undefined {
		const raw = values[this.spec.name];
		if (isBlank(raw)) return this.spec.default || undefined;
		return String(raw);
	}
}

export type AnyOption = NumberOption | BooleanOption | TextOption;
