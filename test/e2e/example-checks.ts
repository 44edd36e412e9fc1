/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
// What the examples e2e reads in every execution of an example, whatever the example:
//
// 1. Every item a node passed on (its `main` outputs) and every answer our tool gave an agent
//    (`ai_tool`) makes sense: no `null` anywhere (a simplified item leaves out what it does not
//    have); no empty string; no string holding "undefined", "[object Object]" or the word "NaN"; and every
//    item of a node's output has the keys the node's other items have (n8n's table view shows
//    `undefined` in the gaps). The chat model's log (`ai_languageModel`) is n8n's own record of the
//    model call, not data a node reads, and is left out.
// 2. Every expression a node read is defined: each `{{ … }}` of every parameter is evaluated as
//    n8n does (JavaScript, `$json` the node's input item, `$('Node').item` the item it was paired
//    with) for every item the node ran on, and must give a value that is not undefined, null, an
//    empty string or an object spelled into text. The editor shows such an expression red. A
//    Filter's condition is exempt from "not empty": deciding on an absent value is its job.
//    `$fromAI()` parameters are filled by the agent's model, not evaluated here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO, type N8nItem, type N8nRun } from './state';

interface ExampleNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
}

export interface ExampleWorkflow {
	nodes: ExampleNode[];
	connections: Record<
		string,
		Record<string, Array<Array<{ node: string; type: string; index: number }>>>
	>;
}

export const readExample = (slug: string) =>
	JSON.parse(readFileSync(join(REPO, 'examples', `${slug}.json`), 'utf8')) as ExampleWorkflow;

type NodeRuns = Array<{ data?: Record<string, N8nItem[][]> }>;

/** Every item each node output on its `main` connections, and our tools' answers (`ai_tool`), by node. */
export function itemsByNode(run: N8nRun): Map<string, N8nItem[]> {
	const byNode = new Map<string, N8nItem[]>();
	for (const [node, runs] of Object.entries(
		run.data.resultData.runData as unknown as Record<string, NodeRuns>,
	)) {
		const items = runs.flatMap((r) =>
			[...(r.data?.main ?? []), ...(r.data?.ai_tool ?? [])].flat().filter(Boolean),
		);
		byNode.set(node, items);
	}
	return byNode;
}

/** What is wrong with a value, as "path: problem" lines (empty: nothing). */
function problemsOf(value: unknown, path: string): string[] {
	if (value === null) return [`${path}: null`];
	if (value === undefined) return [`${path}: undefined`];
	if (typeof value === 'number' && !Number.isFinite(value)) return [`${path}: ${value}`];
	if (typeof value === 'string') {
		if (value.trim() === '') return [`${path}: empty string`];
		// "NaN" as a word only: run IDs and signed URLs may hold the letters by chance ("run_gSNaNSU…")
		const bad =
			['undefined', '[object Object]'].find((word) => value.includes(word)) ??
			(/(^|\s)NaN(\s|[.,;:]|$)/.test(value) ? 'NaN' : undefined);
		return bad ? [`${path}: "${value.slice(0, 120)}" holds ${bad}`] : [];
	}
	if (Array.isArray(value)) return value.flatMap((v, i) => problemsOf(v, `${path}[${i}]`));
	if (typeof value === 'object')
		return Object.entries(value as object).flatMap(([k, v]) => problemsOf(v, `${path}.${k}`));
	return [];
}

/** The items of every node that make no sense (rule 1), as readable lines. */
export function senselessItems(run: N8nRun): string[] {
	const problems: string[] = [];
	for (const [node, items] of itemsByNode(run)) {
		items.forEach((item, i) => problems.push(...problemsOf(item.json, `${node}[${i}]`)));
		const keys = new Set(items.flatMap((item) => Object.keys(item.json)));
		items.forEach((item, i) => {
			const missing = [...keys].filter((key) => !(key in item.json));
			if (missing.length)
				problems.push(
					`${node}[${i}]: lacks ${missing.join(', ')}, which the node's other items have (shown as undefined)`,
				);
		});
	}
	return problems;
}

/** The node whose main output feeds `node` (the examples are chains: one parent each). */
function parentOf(workflow: ExampleWorkflow, node: string): string | undefined {
	return Object.entries(workflow.connections).find(([, outputs]) =>
		(outputs.main ?? []).some((targets) => targets.some((t) => t.node === node)),
	)?.[0];
}

