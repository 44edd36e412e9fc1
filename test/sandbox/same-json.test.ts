import { sameJson } from '../../sandbox/same-json';

describe('sameJson: the sandbox tells a retry from other parameters', () => {
	it.each([
		[
			'key order, nested too',
			{ a: 1, b: { c: [1, { d: 2, e: 3 }] } },
			{ b: { c: [1, { e: 3, d: 2 }] }, a: 1 },
		],
		[
			'equal scalars and null',
			{ a: null, b: 'x', c: true, d: 0.5 },
			{ d: 0.5, c: true, b: 'x', a: null },
		],
		['empty containers', { a: {}, b: [] }, { b: [], a: {} }],
	])('same: %s', (_what, a, b) => {
		expect(sameJson(a, b)).toBe(true);
	});

	it.each([
		['another value deep inside', { a: { b: [1, 2] } }, { a: { b: [1, 3] } }],
		['array order', { urls: ['x', 'y'] }, { urls: ['y', 'x'] }],
		['one key more', { a: 1 }, { a: 1, b: 1 }],
		['a key replaced by another with the same count', { a: 1, b: undefined }, { a: 1, c: 2 }],
		['null against missing', { a: null }, {}],
		['number against string', { count: 1 }, { count: '1' }],
		['object against array', { a: {} }, { a: [] }],
		['array against object with index keys', [1, 2], { 0: 1, 1: 2 }],
	])('different: %s', (_what, a, b) => {
		expect(sameJson(a, b)).toBe(false);
		expect(sameJson(b, a)).toBe(false);
	});
});
