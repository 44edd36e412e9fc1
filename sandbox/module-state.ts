import { ProblemError } from './http';
import type { SandboxState } from './state';

/**
 * State of one route module, made on first use and kept per sandbox (so building the handler
 * maps twice never splits it, and two sandboxes in one process never share it).
 */
export function moduleState<T>(make: (state: SandboxState) => T): (state: SandboxState) => T {
	const stores = new WeakMap<SandboxState, T>();
	return (state) => {
		let store = stores.get(state);
		if (!store) {
			store = make(state);
			stores.set(state, store);
		}
		return store;
	};
}

/** 400 invalid_parameter unless a string field is present. */
export function requireString(params: Record<string, unknown>, name: string): string {
	const value = params[name];
	if (typeof value !== 'string' || value.trim() === '')
		throw new ProblemError(400, 'invalid_parameter', `${name} is required`, { param: name });
	return value.trim();
}

export function optionalString(params: Record<string, unknown>, name: string): string | null {
	const value = params[name];
	if (value === undefined || value === null || value === '') return null;
	if (typeof value !== 'string')
		throw new ProblemError(400, 'invalid_parameter', `${name} must be a string`, { param: name });
	return value;
}

export function stringArray(params: Record<string, unknown>, name: string): string[] {
	const value = params[name];
	if (value === undefined || value === null) return [];
	if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
		throw new ProblemError(400, 'invalid_parameter', `${name} must be an array of strings`, {
			param: name,
		});
	}
	return value as string[];
}

export function notFound(what: string, id: string): ProblemError {
	return new ProblemError(404, 'not_found', `No ${what} ${id}`);
}
