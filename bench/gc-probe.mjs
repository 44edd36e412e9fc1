// Forces a full garbage collection in a Node process through its inspector and prints, as JSON,
// the V8 heap in use before and after: what the process really holds (live) against what it had
// merely not collected yet. Runs under a Node with a WebSocket client (n8n's Node 24 here).
// Usage: node gc-probe.mjs ws://127.0.0.1:PORT/ID
const socket = new WebSocket(process.argv[2]);
let lastId = 0;
const waiting = new Map();
const call = (method, params = {}) =>
	new Promise((resolve) => {
		lastId += 1;
		waiting.set(lastId, resolve);
		socket.send(JSON.stringify({ id: lastId, method, params }));
	});
socket.onmessage = (message) => {
	const { id, result } = JSON.parse(message.data);
	waiting.get(id)?.(result);
	waiting.delete(id);
};
socket.onerror = () => process.exit(2);
socket.onopen = async () => {
	const before = await call('Runtime.getHeapUsage');
	await call('HeapProfiler.enable');
	await call('HeapProfiler.collectGarbage');
	const after = await call('Runtime.getHeapUsage');
	const mb = (bytes) => Math.round(bytes / (1024 * 1024));
	process.stdout.write(
		`${JSON.stringify({ heap_used_mb: mb(before.usedSize), live_heap_mb: mb(after.usedSize) })}\n`,
	);
	socket.close();
	process.exit(0);
};