const pairedIndex = (item: N8nItem): number => {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof paired === 'number'
		? paired
		: ((paired as { item?: number } | undefined)?.item ?? 0);
};

/** The item of node `target` that `item` (output by `node`) descends from, following pairedItem back. */
function ancestorItem(
	workflow: ExampleWorkflow,
	byNode: Map<string, N8nItem[]>,
	node: string,
	item: N8nItem,
	target: string,
): N8nItem | undefined {
	let [current, currentItem] = [node, item];
	while (current !== target) {
		const parent = parentOf(workflow, current);
		if (!parent) return undefined;
		currentItem = byNode.get(parent)?.[pairedIndex(currentItem)] as N8nItem;
		if (!currentItem) return undefined;
		current = parent;
	}
	return currentItem;
}

/** Every expression string in a node's parameters, with where it sits. */
function expressionsOf(value: unknown, path: string): Array<{ path: string; expression: string }> {
	if (typeof value === 'string')
		return value.startsWith('=') && value.includes('{{')
			? [{ path, expression: value.slice(1) }]
			: [];
	if (Array.isArray(value)) return value.flatMap((v, i) => expressionsOf(v, `${path}[${i}]`));
	if (value && typeof value === 'object')
		return Object.entries(value).flatMap(([k, v]) => expressionsOf(v, path ? `${path}.${k}` : k));
	return [];
}

export interface Evaluated {
	node: string;
	item: number;
	path: string;
	expression: string;
	value: unknown;
}

/**
 * Every expression of every node of `workflow` that ran, evaluated for every item it ran on
 * (rule 2): its segments' values and the text they make, with the node's input item as `$json`.
 */
export function evaluateExpressions(
	workflow: ExampleWorkflow,
	run: N8nRun,
): { evaluated: Evaluated[]; problems: string[] } {
	const byNode = itemsByNode(run);
	const evaluated: Evaluated[] = [];
	const problems: string[] = [];
	for (const node of workflow.nodes) {
		const parent = parentOf(workflow, node.name);
		const inputs = parent ? byNode.get(parent) : undefined;
		if (!inputs || !byNode.has(node.name)) continue;
		for (const { path, expression } of expressionsOf(node.parameters, '')) {
			if (expression.includes('$fromAI(')) continue;
			const isCondition = node.type === 'n8n-nodes-base.filter' && path.includes('conditions');
			inputs.forEach((input, index) => {
				const $ = (name: string) => ({
					item: ancestorItem(workflow, byNode, parent!, input, name),
					first: () => byNode.get(name)?.[0],
					all: () => byNode.get(name) ?? [],
				});
				let text = '';
				let whole: unknown;
				const parts = expression.split(/(\{\{[\s\S]*?\}\})/).filter((p) => p !== '');
				for (const part of parts) {
					if (!part.startsWith('{{')) {
						text += part;
						continue;
					}
					const code = part.slice(2, -2);
					let value: unknown;
					try {
						value = new Function('$json', '$', '$input', `return (${code});`)(input.json, $, {
							item: input,
							all: () => inputs,
						});
					} catch (error) {
						problems.push(
							`${node.name}.${path} [item ${index}]: ${code.trim()} throws ${(error as Error).message}`,
						);
						continue;
					}
					if (
						value === undefined ||
						value === null ||
						(typeof value === 'string' && value.trim() === '' && !isCondition)
					) {
						problems.push(
							`${node.name}.${path} [item ${index}]: ${code.trim()} is ${JSON.stringify(value) ?? 'undefined'}`,
						);
					}
					if (parts.length > 1 && value !== null && typeof value === 'object')
						problems.push(
							`${node.name}.${path} [item ${index}]: ${code.trim()} is an object spelled into text`,
						);
					whole = value;
					text += typeof value === 'string' ? value : JSON.stringify(value);
				}
				evaluated.push({
					node: node.name,
					item: index,
					path,
					expression,
					value: parts.length === 1 ? whole : text,
				});
			});
		}
	}
	return { evaluated, problems };
}

/** The value an expression gave for each item of a node (see evaluateExpressions). */
export const valuesOf = (evaluated: Evaluated[], node: string, path: string) =>
	evaluated.filter((e) => e.node === node && e.path === path).map((e) => e.value);
