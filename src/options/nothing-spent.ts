/** What every refusal of user input says: the service never saw the request, so nothing was charged. */
export const NOTHING_SPENT = 'Nothing was sent to the service, so no credits were spent.';
