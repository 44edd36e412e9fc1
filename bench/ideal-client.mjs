// The ideal client of the benchmark: what the service and the machine allow, with nothing of n8n.
// Plain fetch; every submit sent at once (at most 100 in flight, so 10,000 items do not open 10,000
// sockets); from the first submit on, a read of the runs list every 100 ms, each read covering the
// oldest pending runs and going on to newer pages while the newest pending run of a page has
// finished (runs finish in the order they were submitted here: the sandbox has one latency and a
// FIFO queue); each output fetched the moment its run shows completed (at most 100 at once).
// It knows what no real client knows: that nothing else runs on the account, so each page of
// `GET /runs` (newest first) anchored on its own runs shows exactly the runs it expects.

const PAGE = 100;
const IN_FLIGHT = 100;
const READ_EVERY_MS = 100;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** At most `limit` calls of `task` at once, over `count` indexes. */
async function limited(count, limit, task) {
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(limit, count) }, async () => {
			while (next < count) await task(next++);
		}),
	);
}

/**
 * Submits `items` image generations to `base` (…/v1), waits for all, downloads each output when
 * `downloads`. Resolves with the start and end times (ms).
 */
export async function idealClient(base, apiKey, items, { downloads }) {
	const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
	const startedAt = Date.now();
	/** our runs in the order the service made them (created_at, then the order the answers came in) */
	const known = [];
	const pending = new Set();
	let submitted = false;
	const fetching = new Set();
	const queue = [];
	const pump = () => {
		while (fetching.size < IN_FLIGHT && queue.length) {
			const job = fetch(queue.shift())
				.then((r) => r.arrayBuffer())
				.finally(() => {
					fetching.delete(job);
					pump();
				});
			fetching.add(job);
		}
	};
	const download = (url) => {
		queue.push(url);
		pump();
	};
	const settle = (run) => {
		pending.delete(run.id);
		if (downloads && run.status === 'completed') download(run.output.images[0].url);
	};
	const submits = limited(items, IN_FLIGHT, async (i) => {
		const response = await fetch(`${base}/images/generations`, {
			method: 'POST',
			headers: { ...headers, 'idempotency-key': `ideal-${startedAt}-${i}` },
			body: JSON.stringify({ prompt: `poster ${i}` }),
		});
		const run = await response.json();
		known.push({ id: run.id, created: Date.parse(run.created_at), seq: known.length });
		pending.add(run.id);
	}).then(() => (submitted = true));

	const readPage = async (anchor) => {
		const page = await (
			await fetch(`${base}/runs?limit=${PAGE}${anchor ? `&starting_after=${anchor}` : ''}`, {
				headers,
			})
		).json();
		for (const run of page.data)
			if (pending.has(run.id) && (run.status === 'completed' || run.status === 'failed'))
				settle(run);
	};
	while (!submitted || pending.size) {
		await sleep(READ_EVERY_MS);
		if (!pending.size) continue;
		const order = [...known].sort((a, b) => a.created - b.created || a.seq - b.seq);
		let oldest = order.findIndex((r) => pending.has(r.id));
		while (oldest >= 0) {
			await readPage(order[oldest + PAGE]?.id);
			const newestOfPage = Math.min(oldest + PAGE - 1, order.length - 1);
			if (pending.has(order[newestOfPage].id) || newestOfPage === order.length - 1) break;
			oldest = order.findIndex((r, i) => i > newestOfPage && pending.has(r.id));
		}
	}
	await submits;
	while (fetching.size) await Promise.all([...fetching]);
	return { startedAt, endedAt: Date.now() };
}
