import type { FieldSpec } from '../../../src/catalog';
import { numberBounds } from '../../../src/models/limits';

const number = (
	displayName: string,
	limit: FieldSpec['limit'],
	bounds: Partial<FieldSpec> = {},
): FieldSpec => ({
	name: displayName.toLowerCase(),
	displayName,
	type: 'number',
	default: 0,
	limit,
	...bounds,
});

describe('the bounds a model puts on an operation’s numbers, as its Model list line gives them', () => {
	it('joins the model’s bound with the field’s own ("Count 1–4"), or says which side is open', () => {
		expect(
			numberBounds(
				[number('Count', { kind: 'max', keys: ['max_count'] }, { type: 'integer', min: 1 })],
				{ max_count: 4 },
			),
		).toEqual(['Count 1–4']);
		expect(
			numberBounds([number('Count', { kind: 'max', keys: ['max_count'] }, { min: 1 })], {
				max_count: 1,
			}),
		).toEqual(['Count 1']);
		expect(
			numberBounds([number('Strength', { kind: 'max', keys: ['max_strength'] })], {
				max_strength: 2,
			}),
		).toEqual(['Strength ≤ 2']);
		expect(
			numberBounds([number('Steps', { kind: 'min', keys: ['min_steps'] })], { min_steps: 10 }),
		).toEqual(['Steps ≥ 10']);
		expect(
			numberBounds([number('Polycount', { kind: 'between', keys: ['target_polycount'] })], {
				target_polycount: { min: 100, max: 500 },
			}),
		).toEqual(['Polycount 100–500']);
	});

	it('lists the values of a model that names them, and reads the first rule the model reports', () => {
		const scale = number('Scale Factor', {
			kind: 'all',
			rules: [
				{ kind: 'oneOf', keys: ['scale_factors'] },
				{ kind: 'range', minKeys: ['min_scale'], maxKeys: ['max_scale'] },
			],
		});
		expect(numberBounds([scale], { scale_factors: [2, 3, 4] })).toEqual(['Scale Factor 2, 3 or 4']);
		expect(numberBounds([scale], { scale_factors: [2] })).toEqual(['Scale Factor 2']);
		expect(numberBounds([scale], { min_scale: 1.5, max_scale: 3 })).toEqual(['Scale Factor 1.5–3']);
	});

	it('says nothing the model did not report, and nothing of fields that are not numbers', () => {
		expect(
			numberBounds([number('Count', { kind: 'max', keys: ['max_count'] }, { min: 1 })], {
				other: 1,
			}),
		).toEqual([]);
		expect(
			numberBounds([number('Count', { kind: 'max', keys: ['max_count'] })], undefined),
		).toEqual([]);
		expect(
			numberBounds(
				[{ ...number('Prompt', { kind: 'maxLength', keys: ['prompt_max_length'] }), type: 'text' }],
				{ prompt_max_length: 10 },
			),
		).toEqual([]);
		expect(numberBounds([number('Count', undefined)], { max_count: 4 })).toEqual([]);
	});
});
