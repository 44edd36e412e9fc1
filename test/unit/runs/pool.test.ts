/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never shipped (CONTRIBUTING.md, Linting) */
import { TaskPool } from '../../../src/runs/pool';

/** A task that runs until the test lets it finish. */
function gate() {
	let open!: () => void;
	let fail!: (error: Error) => void;
	const done = new Promise<void>((resolve, reject) => {
		open = resolve;
		fail = reject;
	});
	return { done, open, fail };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('TaskPool', () => {
	it('starts tasks as they are added, in that order, never more than the limit at once', async () => {
		const pool = new TaskPool(2);
		const started: number[] = [];
		const gates = [gate(), gate(), gate(), gate()];
		gates.forEach((g, i) =>
			pool.add(async () => {
				started.push(i);
				await g.done;
			}),
		);
		expect(started).toEqual([0, 1]);
		gates[1].open();
		await settle();
		expect(started).toEqual([0, 1, 2]);
		gates[0].open();
		gates[2].open();
		gates[3].open();
		await pool.drained();
		expect(started).toEqual([0, 1, 2, 3]);
	});

	it('starts no further task after one fails, waits for those running, and rethrows the first error', async () => {
		const pool = new TaskPool(2);
		const started: number[] = [];
		const gates = [gate(), gate(), gate()];
		gates.forEach((g, i) =>
			pool.add(async () => {
				started.push(i);
				await g.done;
			}),
		);
		gates[0].fail(new Error('first'));
		await settle();
		let drained = false;
		const result = pool.drained().then(
			() => (drained = true),
			(error: Error) => {
				drained = true;
				return error.message;
			},
		);
		await settle();
		expect(drained).toBe(false); // task 1 still runs
		gates[1].open();
		gates[2].open(); // lets a wrongly started task end, so the test fails instead of hanging
		expect(await result).toBe('first');
		expect(started).toEqual([0, 1]);
	});

	it('is drained at once when nothing was added', async () => {
		await expect(new TaskPool(3).drained()).resolves.toBeUndefined();
	});
});
