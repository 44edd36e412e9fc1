import type { Fault } from './state';

/**
 * Chaos: with probability `rate` a request meets one of the failures a real network and service
 * produce. Half of them hit after the service acted (the run exists, the answer is lost or late),
 * which is what idempotency keys are for.
 */
export function chaosFault(
	rate: number,
	slowMs: number,
	random: () => number = Math.random,
): Fault | undefined {
	if (rate <= 0 || random() >= rate) return undefined;
	const kinds: Array<Omit<Fault, 'remaining'>> = [
		{ when: 'before', status: 500 },
		{ when: 'before', status: 503, retryAfter: 0 },
		{ when: 'before', status: 429, retryAfter: 1 },
		{ when: 'before', reset: true },
		{ when: 'after', reset: true },
		{ when: 'after', status: 502 },
		{ when: 'after', delayMs: slowMs },
	];
	return { ...kinds[Math.floor(random() * kinds.length)], remaining: 1 };
}
