import { MediaGenTrigger } from '../../../nodes/MediaGenTrigger/MediaGenTrigger.node';
import { ignoreRepeatedEvents, maxEventAge } from '../../../src/webhooks/trigger-options';

// The receiver assumes an option's default when a workflow saved none: the editor must show that
// same default (both come from the option's one definition, src/webhooks/trigger-options.ts).
describe('MediaGen Trigger defaults', () => {
	const properties = new MediaGenTrigger().description.properties;

	it('shows the same Ignore Repeated Events default in the editor as the receiver assumes when it is unset', () => {
		expect(properties.find((p) => p.name === ignoreRepeatedEvents.name)?.default).toBe(true);
		expect(ignoreRepeatedEvents.spec.default).toBe(true);
	});

	it('shows the same Reject Events Older Than default as the receiver applies when it is unset', () => {
		const property = properties.find((p) => p.name === maxEventAge.name);
		expect(property?.default).toBe(maxEventAge.spec.default);
		expect(property?.default).toBe(5);
		expect(property?.typeOptions?.minValue).toBe(0);
	});
});
