import { MediaGenTrigger } from '../../nodes/MediaGenTrigger/MediaGenTrigger.node';
import { DEFAULT_IGNORE_REPEATED_EVENTS } from '../../src/webhooks/receive';

describe('MediaGen Trigger defaults', () => {
	it('shows the same Ignore Repeated Events default in the editor as the receiver assumes when it is unset', () => {
		const property = new MediaGenTrigger().description.properties.find((p) => p.name === 'ignoreRepeatedEvents');
		expect(property?.default).toBe(DEFAULT_IGNORE_REPEATED_EVENTS);
	});
});
