// n8n's own tool, as its verification expects: `n8n-node lint` in strict mode (eslint.config.mjs is
// n8n's default, which lints every *.ts file of the repository) with no error and no warning, and
// `n8n-node cloud-support` reporting the package eligible. `n8n-node build` is `npm run build`.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;
const N8N_NODE = join(ROOT, 'node_modules', '@n8n', 'node-cli', 'bin', 'n8n-node.mjs');

function n8nNode(...args) {
	const run = spawnSync(process.execPath, [N8N_NODE, ...args], { cwd: ROOT, encoding: 'utf8' });
	const output = `${run.stdout}${run.stderr}`
		.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
		.split('\n')
		.filter((line) => !line.startsWith('npm warn'))
		.join('\n');
	return { status: run.status, output };
}

let failed = false;

const lint = n8nNode('lint');
const problems = lint.output.match(/✖ \d+ problems? \((\d+) errors?, (\d+) warnings?\)/);
if (lint.status !== 0 || problems) {
	failed = true;
	process.stdout.write(
		`${lint.output}\nn8n-node lint: FAILED (warnings count too: n8n reviews them)\n`,
	);
} else {
	process.stdout.write('n8n-node lint: passed, strict mode, default config, no warnings\n');
}

const cloud = n8nNode('cloud-support');
if (/Cloud support is ENABLED/.test(cloud.output) && /Status: eligible/.test(cloud.output)) {
	process.stdout.write('n8n-node cloud-support: enabled, eligible for n8n Cloud verification\n');
} else {
	failed = true;
	process.stdout.write(`${cloud.output}\nn8n-node cloud-support: NOT eligible\n`);
}

process.exit(failed ? 1 : 0);
