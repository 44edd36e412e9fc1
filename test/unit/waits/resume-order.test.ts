import { lastToFinish } from '../../../src/waits/resume';

/** Which run's event resumes a paused execution: the one that finished last, whatever the order they were made in. */
describe('lastToFinish', () => {
	const run = (id: string, created: string, completed?: string, updated?: string) => ({
		id,
		created_at: created,
		completed_at: completed ?? null,
		updated_at: updated ?? completed ?? created,
	});

	it('picks by completion, not by creation: the run made first that finished last', () => {
		const runs = [
			run('run_a', '2026-01-01T10:00:00Z', '2026-01-01T10:05:00Z'),
			run('run_b', '2026-01-01T10:01:00Z', '2026-01-01T10:02:00Z'),
			run('run_c', '2026-01-01T10:02:00Z', '2026-01-01T10:01:00Z'),
		];
		expect(lastToFinish(runs)).toBe('run_a');
		expect(lastToFinish([...runs].reverse())).toBe('run_a');
	});

	it('breaks a tie of completion times by the greatest id, in any order (one delivery of a burst resumes)', () => {
		const at = '2026-01-01T10:05:00.123Z';
		const runs = [
			run('run_m', '2026-01-01T10:00:00Z', at),
			run('run_z', '2026-01-01T10:00:00Z', at),
			run('run_b', '2026-01-01T10:03:00Z', at),
		];
		expect(lastToFinish(runs)).toBe('run_z');
		expect(lastToFinish([...runs].reverse())).toBe('run_z');
		expect(lastToFinish([runs[2], runs[0]])).toBe('run_m');
	});

	it('reads the last update of a subject without a completion time (a batch), and nothing of nothing', () => {
		expect(
			lastToFinish([
				run('batch_1', '2026-01-01T10:00:00Z', undefined, '2026-01-01T10:09:00Z'),
				run('batch_2', '2026-01-01T10:00:00Z', '2026-01-01T10:05:00Z'),
			]),
		).toBe('batch_1');
		expect(lastToFinish([])).toBeUndefined();
	});
});
