import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

import type { Sandbox } from '../../sandbox/server';
import { takeRecordedResponses, type RecordedResponse } from '../../sandbox/published';

type Json = Record<string, unknown>;

const DOCUMENT_ID = 'https://mediagen.invalid/openapi.json';

function pointer(...parts: string[]): string {
	return parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/**
 * Checks recorded sandbox answers against the published OpenAPI document: each answer's status must
 * be documented for its operation (or fall under `default`), and its body must validate against
 * that response's JSON schema (JSON Schema 2020-12, formats checked).
 */
export class ContractChecker {
	private readonly ajv: Ajv2020;
	private readonly compiled = new Map<string, ReturnType<Ajv2020['compile']>>();

	constructor(private readonly document: Json) {
		this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
		addFormats(this.ajv);
		this.ajv.addSchema({ ...document, $id: DOCUMENT_ID });
	}

	/** Problems with one answer (empty when it matches the contract). */
	check(response: RecordedResponse): string[] {
		const where = `${response.method} ${response.path} → ${response.status}`;
		const operation = ((this.document.paths as Json)?.[response.path] as Json | undefined)?.[
			response.method.toLowerCase()
		] as Json | undefined;
		if (!operation) return [`${where}: no such operation in the document`];
		const responses = operation.responses as Json;
		const status = String(response.status);
		const key =
			status in responses
				? status
				: 'default' in responses && response.status >= 400
					? 'default'
					: undefined;
		if (!key)
			return [`${where}: status not documented (documented: ${Object.keys(responses).join(', ')})`];
		let documented = responses[key] as Json;
		let base = pointer('paths', response.path, response.method.toLowerCase(), 'responses', key);
		if (typeof documented.$ref === 'string') {
			const name = documented.$ref.split('/').pop()!;
			documented = ((this.document.components as Json).responses as Json)[name] as Json;
			base = pointer('components', 'responses', name);
		}
		const content = documented.content as Json | undefined;
		if (!content)
			return response.body === undefined || response.body === ''
				? []
				: [`${where}: documented without a body, but one was sent`];
		const mediaType = response.contentType.split(';')[0].trim();
		if (!(mediaType in content))
			return [
				`${where}: content type ${mediaType || '(none)'} not documented (documented: ${Object.keys(content).join(', ')})`,
			];
		const ref = `${DOCUMENT_ID}#/${base}/${pointer('content', mediaType, 'schema')}`;
		let validate = this.compiled.get(ref);
		if (!validate) {
			validate = this.ajv.compile({ $ref: ref });
			this.compiled.set(ref, validate);
		}
		if (validate(response.body)) return [];
		return (validate.errors ?? []).map(
			(e) =>
				`${where}: ${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
		);
	}

	checkAll(responses: RecordedResponse[]): string[] {
		return responses.flatMap((r) => this.check(r));
	}
}

/** Fetches the sandbox's own document and checks every answer it recorded since the last call. */
export async function contractViolations(
	sandbox: Sandbox,
): Promise<{ checked: number; violations: string[] }> {
	const recorded = takeRecordedResponses(sandbox.state);
	const document = (await (await fetch(`${sandbox.baseUrl}/openapi.json`)).json()) as Json;
	takeRecordedResponses(sandbox.state);
	return { checked: recorded.length, violations: new ContractChecker(document).checkAll(recorded) };
}

/**
 * Makes `sandbox.close()` check every answer the sandbox gave against its published contract first,
 * and fail (after closing) when one does not match. The test fixtures use it, so every sandbox
 * response of the test suite is checked.
 */
const lastChecks = new WeakMap<Sandbox, { checked: number; violations: string[] }>();

/** What the contract check found when the sandbox was closed (undefined before it closed). */
export function contractCheckOf(
	sandbox: Sandbox,
): { checked: number; violations: string[] } | undefined {
	return lastChecks.get(sandbox);
}

export function closeWithContractCheck(sandbox: Sandbox): Sandbox {
	const close = sandbox.close.bind(sandbox);
	sandbox.close = async () => {
		let result: { checked: number; violations: string[] } | undefined;
		try {
			result = await contractViolations(sandbox);
			lastChecks.set(sandbox, result);
		} finally {
			await close();
		}
		if (result.violations.length) {
			throw new Error(
				`Sandbox answers that break the published contract (openapi.json):\n${result.violations.slice(0, 20).join('\n')}`,
			);
		}
	};
	return sandbox;
}
