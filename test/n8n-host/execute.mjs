// `node test/n8n-host/execute.mjs --id <workflow id> --user-folder <dir> [--extensions <dir>]`:
// runs a workflow with `n8n execute` (executeWorkflow in n8n.mjs) and prints the run as one JSON
// line after the marker below. For callers that cannot import ESM (jest test files).
import { parseArgs } from 'node:util';
import { executeWorkflow } from './n8n.mjs';

export const RUN_MARKER = '@@MEDIAGEN_RUN@@';

const { values } = parseArgs({
	options: {
		id: { type: 'string' },
		'user-folder': { type: 'string' },
		extensions: { type: 'string' },
	},
});
if (!values.id || !values['user-folder']) {
	console.error(
		'usage: node execute.mjs --id <workflow id> --user-folder <dir> [--extensions <dir>]',
	);
	process.exit(2);
}
const run = await executeWorkflow(values.id, {
	userFolder: values['user-folder'],
	extensionsDir: values.extensions,
	log: () => {},
});
process.stdout.write(`${RUN_MARKER}${JSON.stringify(run)}\n`);
