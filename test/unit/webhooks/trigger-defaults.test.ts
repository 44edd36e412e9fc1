import { MediaGenTrigger } from '../../../nodes/MediaGenTrigger/MediaGenTrigger.node';
import {
	DEFAULT_IGNORE_REPEATED_EVENTS,
	DEFAULT_MAX_EVENT_AGE_MINUTES,
} from '../../../src/webhooks/receive';

describe('MediaGen Trigger defaults', () => {
	it('shows the same Ignore Repeated Events default in the editor as the receiver assumes when it is unset', () => {
		const property = new MediaGenTrigger().description.properties.find(
			(p) => p.name === 'ignoreRepeatedEvents',
		);
		expect(property?.default).toBe(DEFAULT_IGNORE_REPEATED_EVENTS);
	});

	it('shows the same Reject Events Older Than default as the receiver applies when it is unset', () => {
		const property = new MediaGenTrigger().description.properties.find(
			(p) => p.name === 'maxEventAgeMinutes',
		);
		expect(property?.default).toBe(DEFAULT_MAX_EVENT_AGE_MINUTES);
	});
});
