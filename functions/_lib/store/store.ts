// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/** The store: every operation, each written once in the module of its concern, over one backend. */
import { adminReadVerbs } from './admin-reads';
import type { Backend } from './backend-contract';
import { bookingVerbs } from './bookings';
import { leadVerbs } from './leads';
import { mailingVerbs } from './mailings';
import { newsletterTestVerbs } from './newsletter-tests';
import { outboxVerbs } from './outbox';
import { bulkVerbs } from './outbox-bulk';
import { sessionVerbs } from './sessions';
import { spamVerbs } from './spam';
import { subscriberVerbs } from './subscribers';
import { visitVerbs } from './visits';

export function createStore(backend: Backend) {
  return {
    ...subscriberVerbs(backend),
    ...leadVerbs(backend),
    ...bookingVerbs(backend),
    ...spamVerbs(backend),
    ...outboxVerbs(backend),
    ...bulkVerbs(backend),
    ...mailingVerbs(backend),
    ...newsletterTestVerbs(backend),
    ...sessionVerbs(backend),
    ...adminReadVerbs(backend),
    ...visitVerbs(backend),
  };
}

/** The verbs the functions call: getStore() gives them, each with a deadline. */
export type StoreVerbs = ReturnType<typeof createStore>;
