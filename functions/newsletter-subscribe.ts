import type { Config } from '@netlify/functions';
import { formHandler } from './_lib/form-endpoint';
import { emailAsciiOf, NewsletterSubscribeRequest } from '../src/shared/schemas';

/** The footer signup on every page. */
export default formHandler({
  name: 'newsletter-subscribe',
  schema: NewsletterSubscribeRequest,
  save: (store, { email, firstName, lastName, source }, now, options) =>
    store.subscribe({ email, ...emailAsciiOf(email), firstName, lastName, source }, now, options),
});

export const config: Config = { path: '/api/newsletter/subscribe' };
