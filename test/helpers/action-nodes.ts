/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeType } from 'n8n-workflow';

/** The action nodes, loaded from nodes/, by class name. */
export function actionNodes(): Record<string, INodeType> {
	const dir = join(__dirname, '..', '..', 'nodes');
	const nodes: Record<string, INodeType> = {};
	for (const name of readdirSync(dir).filter((n) => !n.endsWith('Trigger'))) {
		// every folder under nodes/ is loaded by name
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- a path known only at run time
		const loaded = require(join(dir, name, `${name}.node.ts`)) as Record<
			string,
			new () => INodeType
		>;
		nodes[name] = new loaded[name]();
	}
	return nodes;
}
