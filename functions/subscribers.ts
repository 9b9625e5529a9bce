import type { Config } from '@netlify/functions';
import { formHandler } from './_lib/form-endpoint';
import { emailAsciiOf, SubscriberRequest } from '../src/shared/schemas';

/** The newsletter form on blog posts. */
export default formHandler({
  name: 'subscribers',
  schema: SubscriberRequest,
  save: (store, { email, firstName, lastName, source }, now, options) =>
    store.subscribe({ email, ...emailAsciiOf(email), firstName, lastName, source }, now, options),
});

export const config: Config = { path: '/api/subscribers' };
